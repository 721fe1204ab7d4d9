package dev.slotpool.e2e;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One command on PgBouncer's admin console over the PostgreSQL wire protocol (startup, trust login, one simple
 * query). Not through pgjdbc: from 42.7.5 it runs {@code SET extra_float_digits} after login, which the console of
 * PgBouncer 1.18 refuses ("SET failed"), whatever the connection properties say.
 */
final class PgBouncerConsole {

    private static final int PROTOCOL_3 = 196608;

    private PgBouncerConsole() {
    }

    /** Runs {@code command} as {@code user} on the console at {@code port}; the rows it returned, if any. */
    static List<Map<String, String>> run(int port, String user, String command) throws IOException, SQLException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoTimeout(30_000);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            DataInputStream in = new DataInputStream(s.getInputStream());
            ByteArrayOutputStream startup = new ByteArrayOutputStream();
            DataOutputStream body = new DataOutputStream(startup);
            body.writeInt(PROTOCOL_3);
            cstring(body, "user");
            cstring(body, user);
            cstring(body, "database");
            cstring(body, "pgbouncer");
            body.writeByte(0);
            out.writeInt(startup.size() + 4);
            out.write(startup.toByteArray());
            out.flush();
            awaitReady(in);
            byte[] sql = (command + '\0').getBytes(StandardCharsets.UTF_8);
            out.writeByte('Q');
            out.writeInt(sql.length + 4);
            out.write(sql);
            out.flush();
            List<String> columns = new ArrayList<>();
            List<Map<String, String>> rows = new ArrayList<>();
            SQLException error = null;
            while (true) {
                char type = (char) in.readUnsignedByte();
                byte[] msg = new byte[in.readInt() - 4];
                in.readFully(msg);
                DataInputStream m = new DataInputStream(new java.io.ByteArrayInputStream(msg));
                switch (type) {
                    case 'T' -> {
                        int n = m.readUnsignedShort();
                        for (int i = 0; i < n; i++) {
                            columns.add(readCString(m));
                            m.skipBytes(18);
                        }
                    }
                    case 'D' -> {
                        int n = m.readUnsignedShort();
                        Map<String, String> row = new LinkedHashMap<>();
                        for (int i = 0; i < n; i++) {
                            int len = m.readInt();
                            String value = null;
                            if (len >= 0) {
                                byte[] v = new byte[len];
                                m.readFully(v);
                                value = new String(v, StandardCharsets.UTF_8);
                            }
                            row.put(columns.get(i), value);
                        }
                        rows.add(row);
                    }
                    case 'E' -> error = new SQLException("pgbouncer console: " + errorText(msg) + " (" + command + ")");
                    case 'Z' -> {
                        out.writeByte('X');
                        out.writeInt(4);
                        out.flush();
                        if (error != null) {
                            throw error;
                        }
                        return rows;
                    }
                    default -> {
                        // CommandComplete, NoticeResponse, ParameterStatus: nothing to keep
                    }
                }
            }
        }
    }

    /** Reads the login's messages up to ReadyForQuery; an ErrorResponse fails. */
    private static void awaitReady(DataInputStream in) throws IOException, SQLException {
        while (true) {
            char type = (char) in.readUnsignedByte();
            byte[] msg = new byte[in.readInt() - 4];
            in.readFully(msg);
            if (type == 'E') {
                throw new SQLException("pgbouncer console login: " + errorText(msg));
            }
            if (type == 'R' && msg.length >= 4 && (msg[0] | msg[1] | msg[2] | msg[3]) != 0) {
                throw new SQLException("pgbouncer console asks for a password (auth_type is not trust)");
            }
            if (type == 'Z') {
                return;
            }
        }
    }

    /** The message field ('M') of an ErrorResponse. */
    private static String errorText(byte[] msg) {
        int i = 0;
        while (i < msg.length && msg[i] != 0) {
            byte field = msg[i++];
            int end = i;
            while (end < msg.length && msg[end] != 0) {
                end++;
            }
            if (field == 'M') {
                return new String(msg, i, end - i, StandardCharsets.UTF_8);
            }
            i = end + 1;
        }
        return "(no message)";
    }

    private static void cstring(DataOutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.UTF_8));
        out.writeByte(0);
    }

    private static String readCString(DataInputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.readUnsignedByte()) != 0) {
            b.write(c);
        }
        return b.toString(StandardCharsets.UTF_8);
    }
}
