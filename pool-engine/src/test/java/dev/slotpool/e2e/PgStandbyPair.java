package dev.slotpool.e2e;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A PostgreSQL primary and a streaming hot standby on embedded servers (the binaries have initdb and postgres but
 * no pg_basebackup): a data directory is initdb'd and given the table {@code accounts(id, balance)} with
 * {@link #ROWS} rows, and stopped cleanly; server 0 is a copy of it, and another copy with {@code standby.signal}
 * and {@code primary_conninfo} is server 1, a standby of server 0 on its own port. That stopped directory is made
 * once per test JVM and copied for every pair, which saves each later pair an initdb, a start and a stop (about
 * half its start-up); each pair still gets directories and servers of its own. Server numbers stay with their data
 * directories: after {@link #promote(int)} of 1, server 1 is the primary, and server 0, started again, is an old
 * primary on the old timeline that claims to be primary (what docs/failover.md "Primary and standbys" calls the
 * returning old primary). The defaults of PostgreSQL 17 already allow this (wal_level replica, 10 WAL senders,
 * hot_standby on, initdb's pg_hba trusting local replication connections); they are set anyway so the harness
 * does not depend on them.
 */
final class PgStandbyPair implements AutoCloseable {

    static final int ROWS = 100;
    /** What a clean stop leaves that must not travel with the copy: the pid file and the harness's lock. */
    private static final Set<String> NOT_COPIED = Set.of("postmaster.pid", "postmaster.opts", "epg-lock");

    /** See {@link #template()}. */
    private static Path template;

    private final Path root;
    private final Path[] dataDirs = new Path[2];
    private final int[] ports = new int[2];
    private final EmbeddedPostgres[] servers = new EmbeddedPostgres[2];

    PgStandbyPair() throws IOException, SQLException {
        root = Files.createTempDirectory("slotpool-pg-standby");
        dataDirs[0] = root.resolve("pg0");
        dataDirs[1] = root.resolve("pg1");
        try {
            Path template = template();
            copy(template, dataDirs[0]);
            copy(template, dataDirs[1]);
            Files.writeString(dataDirs[1].resolve("standby.signal"), "");
            servers[0] = builder(0).start();
            ports[0] = servers[0].getPort();
            ports[1] = freePort();
            Files.writeString(dataDirs[1].resolve("postgresql.auto.conf"), "primary_conninfo = 'host=localhost port="
                    + ports[0] + " user=postgres application_name=standby1'\n", StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND);
            servers[1] = builder(1).start();
            E2e.await("server 1 streams from server 0", () -> streamingStandbys(0), n -> n == 1);
        } catch (IOException | SQLException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * The initdb'd data directory with the table, stopped cleanly: made at the first call, reused by every later
     * pair of this JVM (tests run one at a time, so no two threads make it), deleted when the JVM exits. A pair
     * never starts a server on it, only on its copies.
     */
    private static Path template() throws IOException, SQLException {
        if (template == null) {
            Path root = Files.createTempDirectory("slotpool-pg-standby-template");
            Path dir = root.resolve("pg");
            try (EmbeddedPostgres server = builder(dir).start();
                 Connection c = DriverManager.getConnection(server.getJdbcUrl("postgres", "postgres"));
                 Statement st = c.createStatement()) {
                st.execute("CREATE TABLE accounts (id int PRIMARY KEY, balance bigint NOT NULL)");
                st.execute("INSERT INTO accounts SELECT g, 0 FROM generate_series(1, " + ROWS + ") g");
            } catch (IOException | SQLException | RuntimeException e) {
                delete(root);
                throw e;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    delete(root);
                } catch (IOException e) {
                    // a temporary directory left behind: nothing to do at exit
                }
            }, "pg-standby-template-cleanup"));
            template = dir;
        }
        return template;
    }

    private EmbeddedPostgres.Builder builder(int i) {
        EmbeddedPostgres.Builder b = builder(dataDirs[i]);
        return ports[i] == 0 ? b : b.setPort(ports[i]);
    }

    private static EmbeddedPostgres.Builder builder(Path dataDir) {
        return EmbeddedPostgres.builder().setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setServerConfig("wal_level", "replica")
                .setServerConfig("max_wal_senders", "5")
                .setServerConfig("hot_standby", "on")
                // The standby's own WAL receiver reconnects quickly after a lost primary; 5 s by default.
                .setServerConfig("wal_retrieve_retry_interval", "200ms");
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!NOT_COPIED.contains(p.getFileName().toString())) {
                    Files.copy(p, target);
                }
            }
        }
        // initdb's permissions on the data directory, which the server checks at start (0700).
        Files.setPosixFilePermissions(to, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    int port(int i) {
        return ports[i];
    }

    /** A plain JDBC URL of server i (no pool settings). */
    String url(int i) {
        return "jdbc:postgresql://localhost:" + ports[i] + "/postgres?user=postgres";
    }

    /** A pgjdbc multi-host URL naming both servers, server 0 first. */
    String multiHostUrl() {
        return "jdbc:postgresql://localhost:" + ports[0] + ",localhost:" + ports[1] + "/postgres";
    }

    boolean running(int i) {
        return servers[i] != null;
    }

    /** Whether server i is in recovery (a standby), asked of the server itself. */
    boolean inRecovery(int i) throws SQLException {
        return "t".equals(query(i, "SELECT pg_is_in_recovery()"));
    }

    /** Standbys streaming from server i, as its pg_stat_replication says. */
    long streamingStandbys(int i) throws SQLException {
        return Long.parseLong(query(i, "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'"));
    }

    /** The timeline server i writes (a primary) or replays (a standby) on. */
    long timeline(int i) throws SQLException {
        return Long.parseLong(query(i, "SELECT timeline_id FROM pg_control_checkpoint()"));
    }

    /** Promotes standby i ({@code pg_promote()} waits until it is done). */
    void promote(int i) throws SQLException {
        if (!"t".equals(query(i, "SELECT pg_promote(true, 30)"))) {
            throw new SQLException("server " + i + " did not finish its promotion in 30 s");
        }
    }

    /**
     * Pauses the standby's replay: it keeps receiving WAL but applies none, so its lag grows. Returns once the
     * standby says "paused", not at the request: replay acts on a request only between two WAL records, so until
     * then the standby may still apply what arrives. A commit on the primary now and then brings the next record.
     */
    void pauseReplay(int i) throws SQLException {
        query(i, "SELECT pg_wal_replay_pause()");
        long giveUpAt = System.nanoTime() + E2e.DEADLINE.toNanos();
        while (!"paused".equals(query(i, "SELECT pg_get_wal_replay_pause_state()"))) {
            if (System.nanoTime() - giveUpAt > 0) {
                throw new SQLException("server " + i + "'s replay did not pause within " + E2e.DEADLINE);
            }
            query(1 - i, "SELECT txid_current()::text"); // on its primary: a transaction with an id writes a commit record
        }
    }

    void resumeReplay(int i) throws SQLException {
        query(i, "SELECT pg_wal_replay_resume()");
    }

    /** Stops server i the way a crash would ({@link PgProcesses#stopImmediately}). */
    void stopAbruptly(int i) throws IOException, InterruptedException {
        if (servers[i] == null) {
            throw new IOException("server " + i + " is not running");
        }
        PgProcesses.stopImmediately(dataDirs[i], servers[i], "server " + i);
        servers[i] = null;
    }

    /** Stops server i cleanly, as an operator would before a promotion: {@code pg_ctl stop -m fast} (its sessions
     * are ended, its WAL is sent to the standby before it exits). */
    void stopCleanly(int i) throws IOException {
        if (servers[i] == null) {
            throw new IOException("server " + i + " is not running");
        }
        servers[i].close();
        servers[i] = null;
    }

    /** Starts a stopped server i again on its port with its data (an old primary comes back as a primary). */
    void restart(int i) throws IOException {
        if (servers[i] == null) {
            servers[i] = builder(i).start();
        }
    }

    /** Runs a statement that returns no rows (ALTER SYSTEM, ...) on server i in a connection of its own. */
    void execute(int i, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url(i) + "&ApplicationName=harness");
             Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /** Runs a one-row, one-column query on server i in a connection of its own. */
    String query(int i, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url(i) + "&ApplicationName=harness");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Override
    public void close() throws IOException {
        // The standby first, so it does not log a lost primary while the primary stops.
        for (int i = servers.length - 1; i >= 0; i--) {
            if (servers[i] != null) {
                servers[i].close();
                servers[i] = null;
            }
        }
        delete(root);
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
