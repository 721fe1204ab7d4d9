package dev.slotpool.pooler;

import dev.slotpool.PoolerView;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * Reads PgBouncer's admin console (the virtual database {@code pgbouncer}) over the PostgreSQL wire protocol: one
 * login (trust or md5 password; a cleartext password only where the URL allows it), one simple query. Not through a
 * JDBC driver: pgjdbc 42.7.5+ sends {@code SET extra_float_digits} after login, which the console of PgBouncer 1.18
 * refuses, and the engine depends on no driver. It trusts nothing the server sends: the whole command (connect,
 * login, query) ends within its timeout, a message longer than {@link ConsoleMessages#MAX_MESSAGE_BYTES} or an
 * answer longer than {@link ConsoleMessages#MAX_ANSWER_BYTES} is refused before anything is allocated for it, and a
 * malformed message is an error ({@link ConsoleMessages}).
 */
public final class PgBouncerAdmin {

    private static final int PROTOCOL_3 = 196608;
    private static final int AUTH_OK = 0;
    private static final int AUTH_CLEARTEXT = 3;
    private static final int AUTH_MD5 = 5;
    /** The URL parameter that allows sending the password in cleartext when the console asks for it. */
    static final String ALLOW_CLEARTEXT = "allowCleartextPassword";
    /** The URL parameter that asks for TLS ({@link SslMode}). */
    static final String SSLMODE = "sslmode";
    /** PostgreSQL's SSLRequest code, sent in place of a protocol version. */
    private static final int SSL_REQUEST = 80877103;

    /** Whether the console's connection is encrypted, and what of the server's certificate is checked. */
    enum SslMode {
        /** Plain TCP. */
        DISABLE("disable"),
        /** TLS; the certificate's chain is checked against the JVM's default trust store, its host name is not. */
        REQUIRE("require"),
        /** TLS; the certificate's chain and its host name (the URL's) are checked. */
        VERIFY_FULL("verify-full");

        final String setting;

        SslMode(String setting) {
            this.setting = setting;
        }

        static SslMode of(String setting) {
            for (SslMode m : values()) {
                if (m.setting.equals(setting)) {
                    return m;
                }
            }
            throw new IllegalArgumentException(SSLMODE + " must be disable, require or verify-full");
        }
    }

    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final boolean allowCleartext;
    private final SslMode ssl;

    private PgBouncerAdmin(String host, int port, String user, String password, boolean allowCleartext, SslMode ssl) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.allowCleartext = allowCleartext;
        this.ssl = ssl;
    }

    /**
     * The console at {@code url}: {@code postgresql://host:port/pgbouncer?user=name&password=secret} (a
     * {@code jdbc:} prefix is allowed; port 6432 when absent). A console asking for the password in cleartext
     * (PgBouncer's {@code auth_type = plain}) is refused unless the URL says {@code allowCleartextPassword=true}:
     * the connection is not encrypted, so anyone on the path, or a server posing as the console, would read it.
     * {@code sslmode=require} or {@code verify-full} encrypts it ({@link SslMode}: PostgreSQL's SSLRequest, then a
     * TLS handshake by the JVM's default {@link SSLSocketFactory}; a console that offers no TLS is refused), and a
     * cleartext password is then sent over TLS only; {@code disable} (the default) does not.
     *
     * @throws IllegalArgumentException when the URL names no host or user, allowCleartextPassword is neither
     *                                  true nor false, or sslmode is none of disable, require and verify-full
     */
    public static PgBouncerAdmin at(String url) {
        String u = url.startsWith("jdbc:") ? url.substring(5) : url;
        URI uri = URI.create(u);
        if (!"postgresql".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("must be postgresql://host:port/pgbouncer?user=name");
        }
        Map<String, String> params = new LinkedHashMap<>();
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    params.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        if (params.get("user") == null) {
            throw new IllegalArgumentException("must name the console's user (?user=name)");
        }
        String cleartext = params.getOrDefault(ALLOW_CLEARTEXT, "false");
        if (!cleartext.equals("true") && !cleartext.equals("false")) {
            throw new IllegalArgumentException(ALLOW_CLEARTEXT + " must be true or false");
        }
        SslMode ssl = SslMode.of(params.getOrDefault(SSLMODE, SslMode.DISABLE.setting));
        return new PgBouncerAdmin(uri.getHost(), uri.getPort() < 0 ? 6432 : uri.getPort(), params.get("user"),
                params.get("password"), cleartext.equals("true"), ssl);
    }

    /** {@code SHOW POOLS} summed over the users of {@code database}; zeros when PgBouncer has no pool for it yet. */
    public PoolerView showPools(String database, Duration timeout) throws IOException, SQLException {
        int clActive = 0;
        int clWaiting = 0;
        int svActive = 0;
        int svIdle = 0;
        int svUsed = 0;
        long maxWait = 0;
        for (Map<String, String> row : run("SHOW POOLS", timeout)) {
            if (!database.equals(row.get("database"))) {
                continue;
            }
            clActive += number(row, "cl_active");
            clWaiting += number(row, "cl_waiting");
            svActive += number(row, "sv_active");
            svIdle += number(row, "sv_idle");
            svUsed += number(row, "sv_used");
            maxWait = Math.max(maxWait, number(row, "maxwait") * 1_000_000 + number(row, "maxwait_us"));
        }
        return new PoolerView(clActive, clWaiting, svActive, svIdle, svUsed, maxWait, Instant.now());
    }

    /** Runs one console command, all of it within {@code timeout}; its rows (column label to text), if any. */
    public List<Map<String, String>> run(String command, Duration timeout) throws IOException, SQLException {
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        try (Socket plain = new Socket(); Socket s = secured(plain, millis, deadline)) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            ConsoleMessages in = new ConsoleMessages(s, deadline);
            startup(out);
            login(in, out);
            byte[] sql = (command + '\0').getBytes(StandardCharsets.UTF_8);
            out.writeByte('Q');
            out.writeInt(sql.length + 4);
            out.write(sql);
            out.flush();
            List<Map<String, String>> rows = in.results(command);
            try {
                out.writeByte('X');
                out.writeInt(4);
                out.flush();
            } catch (IOException e) {
                // The answer is whole; a console that hung up first leaves nothing to end.
            }
            return rows;
        }
    }

    /** Connects {@code plain} within {@code millis}; the socket to talk on: {@code plain}, or TLS over it as
     * {@link #ssl} asks, negotiated before {@code deadline} (the command's). */
    private Socket secured(Socket plain, int millis, long deadline) throws IOException, SQLException {
        plain.connect(new InetSocketAddress(host, port), millis);
        if (ssl == SslMode.DISABLE) {
            return plain;
        }
        DataOutputStream out = new DataOutputStream(plain.getOutputStream());
        out.writeInt(8);
        out.writeInt(SSL_REQUEST);
        out.flush();
        int answer;
        try {
            ConsoleMessages.timeoutUntil(plain, deadline);
            answer = plain.getInputStream().read(); // one byte, nothing buffered past it
        } catch (SocketTimeoutException e) {
            throw ConsoleMessages.late();
        }
        if (answer == 'N') {
            throw new SQLException("pooler console offers no TLS, which " + SSLMODE + "=" + ssl.setting
                    + " in the console URL requires", "08001");
        }
        if (answer != 'S') {
            throw new SQLException("pooler console answered the TLS request with "
                    + (answer < 0 ? "the end of the connection" : "byte " + answer), "08P01");
        }
        SSLSocket tls = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault())
                .createSocket(plain, host, port, true);
        if (ssl == SslMode.VERIFY_FULL) {
            SSLParameters p = tls.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            tls.setSSLParameters(p);
        }
        try {
            ConsoleMessages.timeoutUntil(tls, deadline);
            tls.startHandshake();
        } catch (SocketTimeoutException e) {
            tls.close();
            throw ConsoleMessages.late();
        } catch (IOException | RuntimeException e) {
            tls.close();
            throw e;
        }
        return tls;
    }

    private void startup(DataOutputStream out) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream body = new DataOutputStream(bytes);
        body.writeInt(PROTOCOL_3);
        cstring(body, "user");
        cstring(body, user);
        cstring(body, "database");
        cstring(body, "pgbouncer");
        body.writeByte(0);
        out.writeInt(bytes.size() + 4);
        out.write(bytes.toByteArray());
        out.flush();
    }

    /** Answers the authentication request, then reads up to ReadyForQuery. */
    private void login(ConsoleMessages in, DataOutputStream out) throws IOException, SQLException {
        while (true) {
            char type = in.next();
            byte[] msg = in.body();
            if (type == 'E') {
                throw new SQLException("pooler console login refused: " + ConsoleMessages.errorText(msg), "08004");
            }
            if (type == 'R') {
                int kind = msg.length < 4 ? -1 : new DataInputStream(new ByteArrayInputStream(msg)).readInt();
                if (kind < 0 || kind == AUTH_MD5 && msg.length < 8) {
                    throw ConsoleMessages.malformed("authentication request");
                }
                if (kind == AUTH_CLEARTEXT && !allowCleartext && ssl == SslMode.DISABLE) {
                    throw new SQLException("pooler console asks for the password in cleartext, which the pool does "
                            + "not send over an unencrypted connection (" + ALLOW_CLEARTEXT + "=true in the console "
                            + "URL allows it, as does " + SSLMODE + "=require or verify-full; PgBouncer's auth_type "
                            + "md5 needs no such thing)", "28000");
                }
                if (kind == AUTH_CLEARTEXT || kind == AUTH_MD5) {
                    if (password == null) {
                        throw new SQLException("pooler console asks for a password; the URL has none", "28000");
                    }
                    String answer = kind == AUTH_CLEARTEXT ? password
                            : "md5" + md5Hex(concat(md5Hex(concat(password.getBytes(StandardCharsets.UTF_8),
                            user.getBytes(StandardCharsets.UTF_8))).getBytes(StandardCharsets.UTF_8),
                            java.util.Arrays.copyOfRange(msg, 4, 8)));
                    byte[] p = (answer + '\0').getBytes(StandardCharsets.UTF_8);
                    out.writeByte('p');
                    out.writeInt(p.length + 4);
                    out.write(p);
                    out.flush();
                } else if (kind != AUTH_OK) {
                    throw new SQLException("pooler console asks for authentication method " + kind
                            + "; supported: trust, password, md5", "28000");
                }
            }
            if (type == 'Z') {
                return;
            }
        }
    }

    private static long number(Map<String, String> row, String column) {
        String v = row.get(column);
        if (v == null || v.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static String md5Hex(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required of every Java platform", e);
        }
    }

    private static void cstring(DataOutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.UTF_8));
        out.writeByte(0);
    }

    /** The console's address and user; never the password. */
    @Override
    public String toString() {
        return "PgBouncerAdmin[" + user + "@" + host + ":" + port + "]";
    }
}
