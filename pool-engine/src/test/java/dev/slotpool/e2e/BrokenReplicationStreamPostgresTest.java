package dev.slotpool.e2e;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.ServerRole;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.failover.RoleReader;
import dev.slotpool.failover.RoleReading;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A standby whose replication stream is broken reads as lag unknown, so it takes no reads (docs/failover.md,
 * "Reads to standbys"): once its WAL receiver stops streaming, what it received stops growing, its replay catches
 * up with that, and WAL received against WAL replayed would read as no lag at all while the primary commits on.
 * The stream is cut on a real primary and standby: the standby's {@code primary_conninfo} is pointed at a port
 * nobody listens on and the primary's WAL sender is ended, as a lost network path or a primary refusing the
 * standby would do; the primary keeps committing.
 */
class BrokenReplicationStreamPostgresTest {

    private static final Duration LAG_BOUND = Duration.ofMillis(500);
    private static final int READS = 200;

    private static SlotPoolDataSource pool(PgStandbyPair pair) {
        return SlotPoolDataSource.builder().name("broken-stream").username("postgres").minSize(2).maxSize(6)
                .connectionProperty("connectTimeout", "2").connectionProperty("socketTimeout", "3")
                .borrowTimeout(Duration.ofSeconds(5)).readsToStandbys(true).maxReplicaLag(LAG_BOUND)
                .origin(OriginConfig.named("primary").url("jdbc:postgresql://localhost:" + pair.port(0) + "/postgres"))
                .origin(OriginConfig.named("standby").url("jdbc:postgresql://localhost:" + pair.port(1) + "/postgres"))
                .build();
    }

    @Test
    void aStandbyWhoseReceiverStoppedStreamingTakesNoReadsAndSaysWhy() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair(); SlotPoolDataSource ds = pool(pair)) {
            String conninfo = "host=localhost port=" + pair.port(0) + " user=postgres application_name=standby1";
            commit(pair);
            // Caught up, with a transaction replayed: its lag is known (0), and only the cut can make it unknown.
            E2e.await("the standby replayed all it received, a transaction included", () -> pair.query(1,
                    "SELECT pg_last_xact_replay_timestamp() IS NOT NULL"
                            + " AND pg_last_wal_receive_lsn() <= pg_last_wal_replay_lsn()"), "t"::equals);
            E2e.awaitSnapshot(ds, "the standby takes reads", s -> reads(s.origin("standby").orElseThrow())
                    .startsWith("takes reads"));

            long cutAt = System.nanoTime();
            pair.execute(1, "ALTER SYSTEM SET primary_conninfo = 'host=localhost port=" + closedPort()
                    + " user=postgres'");
            pair.query(1, "SELECT pg_reload_conf()::text");
            pair.query(0, "SELECT count(pg_terminate_backend(pid))::text FROM pg_stat_replication");
            for (int i = 0; i < 5; i++) {
                commit(pair); // the primary commits on: what the standby shows grows stale
            }
            E2e.await("the standby's WAL receiver not streaming", () -> pair.query(1,
                    "SELECT coalesce((SELECT status FROM pg_stat_wal_receiver), 'none')"), s -> !s.equals("streaming"));

            RoleReading reading;
            try (Connection c = DriverManager.getConnection(pair.url(1))) {
                reading = RoleReader.read(c);
            }
            assertThat(reading.role()).isEqualTo(ServerRole.STANDBY);
            assertThat(reading.lagMillis()).as("lag unknown: %s", reading).isEqualTo(-1);
            assertThat(reading.lagBytes()).as("lag unknown: %s", reading).isEqualTo(-1);
            assertThat(reading.detail()).contains("not streaming");

            OriginSnapshot out = E2e.awaitSnapshot(ds, "the standby takes no reads", s -> reads(
                    s.origin("standby").orElseThrow()).startsWith("takes no reads")).origin("standby").orElseThrow();
            long outAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAt);
            assertThat(out.reads()).as("the console says why").contains("replica lag unknown", "not streaming");
            int onStandby = readsOnTheStandby(ds);
            assertThat(onStandby).as("reads on the standby, of %d, after it took none", READS).isZero();

            pair.execute(1, "ALTER SYSTEM SET primary_conninfo = '" + conninfo + "'");
            pair.query(1, "SELECT pg_reload_conf()::text");
            E2e.await("the stream back", () -> pair.streamingStandbys(0), n -> n == 1);
            commit(pair);
            E2e.awaitSnapshot(ds, "the standby takes reads again", s -> reads(s.origin("standby").orElseThrow())
                    .startsWith("takes reads"));
            System.out.printf("READS replication stream cut while the primary commits: no reads %d ms after the cut "
                    + "(%s); %d of %d reads on the standby after that; reads again once it streams%n", outAfterMs,
                    out.reads(), onStandby, READS);
        }
    }

    private static String reads(OriginSnapshot standby) {
        return String.valueOf(standby.reads());
    }

    /** Read borrows that land on the standby, of {@link #READS}. */
    private static int readsOnTheStandby(SlotPoolDataSource ds) throws SQLException {
        int onStandby = 0;
        for (int i = 0; i < READS; i++) {
            try (Connection c = ds.forReads().getConnection()) {
                if ("t".equals(E2e.queryString(c, "SELECT pg_is_in_recovery()"))) {
                    onStandby++;
                }
            }
        }
        return onStandby;
    }

    private static void commit(PgStandbyPair pair) throws SQLException {
        try (Connection c = DriverManager.getConnection(pair.url(0)); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE accounts SET balance = balance + 1 WHERE id = 1");
        }
    }

    /** A port nobody listens on: bound, then let go. */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
