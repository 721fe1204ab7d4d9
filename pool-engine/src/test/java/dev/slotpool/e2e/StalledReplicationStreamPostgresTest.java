package dev.slotpool.e2e;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.TcpFaultProxy;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A standby whose replication stream stalls while its WAL receiver still says "streaming" takes no reads
 * (docs/failover.md, "Reads to standbys"): the stream runs through a {@link TcpFaultProxy} that is then
 * blackholed, so nothing crosses and nothing is reset; the receiver notices only at its
 * {@code wal_receiver_timeout} (60 s by default) while the primary commits on, and WAL received against WAL
 * replayed reads as no lag meanwhile. The standby's receive position stands still while the primary's moves: its
 * lag is unknown and the console says why.
 */
class StalledReplicationStreamPostgresTest {

    private static final Duration LAG_BOUND = Duration.ofMillis(500);
    private static final int READS = 200;

    private static SlotPoolDataSource pool(PgStandbyPair pair) {
        return SlotPoolDataSource.builder().name("stalled-stream").username("postgres").minSize(4).maxSize(8)
                .connectionProperty("connectTimeout", "2").connectionProperty("socketTimeout", "3")
                .borrowTimeout(Duration.ofSeconds(5)).readsToStandbys(true).maxReplicaLag(LAG_BOUND)
                // Most connections on the standby, so it holds some for reads from the start; room left in the pool
                // for the watch's sessions to the standby and to the primary.
                .origin(OriginConfig.named("primary").weight(1)
                        .url("jdbc:postgresql://localhost:" + pair.port(0) + "/postgres"))
                .origin(OriginConfig.named("standby").weight(3)
                        .url("jdbc:postgresql://localhost:" + pair.port(1) + "/postgres"))
                .build();
    }

    @Test
    void aStandbyWhoseStreamStalledWhileItsReceiverStreamsTakesNoReadsAndSaysWhy() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair();
             TcpFaultProxy proxy = TcpFaultProxy.start("localhost", pair.port(0))) {
            pair.execute(1, "ALTER SYSTEM SET primary_conninfo = 'host=localhost port=" + proxy.port()
                    + " user=postgres application_name=standby1'");
            pair.query(1, "SELECT pg_reload_conf()::text");
            E2e.await("the standby streams through the proxy", () -> pair.query(1,
                    "SELECT coalesce((SELECT status || ':' || sender_port FROM pg_stat_wal_receiver), 'none')"),
                    ("streaming:" + proxy.port())::equals);
            try (SlotPoolDataSource ds = pool(pair)) {
                commit(pair);
                E2e.await("the standby replayed all it received, a transaction included", () -> pair.query(1,
                        "SELECT pg_last_xact_replay_timestamp() IS NOT NULL"
                                + " AND pg_last_wal_receive_lsn() <= pg_last_wal_replay_lsn()"), "t"::equals);
                E2e.awaitSnapshot(ds, "the standby takes reads", s -> reads(s.origin("standby").orElseThrow())
                        .startsWith("takes reads"));
                assertThat(readsOnTheStandby(ds)).as("reads on the standby before the stall").isPositive();

                proxy.blackhole();
                long stallAt = System.nanoTime();
                for (int i = 0; i < 5; i++) {
                    commit(pair); // the primary commits on: what the standby shows grows stale
                }
                OriginSnapshot out = E2e.awaitSnapshot(ds, "the standby takes no reads", s -> reads(
                        s.origin("standby").orElseThrow()).startsWith("takes no reads")).origin("standby")
                        .orElseThrow();
                long outAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stallAt);
                assertThat(pair.query(1, "SELECT coalesce((SELECT status FROM pg_stat_wal_receiver), 'none')"))
                        .as("the receiver still says so").isEqualTo("streaming");
                assertThat(out.reads()).as("the console says why").contains("replica lag unknown",
                        "its WAL receive position has not moved for", "while the primary's has");
                int onStandby = readsOnTheStandby(ds);
                assertThat(onStandby).as("reads on the standby, of %d, after it took none", READS).isZero();
                assertThat(pair.query(1, "SELECT coalesce((SELECT status FROM pg_stat_wal_receiver), 'none')"))
                        .as("the receiver still streaming after the reads").isEqualTo("streaming");

                proxy.forward();
                commit(pair);
                E2e.awaitSnapshot(ds, "the standby takes reads again", s -> reads(s.origin("standby")
                        .orElseThrow()).startsWith("takes reads"));
                System.out.printf("READS replication stream stalled (receiver still streaming) while the primary "
                        + "commits: no reads %d ms after the stall (%s); %d of %d reads on the standby after "
                        + "that; reads again once it moves%n", outAfterMs, out.reads(), onStandby, READS);
            }
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
}
