package dev.slotpool.console;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A stand-in for PgBouncer's admin console on a loopback port, for the console's page tests: it lets any user in
 * (trust) and answers every query with one {@code SHOW POOLS} row of database {@code postgres} (the database the
 * pool reads for a URL without one) with the counts given. Speaks only the wire protocol messages the pool's
 * {@code PgBouncerAdmin} sends and reads; a real PgBouncer is read in the sample app's browser test.
 */
final class FakePoolerConsole implements AutoCloseable {

    private static final List<String> COLUMNS = List.of("database", "user", "cl_active", "cl_waiting", "sv_active",
            "sv_idle", "sv_used", "maxwait", "maxwait_us");

    private final ServerSocket server;
    private final List<String> row;
    private final Thread thread;

    /** Answers {@code SHOW POOLS} with these counts; {@code maxWaitMicros} split as PgBouncer splits it. */
    FakePoolerConsole(int clientsActive, int clientsWaiting, int serversActive, int serversIdle, int serversUsed,
                      long maxWaitMicros) throws IOException {
        this.server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        this.row = List.of("postgres", "stats", String.valueOf(clientsActive), String.valueOf(clientsWaiting),
                String.valueOf(serversActive), String.valueOf(serversIdle), String.valueOf(serversUsed),
                String.valueOf(maxWaitMicros / 1_000_000), String.valueOf(maxWaitMicros % 1_000_000));
        this.thread = new Thread(this::serve, "fake-pooler-console");
        thread.setDaemon(true);
        thread.start();
    }

    /** Its admin URL, with a password the page must never show. */
    String adminUrl(String password) {
        return "postgresql://127.0.0.1:" + server.getLocalPort() + "/pgbouncer?user=stats&password=" + password;
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                answer(new DataInputStream(s.getInputStream()), new DataOutputStream(s.getOutputStream()));
            } catch (IOException e) {
                // closed, or a client that went away: the next accept decides
            }
        }
    }

    private void answer(DataInputStream in, DataOutputStream out) throws IOException {
        in.skipNBytes(in.readInt() - 4); // the startup message
        message(out, 'R', body -> body.writeInt(0)); // AuthenticationOk
        message(out, 'Z', body -> body.writeByte('I'));
        while (true) {
            char type = (char) in.readUnsignedByte();
            in.skipNBytes(in.readInt() - 4);
            if (type != 'Q') {
                return; // Terminate
            }
            message(out, 'T', body -> {
                body.writeShort(COLUMNS.size());
                for (String c : COLUMNS) {
                    body.write(c.getBytes(StandardCharsets.UTF_8));
                    body.writeByte(0);
                    body.write(new byte[18]); // table oid, column number, type oid, size, modifier, format
                }
            });
            message(out, 'D', body -> {
                body.writeShort(row.size());
                for (String v : row) {
                    byte[] b = v.getBytes(StandardCharsets.UTF_8);
                    body.writeInt(b.length);
                    body.write(b);
                }
            });
            message(out, 'C', body -> body.write("SHOW\0".getBytes(StandardCharsets.UTF_8)));
            message(out, 'Z', body -> body.writeByte('I'));
        }
    }

    private interface Body {
        void write(DataOutputStream body) throws IOException;
    }

    private static void message(DataOutputStream out, char type, Body body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        body.write(new DataOutputStream(bytes));
        out.writeByte(type);
        out.writeInt(bytes.size() + 4);
        out.write(bytes.toByteArray());
        out.flush();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
