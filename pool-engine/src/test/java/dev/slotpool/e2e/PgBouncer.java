package dev.slotpool.e2e;

import dev.slotpool.pooler.PgBouncerAdmin;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real PgBouncer (the system's {@code pgbouncer}, Debian's 1.18 in CI) in front of a PostgreSQL server, on a
 * loopback port of its own, configured in a temporary directory: database {@code postgres} forwarded to the server,
 * {@code auth_type = trust} (the embedded server trusts local logins too), user {@code postgres} listed in the
 * userlist and allowed on the admin console (the virtual database {@code pgbouncer}). Started in the foreground as
 * a child process, so the test owns it; as root it runs with {@code -u postgres}, since PgBouncer refuses to run
 * as root. A restart keeps the port, so clients reconnect to the same URL.
 *
 * <p>Where {@code pgbouncer} is not installed the tests that need it are skipped with a message, unless the
 * environment variable {@code SLOTPOOL_REQUIRE_PGBOUNCER=1} is set ({@code .ci/run} sets it): then they fail.
 */
final class PgBouncer implements AutoCloseable {

    static final String REQUIRE_ENV = "SLOTPOOL_REQUIRE_PGBOUNCER";
    private static final List<Path> CANDIDATES = List.of(Path.of("/usr/sbin/pgbouncer"), Path.of("/usr/bin/pgbouncer"),
            Path.of("/usr/local/bin/pgbouncer"));

    /** PAUSE answers once every server session is released: a transaction of the tests' takes milliseconds. */
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private final String name;
    private final int serverPort;
    private final Map<String, String> settings;
    private final Path dir;
    private final int port;
    private Process process;

    /**
     * A PgBouncer named {@code name} (its directory and log) in front of the server on {@code serverPort}, with
     * {@code settings} added to (or replacing) the defaults of its {@code [pgbouncer]} section; not started.
     */
    PgBouncer(String name, int serverPort, Map<String, String> settings) throws IOException {
        this.name = name;
        this.serverPort = serverPort;
        this.settings = Map.copyOf(settings);
        this.dir = Files.createTempDirectory("slotpool-pgbouncer-" + name);
        this.port = freePort();
    }

    /** The installed binary; skips the calling test (or fails it, when {@value #REQUIRE_ENV}=1) if there is none. */
    static Path binary() {
        for (Path p : CANDIDATES) {
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        String message = "pgbouncer is not installed (looked at " + CANDIDATES + "); install Debian's package "
                + "'pgbouncer' to run the PgBouncer tests";
        if ("1".equals(System.getenv(REQUIRE_ENV))) {
            throw new AssertionError(message + " (" + REQUIRE_ENV + "=1 requires them)");
        }
        Assumptions.abort(message);
        return null;
    }

    int port() {
        return port;
    }

    /** A plain JDBC URL of database postgres through this PgBouncer (driver defaults, no pool settings). */
    String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    /** Starts the process and waits until its admin console answers. */
    PgBouncer start() throws IOException, SQLException {
        Path binary = binary();
        writeConfig();
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("-u", "postgres"));
        }
        command.add(dir.resolve("pgbouncer.ini").toString());
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("pgbouncer.log").toFile())).start();
        try {
            E2e.await("pgbouncer " + name + " answering on port " + port, () -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("pgbouncer " + name + " exited with " + process.exitValue()
                            + "; log: " + log());
                }
                return admin("SHOW VERSION");
            }, rows -> !rows.isEmpty());
        } catch (AssertionError | RuntimeException e) {
            stop(); // the caller gets no instance to close: a PgBouncer that never answered must not outlive the test
            throw e;
        }
        return this;
    }

    /** Stops the process at once (SIGTERM: PgBouncer's immediate shutdown, every client connection closed). */
    void stop() throws IOException {
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
    void restart() throws IOException, SQLException {
        stop();
        start();
    }

    boolean running() {
        return process != null && process.isAlive();
    }

    /** Runs an admin console command ({@code SHOW POOLS}, {@code PAUSE postgres}, ...); its rows, if any. */
    List<Map<String, String>> admin(String command) throws IOException, SQLException {
        return console().run(command, ADMIN_TIMEOUT);
    }

    /** The admin console, read as the pool reads it (docs/poolers.md, "Sizing a fleet"). */
    PgBouncerAdmin console() {
        return PgBouncerAdmin.at(adminUrl());
    }

    /** The admin console's URL, as an origin's {@code poolerAdminUrl}. */
    String adminUrl() {
        return "postgresql://127.0.0.1:" + port + "/pgbouncer?user=postgres";
    }

    /** The {@code SHOW POOLS} row of database postgres, user postgres (empty if PgBouncer has none yet). */
    Map<String, String> pool() throws IOException, SQLException {
        for (Map<String, String> row : admin("SHOW POOLS")) {
            if ("postgres".equals(row.get("database")) && "postgres".equals(row.get("user"))) {
                return row;
            }
        }
        return Map.of();
    }

    /** PgBouncer's log so far (for failure messages). */
    String log() {
        try {
            return Files.readString(dir.resolve("pgbouncer.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private void writeConfig() throws IOException {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("listen_addr", "127.0.0.1");
        s.put("listen_port", String.valueOf(port));
        s.put("unix_socket_dir", "");
        s.put("auth_type", "trust");
        s.put("auth_file", dir.resolve("userlist.txt").toString());
        s.put("admin_users", "postgres");
        s.put("pool_mode", "transaction");
        s.put("default_pool_size", "4");
        s.put("max_client_conn", "1000");
        // pgjdbc sends extra_float_digits at startup, which PgBouncer does not track.
        s.put("ignore_startup_parameters", "extra_float_digits");
        s.put("server_check_delay", "0");
        s.put("logfile", "");
        s.putAll(settings);
        StringBuilder ini = new StringBuilder("[databases]\npostgres = host=127.0.0.1 port=" + serverPort
                + " dbname=postgres\n\n[pgbouncer]\n");
        s.forEach((k, v) -> ini.append(k).append(" = ").append(v).append('\n'));
        Files.writeString(dir.resolve("pgbouncer.ini"), ini);
        Files.writeString(dir.resolve("userlist.txt"), "\"postgres\" \"\"\n");
        // Read by the postgres user when started as root with -u.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String f : List.of("pgbouncer.ini", "userlist.txt")) {
            Files.setPosixFilePermissions(dir.resolve(f), PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() throws IOException {
        stop();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
