package dev.slotpool.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * One client connection accepted by a {@link TcpFaultProxy}: either forwarded (an upstream socket to the target
 * and two pump threads, one per direction) or held (one thread that discards what the client sends).
 *
 * <p>It ends exactly once: gracefully, when both directions have carried their FIN (or a held client closed),
 * or abortively by {@link #reset()}, which closes both sockets with SO_LINGER 0 so each peer gets an RST.
 * A pump that fails to read or write resets the pair, as a router forwards a reset: an RST from one peer
 * becomes an RST to the other.
 */
final class ProxiedConnection {

    private static final int CHUNK_BYTES = 16 * 1024;

    private final TcpFaultProxy proxy;
    private final int id;
    private final Socket client;

    // Guarded by this.
    private Socket upstream;
    private boolean ended;
    private int directionsDone;
    private final List<Thread> threads = new ArrayList<>(2);

    ProxiedConnection(TcpFaultProxy proxy, int id, Socket client) {
        this.proxy = proxy;
        this.id = id;
        this.client = client;
    }

    /** Connects to the target and forwards both ways, on this connection's own threads. */
    void startForwarding() {
        startThread(id + "-up", this::connectAndForward);
    }

    /** Holds the connection open, never answering, until the client closes it or it is reset. */
    void startHeld() {
        startThread(id + "-held", this::discardUntilClientCloses);
    }

    /** Ends the connection abortively: RST to both peers, threads woken. Idempotent. */
    void reset() {
        Socket up;
        List<Thread> toWake;
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            up = upstream;
            toWake = List.copyOf(threads);
        }
        abortively(client);
        abortively(up);
        // Closing the sockets ends blocked reads and writes; the interrupt ends a blackhole wait or a latency pause.
        for (Thread thread : toWake) {
            if (thread != Thread.currentThread()) {
                thread.interrupt();
            }
        }
        proxy.ended(this);
    }

    /** Closes with SO_LINGER 0, so the peer gets an RST instead of a FIN. */
    static void abortively(Socket socket) {
        if (socket == null) {
            return;
        }
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // already closed, or never connected: close() below is all there is to do
        }
        TcpFaultProxy.closeQuietly(socket);
    }

    private void connectAndForward() {
        Socket up = new Socket();
        synchronized (this) {
            if (ended) {
                TcpFaultProxy.closeQuietly(up);
                return;
            }
            // Attached before connecting, so that reset() can close it and end a pending connect.
            upstream = up;
        }
        try {
            client.setTcpNoDelay(true);
            up.connect(proxy.target(), TcpFaultProxy.TARGET_CONNECT_TIMEOUT_MILLIS);
            up.setTcpNoDelay(true);
        } catch (IOException e) {
            // The target is down: the closest a proxy comes to "connection refused" is an RST to the client.
            reset();
            return;
        }
        if (startThread(id + "-down", () -> pump(up, client))) {
            pump(client, up);
        }
    }

    /**
     * Copies {@code from} to {@code to} until EOF, then half-closes {@code to}. While the proxy is blackholed,
     * whatever was read (a chunk, the EOF, the error) waits for the network to heal before it has any effect.
     */
    private void pump(Socket from, Socket to) {
        byte[] chunk = new byte[CHUNK_BYTES];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            while (true) {
                int n;
                try {
                    n = in.read(chunk);
                } catch (IOException e) {
                    if (!isEnded()) {
                        // The peer reset (or broke) the connection: a blackholed network carries no RST either.
                        proxy.awaitPassage();
                        reset();
                    }
                    return;
                }
                if (!proxy.awaitPassage()) {
                    reset();
                    return;
                }
                if (n < 0) {
                    to.shutdownOutput();
                    directionDone();
                    return;
                }
                proxy.delay();
                out.write(chunk, 0, n);
            }
        } catch (IOException e) {
            reset();
        } catch (InterruptedException e) {
            // Only reset() and close() interrupt a pump; the connection is ending.
            reset();
        }
    }

    private void discardUntilClientCloses() {
        byte[] sink = new byte[1024];
        try {
            InputStream in = client.getInputStream();
            while (in.read(sink) >= 0) {
                // held: never answered, never forwarded
            }
        } catch (IOException e) {
            reset();
            return;
        }
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
        }
        TcpFaultProxy.closeQuietly(client);
        proxy.ended(this);
    }

    /** One direction carried its FIN; after both, the pair closes gracefully. */
    private void directionDone() {
        Socket up;
        synchronized (this) {
            if (ended || ++directionsDone < 2) {
                return;
            }
            ended = true;
            up = upstream;
        }
        TcpFaultProxy.closeQuietly(client);
        TcpFaultProxy.closeQuietly(up);
        proxy.ended(this);
    }

    private synchronized boolean isEnded() {
        return ended;
    }

    /** Starts a thread for this connection unless it has ended; it is then interrupted by {@link #reset()}. */
    private synchronized boolean startThread(String nameSuffix, Runnable body) {
        if (ended) {
            return false;
        }
        threads.add(proxy.startThread(nameSuffix, body));
        return true;
    }

    @Override
    public String toString() {
        return "ProxiedConnection#" + id + "[" + client.getRemoteSocketAddress() + "]";
    }
}
