package dev.slotpool.sample;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import static org.awaitility.Awaitility.await;

/**
 * A real PgBouncer (the system's {@code pgbouncer}, Debian's 1.18 in CI) in front of one of {@link PostgresServers},
 * started before the test class and stopped after it, as the engine's PgBouncer harness ({@code dev.slotpool.e2e}
 * in pool-engine's tests, not visible from here) runs it: foreground child process, a temporary directory, a free
 * loopback port, {@code -u postgres} as root. Unlike that harness, logins take passwords ({@code auth_type = md5}):
 * role {@value PostgresServers#ROLE} with the app's, which PgBouncer also uses to log in to the server (scram), and
 * a read-only console user {@value #STATS_USER} ({@code stats_users}) with its own, which is what an origin's
 * {@code pooler-admin-url} carries and what no page may show.
 *
 * <p>Without {@code pgbouncer} the test class is skipped with a message, unless {@code SLOTPOOL_REQUIRE_PGBOUNCER=1}
 * ({@code .ci/run} sets it): then it fails.
 */
final class PgBouncerInFront implements BeforeAllCallback, AfterAllCallback {

    static final String STATS_USER = "poolstats";

    private static final List<Path> CANDIDATES = List.of(Path.of("/usr/sbin/pgbouncer"), Path.of("/usr/bin/pgbouncer"),
            Path.of("/usr/local/bin/pgbouncer"));

    private final IntSupplier serverPort;
    private final String appPassword;
    private final String statsPassword;
    private Path dir;
    private int port;
    private Process process;

    /** In front of the server on {@code serverPort} (read when the class starts, once that server runs). */
    PgBouncerInFront(IntSupplier serverPort, String appPassword, String statsPassword) {
        this.serverPort = serverPort;
        this.appPassword = appPassword;
        this.statsPassword = statsPassword;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        binary(); // skips (or fails) the class before anything starts
        dir = Files.createTempDirectory("slotpool-sample-pgbouncer");
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        writeConfig();
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        stop();
        if (dir != null) {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The app's JDBC URL of database {@value PostgresServers#DATABASE} through this PgBouncer. */
    String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + PostgresServers.DATABASE;
    }

    /** The admin console's URL for {@code pooler-admin-url}, with the console user's password. */
    String adminUrl() {
        return "postgresql://127.0.0.1:" + port + "/pgbouncer?user=" + STATS_USER + "&password=" + statsPassword;
    }

    /** Starts the process (again, on the same port) and waits until it accepts connections. */
    void start() throws IOException {
        List<String> command = new ArrayList<>(List.of(binary().toString()));
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("-u", "postgres")); // PgBouncer refuses to run as root
        }
        command.add(dir.resolve("pgbouncer.ini").toString());
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("pgbouncer.log").toFile())).start();
        await("pgbouncer accepting on port " + port).atMost(SampleApp.PATIENCE).pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("pgbouncer exited with " + process.exitValue() + "; log: "
                                + Files.readString(dir.resolve("pgbouncer.log")));
                    }
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                        return true;
                    } catch (IOException e) {
                        return false;
                    }
                });
    }

    /** Stops the process at once (SIGTERM: PgBouncer's immediate shutdown; its port then refuses connections). */
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
            throw new IOException("interrupted while stopping pgbouncer", e);
        }
        process = null;
    }

    private static Path binary() {
        for (Path p : CANDIDATES) {
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        String message = "pgbouncer is not installed (looked at " + CANDIDATES + "); install Debian's package "
                + "'pgbouncer' to run this test";
        if ("1".equals(System.getenv("SLOTPOOL_REQUIRE_PGBOUNCER"))) {
            throw new AssertionError(message + " (SLOTPOOL_REQUIRE_PGBOUNCER=1 requires it)");
        }
        Assumptions.abort(message);
        return null;
    }

    private void writeConfig() throws IOException {
        String ini = "[databases]\n"
                + PostgresServers.DATABASE + " = host=127.0.0.1 port=" + serverPort.getAsInt() + " dbname="
                + PostgresServers.DATABASE + "\n\n[pgbouncer]\n"
                + "listen_addr = 127.0.0.1\nlisten_port = " + port + "\nunix_socket_dir =\n"
                + "auth_type = md5\nauth_file = " + dir.resolve("userlist.txt") + "\n"
                + "stats_users = " + STATS_USER + "\n"
                + "pool_mode = transaction\ndefault_pool_size = 4\nmax_client_conn = 100\n"
                // pgjdbc sends extra_float_digits at startup, which PgBouncer does not track.
                + "ignore_startup_parameters = extra_float_digits\nlogfile =\n";
        Files.writeString(dir.resolve("pgbouncer.ini"), ini);
        Files.writeString(dir.resolve("userlist.txt"), "\"" + PostgresServers.ROLE + "\" \"" + appPassword + "\"\n\""
                + STATS_USER + "\" \"" + statsPassword + "\"\n");
        // Read by the postgres user when started as root with -u.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String f : List.of("pgbouncer.ini", "userlist.txt")) {
            Files.setPosixFilePermissions(dir.resolve(f), PosixFilePermissions.fromString("rw-r--r--"));
        }
    }
}
