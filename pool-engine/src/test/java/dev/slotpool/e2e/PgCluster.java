package dev.slotpool.e2e;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Embedded PostgreSQL servers with their own data directories and fixed ports, so one can be stopped abruptly
 * (immediate shutdown) and started again on the same port with the same data.
 */
final class PgCluster implements AutoCloseable {

    private final Path root;
    private final EmbeddedPostgres[] servers;
    private final Path[] dataDirs;
    private final int[] ports;

    PgCluster(int size) throws IOException {
        root = Files.createTempDirectory("slotpool-pg-cluster");
        servers = new EmbeddedPostgres[size];
        dataDirs = new Path[size];
        ports = new int[size];
        for (int i = 0; i < size; i++) {
            dataDirs[i] = root.resolve("pg" + i);
            servers[i] = builder(i).start();
            ports[i] = servers[i].getPort();
        }
    }

    private EmbeddedPostgres.Builder builder(int i) {
        EmbeddedPostgres.Builder b = EmbeddedPostgres.builder().setDataDirectory(dataDirs[i])
                .setCleanDataDirectory(false);
        return ports[i] == 0 ? b : b.setPort(ports[i]);
    }

    int port(int i) {
        return ports[i];
    }

    /** A plain JDBC URL of server i (no pool settings). */
    String url(int i) {
        return "jdbc:postgresql://localhost:" + ports[i] + "/postgres?user=postgres";
    }

    /** Stops server i the way a crash would ({@link PgProcesses#stopImmediately}). */
    void stopAbruptly(int i) throws IOException, InterruptedException {
        if (servers[i] == null) {
            throw new IOException("server " + i + " is not running");
        }
        PgProcesses.stopImmediately(dataDirs[i], servers[i], "server " + i);
        servers[i] = null;
    }

    /** Starts a stopped server i again on its port with its data. */
    void restart(int i) throws IOException {
        if (servers[i] == null) {
            servers[i] = builder(i).start();
        }
    }

    boolean running(int i) {
        return servers[i] != null;
    }

    /** Backends of server i whose application_name is {@code app} (the pool's; this probe's own is not). */
    long sessions(int i, String app) throws SQLException {
        try (Connection c = DriverManager.getConnection(url(i) + "&ApplicationName=probe");
             PreparedStatement ps = c.prepareStatement(
                     "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?")) {
            ps.setString(1, app);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Override
    public void close() throws IOException {
        for (EmbeddedPostgres s : servers) {
            if (s != null) {
                s.close();
            }
        }
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
