package dev.slotpool.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The proxy's target in {@link TcpFaultProxyTest}: echoes every byte back on a loopback port, closes its side
 * after the client's FIN, and records how each connection ended ("EOF" or the exception's message), so tests can
 * tell what reached the server.
 */
final class EchoServer implements AutoCloseable {

    private final ServerSocket server;
    private final AtomicInteger accepted = new AtomicInteger();
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final BlockingQueue<String> endings = new LinkedBlockingQueue<>();
    private final Thread acceptor;

    EchoServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::acceptLoop, "echo-" + server.getLocalPort() + "-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Connections the server accepted: what reached the target through the proxy. */
    int accepted() {
        return accepted.get();
    }

    /** How connections ended, in order: "EOF" or the message of the exception that ended the read or write. */
    BlockingQueue<String> endings() {
        return endings;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                accepted.incrementAndGet();
                sockets.add(socket);
                Thread echo = new Thread(() -> echo(socket), "echo-" + server.getLocalPort() + "-" + accepted.get());
                echo.setDaemon(true);
                echo.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void echo(Socket socket) {
        byte[] buffer = new byte[8192];
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
            }
            endings.add("EOF");
        } catch (IOException e) {
            endings.add(String.valueOf(e.getMessage()));
        } finally {
            sockets.remove(socket);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
