package dev.slotpool.bench.pg;

import dev.slotpool.pooler.PgBouncerAdmin;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The system's PgBouncer as a child process of the harness, in front of one PostgreSQL server, configured as the
 * engine's PgBouncer tests configure theirs (docs/poolers.md, "In the suite"): a temporary directory, a free
 * loopback port, database {@code postgres} forwarded to the server, {@code auth_type = trust}, user
 * {@code postgres} on the admin console; run with {@code -u postgres} as root, since PgBouncer refuses root.
 */
final class PgBouncerProcess implements AutoCloseable {

    /** Where Debian and others install it, in the order looked at. */
    static final List<Path> CANDIDATES = List.of(Path.of("/usr/sbin/pgbouncer"), Path.of("/usr/bin/pgbouncer"),
            Path.of("/usr/local/bin/pgbouncer"));

    /** How long the console gets to answer after the start, and each console command to finish. */
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private final Path dir;
    private final int port;
    private final Process process;

    private PgBouncerProcess(Path dir, int port, Process process) {
        this.dir = dir;
        this.port = port;
        this.process = process;
    }

    /** The first installed PgBouncer of {@link #CANDIDATES}, if any. */
    static Optional<Path> installed() {
        return CANDIDATES.stream().filter(Files::isExecutable).findFirst();
    }

    /**
     * Starts {@code binary} in {@code pool_mode = transaction} with {@code serverBudget} server connections for the
     * database ({@code default_pool_size}, no reserve), in front of the server on {@code serverPort}, and waits
     * until its console answers.
     */
    static PgBouncerProcess start(Path binary, int serverPort, int serverBudget) throws IOException {
        Path dir = Files.createTempDirectory("slotpool-bench-pgbouncer");
        int port = freePort();
        String ini = "[databases]\npostgres = host=127.0.0.1 port=" + serverPort + " dbname=postgres\n\n"
                + "[pgbouncer]\n"
                + "listen_addr = 127.0.0.1\n"
                + "listen_port = " + port + "\n"
                + "unix_socket_dir = \n"
                + "auth_type = trust\n"
                + "auth_file = " + dir.resolve("userlist.txt") + "\n"
                + "admin_users = postgres\n"
                + "pool_mode = transaction\n"
                + "default_pool_size = " + serverBudget + "\n"
                + "reserve_pool_size = 0\n"
                + "max_client_conn = 1000\n"
                // pgjdbc sends extra_float_digits at startup, which PgBouncer does not track.
                + "ignore_startup_parameters = extra_float_digits\n"
                + "logfile = \n";
        Files.writeString(dir.resolve("pgbouncer.ini"), ini);
        Files.writeString(dir.resolve("userlist.txt"), "\"postgres\" \"\"\n");
        // Read by the postgres user when started as root with -u.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String f : List.of("pgbouncer.ini", "userlist.txt")) {
            Files.setPosixFilePermissions(dir.resolve(f), PosixFilePermissions.fromString("rw-r--r--"));
        }
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("-u", "postgres"));
        }
        command.add(dir.resolve("pgbouncer.ini").toString());
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("pgbouncer.log").toFile())).start();
        PgBouncerProcess bouncer = new PgBouncerProcess(dir, port, process);
        try {
            bouncer.awaitConsole();
        } catch (IOException | RuntimeException e) {
            bouncer.close();
            throw e;
        }
        return bouncer;
    }

    /** The JDBC URL of database postgres through this PgBouncer, with the driver's defaults. */
    String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    /** PgBouncer's own version line ({@code SHOW VERSION}). */
    String version() throws IOException, SQLException {
        return admin().run("SHOW VERSION", ADMIN_TIMEOUT).stream().findFirst()
                .flatMap(row -> row.values().stream().findFirst()).orElse("unknown");
    }

    /**
     * Closes every server session once it is released ({@code RECONNECT}): server-side statements a run left
     * on them (pgjdbc's {@code S_n} names) do not reach the next run.
     */
    void reconnect() throws IOException, SQLException {
        admin().run("RECONNECT postgres", ADMIN_TIMEOUT);
    }

    private PgBouncerAdmin admin() {
        return PgBouncerAdmin.at("postgresql://127.0.0.1:" + port + "/pgbouncer?user=postgres");
    }

    private void awaitConsole() throws IOException {
        long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IOException("pgbouncer exited with " + process.exitValue() + "; log: " + log());
            }
            try {
                version();
                return;
            } catch (IOException | SQLException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException("pgbouncer's console did not answer within " + ADMIN_TIMEOUT.toSeconds()
                            + " s; log: " + log(), e);
                }
            }
            try {
                TimeUnit.MILLISECONDS.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for pgbouncer", e);
            }
        }
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("pgbouncer.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Stops PgBouncer (SIGTERM: immediate shutdown) and deletes its directory. */
    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping pgbouncer", e);
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
