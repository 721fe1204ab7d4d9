package dev.slotpool.pooler;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A server posing as PgBouncer's admin console on a loopback port: it reads each client's startup message, then runs
 * the test's script on the connection, which may answer as a console would or misbehave. What clients sent after
 * their startup messages is kept ({@link #received()}), to check what a client gave away.
 */
public final class ScriptedConsole implements AutoCloseable {

    /** What the console does on one client connection, after the startup message. */
    public interface Script {
        void run(DataInputStream in, DataOutputStream out) throws IOException, InterruptedException;
    }

    private final ServerSocket server;
    private final Thread acceptor;
    private final AtomicReference<Script> script;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private volatile int firstCode;

    public ScriptedConsole(Script script) throws IOException {
        this.script = new AtomicReference<>(script);
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "scripted-console");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The console URL, with {@code params} after {@code ?user=stats&password=...}. */
    public String url(String params) {
        return "postgresql://127.0.0.1:" + server.getLocalPort() + "/pgbouncer?user=stats&password=" + PASSWORD
                + params;
    }

    /** The password {@link #url} carries. */
    public static final String PASSWORD = "Console-secret-9f3K";

    /** The code that opened the last connection's first message: a protocol version, or PostgreSQL's SSLRequest
     * ({@code 80877103}); 0 before any. */
    public int firstCode() {
        return firstCode;
    }

    /** Replaces the script for the connections that come next. */
    public void script(Script next) {
        script.set(next);
    }

    /** Everything clients sent after their startup messages, as text. */
    public String received() {
        synchronized (received) {
            return received.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                DataInputStream raw = new DataInputStream(s.getInputStream());
                byte[] startup = new byte[raw.readInt() - 4];
                raw.readFully(startup);
                firstCode = new DataInputStream(new java.io.ByteArrayInputStream(startup)).readInt();
                DataInputStream in = new DataInputStream(new java.io.FilterInputStream(raw) {
                    @Override
                    public int read() throws IOException {
                        int b = super.read();
                        if (b >= 0) {
                            synchronized (received) {
                                received.write(b);
                            }
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        int n = super.read(b, off, len);
                        if (n > 0) {
                            synchronized (received) {
                                received.write(b, off, n);
                            }
                        }
                        return n;
                    }
                });
                script.get().run(in, new DataOutputStream(s.getOutputStream()));
            } catch (IOException e) {
                // the client went away, or the console was closed
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        acceptor.interrupt();
    }

    // ---- what a console says ----

    public static void authentication(DataOutputStream out, int kind) throws IOException {
        out.writeByte('R');
        out.writeInt(8);
        out.writeInt(kind);
        out.flush();
    }

    public static void ready(DataOutputStream out) throws IOException {
        out.writeByte('Z');
        out.writeInt(5);
        out.writeByte('I');
        out.flush();
    }

    /** A trust login: AuthenticationOk, then ReadyForQuery. */
    public static void trusted(DataOutputStream out) throws IOException {
        authentication(out, 0);
        ready(out);
    }

    /** Reads one client message; its type. */
    public static char message(DataInputStream in) throws IOException {
        char type = (char) in.readUnsignedByte();
        in.readFully(new byte[in.readInt() - 4]); // read, not skipped: received() keeps what it held
        return type;
    }

    /** Answers the client's query with one SHOW POOLS row for {@code database}, {@code clientsActive} active. */
    public static void showPools(DataInputStream in, DataOutputStream out, String database, int clientsActive)
            throws IOException {
        message(in); // the query
        String[] columns = {"database", "user", "cl_active", "cl_waiting", "sv_active", "sv_idle", "sv_used",
                "maxwait", "maxwait_us"};
        String[] values = {database, "app", String.valueOf(clientsActive), "0", "1", "0", "0", "0", "0"};
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream b = new DataOutputStream(body);
        b.writeShort(columns.length);
        for (String c : columns) {
            b.write(c.getBytes(StandardCharsets.UTF_8));
            b.writeByte(0);
            b.write(new byte[18]);
        }
        frame(out, 'T', body.toByteArray());
        body.reset();
        b.writeShort(values.length);
        for (String v : values) {
            byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
            b.writeInt(bytes.length);
            b.write(bytes);
        }
        frame(out, 'D', body.toByteArray());
        frame(out, 'C', "SHOW\0".getBytes(StandardCharsets.UTF_8));
        ready(out);
    }

    public static void frame(DataOutputStream out, char type, byte[] body) throws IOException {
        out.writeByte(type);
        out.writeInt(body.length + 4);
        out.write(body);
        out.flush();
    }
}
