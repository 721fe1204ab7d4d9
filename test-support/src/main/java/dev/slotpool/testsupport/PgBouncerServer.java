package dev.slotpool.testsupport;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PgBouncer (the system's {@code pgbouncer}, Debian's 1.18 in CI) in front of one PostgreSQL server, for the
 * engine's tests, the sample app's browser test and the pooler benchmark (docs/poolers.md, "In the suite"): a
 * {@code pgbouncer.ini} and a userlist in a temporary directory, a free loopback port, one database forwarded to the
 * server. Started in the foreground as a child process, so its caller owns it; as root it runs with
 * {@code -u postgres}, since PgBouncer refuses to run as root. A restart keeps the port, so clients reconnect to
 * the same URL.
 *
 * <pre>{@code
 * try (PgBouncerServer bouncer = PgBouncerServer.builder("tx", pg.getPort()).adminUser("postgres")
 *         .setting("default_pool_size", "2").build().start()) {
 *     DriverManager.getConnection(bouncer.url("postgres"));
 * }
 * }</pre>
 *
 * <p>By default: database {@code postgres}, {@code pool_mode = transaction}, {@code default_pool_size = 4},
 * {@code max_client_conn = 1000}, {@code auth_type = trust} with user {@code postgres} (no password) in the
 * userlist, {@code ignore_startup_parameters = extra_float_digits} (pgjdbc sends it at startup, and PgBouncer does
 * not track it). {@link Builder#setting} adds to or replaces any of these.
 *
 * <p>Where {@code pgbouncer} is not installed, {@link #binary()} (and so {@link #start()} without
 * {@link Builder#binary}) skips the calling test with a message, unless the environment variable
 * {@value #REQUIRE_ENV}{@code =1} is set ({@code .ci/run} sets it): then it fails. JUnit is an optional dependency
 * of this module: a caller that names its binary (the benchmark) needs none.
 */
public final class PgBouncerServer implements AutoCloseable {

    /** Set to {@code 1}, a missing {@code pgbouncer} fails the tests that need it instead of skipping them. */
    public static final String REQUIRE_ENV = "SLOTPOOL_REQUIRE_PGBOUNCER";

    /** Where Debian and others install it, in the order looked at. */
    public static final List<Path> CANDIDATES = List.of(Path.of("/usr/sbin/pgbouncer"),
            Path.of("/usr/bin/pgbouncer"), Path.of("/usr/local/bin/pgbouncer"));

    /** How long a start gets until the port accepts connections (a loaded CI machine is slow to fork). */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final String name;
    private final Path binary;
    private final Map<String, String> settings;
    private final Map<String, String> users;
    private final String database;
    private final Path dir;
    private final int port;
    private Process process;

    private PgBouncerServer(Builder b) throws IOException {
        this.name = b.name;
        this.binary = b.binary;
        this.database = b.database;
        this.users = b.users.isEmpty() ? Map.of("postgres", "") : new LinkedHashMap<>(b.users);
        this.dir = Files.createTempDirectory("slotpool-pgbouncer-" + name);
        this.port = freePort();
        Map<String, String> s = new LinkedHashMap<>();
        s.put("listen_addr", "127.0.0.1");
        s.put("listen_port", String.valueOf(port));
        s.put("unix_socket_dir", "");
        s.put("auth_type", b.authType);
        s.put("auth_file", dir.resolve("userlist.txt").toString());
        if (!b.adminUsers.isEmpty()) {
            s.put("admin_users", String.join(",", b.adminUsers));
        }
        if (!b.statsUsers.isEmpty()) {
            s.put("stats_users", String.join(",", b.statsUsers));
        }
        s.put("pool_mode", "transaction");
        s.put("default_pool_size", "4");
        s.put("max_client_conn", "1000");
        s.put("ignore_startup_parameters", "extra_float_digits");
        s.put("logfile", "");
        s.putAll(b.settings);
        this.settings = s;
        writeConfig(b.serverPort);
    }

    /**
     * A PgBouncer named {@code name} (its temporary directory, and its failure messages) in front of the PostgreSQL
     * server on loopback port {@code serverPort}.
     */
    public static Builder builder(String name, int serverPort) {
        return new Builder(name, serverPort);
    }

    /** The first installed PgBouncer of {@link #CANDIDATES}, if any. */
    public static Optional<Path> installed() {
        return CANDIDATES.stream().filter(Files::isExecutable).findFirst();
    }

    /**
     * The installed binary; skips the calling test (JUnit's assumption) if there is none, or fails it when
     * {@value #REQUIRE_ENV}{@code =1}.
     */
    public static Path binary() {
        Optional<Path> installed = installed();
        if (installed.isPresent()) {
            return installed.get();
        }
        String message = "pgbouncer is not installed (looked at " + CANDIDATES + "); install Debian's package "
                + "'pgbouncer' to run the PgBouncer tests";
        if ("1".equals(System.getenv(REQUIRE_ENV))) {
            throw new AssertionError(message + " (" + REQUIRE_ENV + "=1 requires them)");
        }
        return Assumptions.abort(message);
    }

    /** Its loopback port (kept by {@link #restart()}). */
    public int port() {
        return port;
    }

    /** A plain JDBC URL of the database through this PgBouncer (driver defaults, no user). */
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** A plain JDBC URL of the database through this PgBouncer as {@code user} (driver defaults). */
    public String url(String user) {
        return url() + "?user=" + encode(user);
    }

    /**
     * The URL of the admin console (the virtual database {@code pgbouncer}) as {@code user}, with the user's
     * userlist password when it has one: what an origin's {@code poolerAdminUrl} takes.
     */
    public String adminUrl(String user) {
        String password = users.get(user);
        if (password == null) {
            throw new IllegalArgumentException("user " + user + " is not in the userlist of pgbouncer " + name);
        }
        return "postgresql://127.0.0.1:" + port + "/pgbouncer?user=" + encode(user)
                + (password.isEmpty() ? "" : "&password=" + encode(password));
    }

    /**
     * Starts the process and waits until its port accepts connections (its console answers from then on); stops
     * it again when it does not come up.
     */
    public PgBouncerServer start() throws IOException {
        Path executable = binary != null ? binary : binary();
        List<String> command = new ArrayList<>(List.of(executable.toString()));
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("-u", "postgres"));
        }
        command.add(dir.resolve("pgbouncer.ini").toString());
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("pgbouncer.log").toFile())).start();
        try {
            awaitAccepting();
        } catch (IOException | RuntimeException e) {
            stop(); // the caller gets no running instance: a PgBouncer that never answered must not outlive it
            throw e;
        }
        return this;
    }

    /** Stops the process at once (SIGTERM: PgBouncer's immediate shutdown, every client connection closed). */
    public void stop() throws IOException {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping pgbouncer " + name, e);
        }
        process = null;
    }

    /** Stops and starts again on the same port. */
    public void restart() throws IOException {
        stop();
        start();
    }

    public boolean running() {
        return process != null && process.isAlive();
    }

    /** PgBouncer's log so far (for failure messages). */
    public String log() {
        try {
            return Files.readString(dir.resolve("pgbouncer.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Stops the process and deletes its directory. */
    @Override
    public void close() throws IOException {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private void awaitAccepting() throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IOException("pgbouncer " + name + " exited with " + process.exitValue() + "; log: " + log());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException("pgbouncer " + name + " did not accept connections on port " + port
                            + " within " + START_TIMEOUT.toSeconds() + " s; log: " + log(), e);
                }
            }
            try {
                TimeUnit.MILLISECONDS.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for pgbouncer " + name, e);
            }
        }
    }

    private void writeConfig(int serverPort) throws IOException {
        StringBuilder ini = new StringBuilder("[databases]\n" + database + " = host=127.0.0.1 port=" + serverPort
                + " dbname=" + database + "\n\n[pgbouncer]\n");
        settings.forEach((k, v) -> ini.append(k).append(" = ").append(v).append('\n'));
        StringBuilder userlist = new StringBuilder();
        users.forEach((user, password) -> userlist.append('"').append(user).append("\" \"").append(password)
                .append("\"\n"));
        Files.writeString(dir.resolve("pgbouncer.ini"), ini);
        Files.writeString(dir.resolve("userlist.txt"), userlist);
        // Read by the postgres user when started as root with -u.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String f : List.of("pgbouncer.ini", "userlist.txt")) {
            Files.setPosixFilePermissions(dir.resolve(f), PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** The options the suite's PgBouncers differ in; {@link #build()} writes the configuration. */
    public static final class Builder {

        private final String name;
        private final int serverPort;
        private Path binary;
        private String database = "postgres";
        private String authType = "trust";
        private final Map<String, String> users = new LinkedHashMap<>();
        private final List<String> adminUsers = new ArrayList<>();
        private final List<String> statsUsers = new ArrayList<>();
        private final Map<String, String> settings = new LinkedHashMap<>();

        private Builder(String name, int serverPort) {
            this.name = name;
            this.serverPort = serverPort;
        }

        /** This executable instead of the first installed one of {@link #CANDIDATES} (no skipping then). */
        public Builder binary(Path binary) {
            this.binary = binary;
            return this;
        }

        /** The server's database forwarded, under the same name ({@code postgres} by default). */
        public Builder database(String database) {
            this.database = database;
            return this;
        }

        /** {@code auth_type} ({@code trust} by default; {@code md5} checks the userlist's passwords). */
        public Builder authType(String authType) {
            this.authType = authType;
            return this;
        }

        /**
         * A userlist entry (the password in plain text; empty for none). Without any, the userlist holds
         * {@code postgres} with no password.
         */
        public Builder user(String user, String password) {
            users.put(user, password);
            return this;
        }

        /** A user of the userlist that may run every console command ({@code admin_users}). */
        public Builder adminUser(String user) {
            adminUsers.add(user);
            return this;
        }

        /** A user of the userlist that may only read the console ({@code stats_users}). */
        public Builder statsUser(String user) {
            statsUsers.add(user);
            return this;
        }

        /** {@code pool_mode} ({@code transaction} by default). */
        public Builder poolMode(String mode) {
            return setting("pool_mode", mode);
        }

        /** Adds to or replaces a setting of the {@code [pgbouncer]} section. */
        public Builder setting(String key, String value) {
            settings.put(key, value);
            return this;
        }

        /** Adds to or replaces settings of the {@code [pgbouncer]} section. */
        public Builder settings(Map<String, String> more) {
            settings.putAll(more);
            return this;
        }

        /** Writes the configuration in a new temporary directory and picks a free port; not started. */
        public PgBouncerServer build() throws IOException {
            return new PgBouncerServer(this);
        }
    }
}
