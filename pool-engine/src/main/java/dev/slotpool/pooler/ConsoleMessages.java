package dev.slotpool.pooler;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The admin console's side of the wire protocol for {@link PgBouncerAdmin}: its messages, read within one deadline
 * for the whole command, with every length checked before anything is allocated, and a query's answer as rows.
 */
final class ConsoleMessages {

    /** The longest message accepted: a SHOW POOLS row is well under a kilobyte. */
    static final int MAX_MESSAGE_BYTES = 1 << 20;
    /** The most a whole answer may hold (a console with thousands of pools stays far below). */
    static final int MAX_ANSWER_BYTES = 16 << 20;

    private final Socket socket;
    private final DataInputStream in;
    private final long deadline;
    private long total;
    private int length;

    ConsoleMessages(Socket socket, long deadline) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.deadline = deadline;
    }

    /** The next message's type; its body follows with {@link #body()}. */
    char next() throws IOException, SQLException {
        char type;
        int announced;
        try {
            waitAtMostWhatIsLeft();
            type = (char) in.readUnsignedByte();
            announced = in.readInt();
        } catch (SocketTimeoutException e) {
            throw late();
        }
        if (announced < 4 || announced - 4 > MAX_MESSAGE_BYTES) {
            throw new SQLException("pooler console announced a message of " + Integer.toUnsignedString(announced)
                    + " bytes (at most " + MAX_MESSAGE_BYTES + " accepted)", "08P01");
        }
        total += announced;
        if (total > MAX_ANSWER_BYTES) {
            throw new SQLException("pooler console's answer exceeds " + MAX_ANSWER_BYTES + " bytes", "08P01");
        }
        length = announced - 4;
        return type;
    }

    byte[] body() throws IOException, SQLException {
        byte[] msg = new byte[length];
        int read = 0;
        while (read < length) {
            int n;
            try {
                waitAtMostWhatIsLeft();
                n = in.read(msg, read, length - read);
            } catch (SocketTimeoutException e) {
                throw late();
            }
            if (n < 0) {
                throw new EOFException("pooler console closed the connection");
            }
            read += n;
        }
        return msg;
    }

    private void waitAtMostWhatIsLeft() throws IOException {
        timeoutUntil(socket, deadline);
    }

    /** Makes the socket's reads wait at most until {@code deadline} (System.nanoTime). */
    static void timeoutUntil(Socket socket, long deadline) throws IOException {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left < 1) {
            throw late();
        }
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
    }

    static SocketTimeoutException late() {
        return new SocketTimeoutException("pooler console did not answer in time");
    }

    /** A simple query's answer, up to ReadyForQuery: its rows (column label to text), or the error it carried. */
    List<Map<String, String>> results(String command) throws IOException, SQLException {
        List<String> columns = new ArrayList<>();
        List<Map<String, String>> rows = new ArrayList<>();
        SQLException error = null;
        while (true) {
            char type = next();
            byte[] msg = body();
            DataInputStream m = new DataInputStream(new ByteArrayInputStream(msg));
            switch (type) {
                case 'T' -> {
                    int n = m.readUnsignedShort();
                    for (int i = 0; i < n; i++) {
                        columns.add(readCString(m));
                        m.skipBytes(18); // table oid, column number, type oid, size, modifier, format
                    }
                }
                case 'D' -> {
                    int n = m.readUnsignedShort();
                    Map<String, String> row = new LinkedHashMap<>();
                    for (int i = 0; i < n; i++) {
                        int len = m.readInt();
                        if (len > m.available()) {
                            throw malformed("row");
                        }
                        String value = null;
                        if (len >= 0) {
                            byte[] v = new byte[len];
                            m.readFully(v);
                            value = new String(v, StandardCharsets.UTF_8);
                        }
                        row.put(i < columns.size() ? columns.get(i) : String.valueOf(i), value);
                    }
                    rows.add(row);
                }
                case 'E' -> error = new SQLException("pooler console: " + errorText(msg) + " (" + command + ")");
                case 'Z' -> {
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

    /** An answer that breaks the protocol. */
    static SQLException malformed(String what) {
        return new SQLException("pooler console sent a malformed " + what, "08P01");
    }

    /** The message field ('M') of an ErrorResponse. */
    static String errorText(byte[] msg) {
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

    private static String readCString(DataInputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.readUnsignedByte()) != 0) {
            b.write(c);
        }
        return b.toString(StandardCharsets.UTF_8);
    }
}
