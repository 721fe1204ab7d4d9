package dev.slotpool.e2e;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.ServerRole;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scenarios of docs/failover.md "Primary and standbys" beyond the crash of the measured table: a standby
 * down (writes unaffected), a primary whose configuration turns read-only, the old primary returning after a promotion (no writes until an
 * operator marks it up). Each prints one "PRIMARY-STANDBY ..." line with its events; assertions count. The standby
 * down and the old primary's return run also with HikariCP 7.1 and pgjdbc's multi-host URL ({@code
 * targetServerType=primary}), the same workload on a fresh pair, side by side (docs/failover.md, "Measured: crash
 * of the primary, promotion of the standby"); HikariCP's numbers are printed, not asserted.
 */
class PrimaryStandbyScenariosPostgresTest {

    /** The load is measured this long before and after a standby's stop. */
    private static final Duration STANDBY_DOWN_WINDOW = Duration.ofSeconds(3);
    /** Each HikariCP connection's lifetime when the old primary returns: HikariCP's minimum, so that every
     * connection is opened again within {@link #RETURN_WINDOW}, as it would be over any 30 minutes with the default. */
    private static final Duration LIFETIME = Duration.ofSeconds(30);
    /** Writes are counted this long after the old primary's restart: one lifetime and a margin. */
    private static final Duration RETURN_WINDOW = LIFETIME.plusSeconds(5);
    /**
     * The same for slotpool, whose lifetime may be shorter than HikariCP's 30 s minimum: what the window must hold
     * is every connection opened again after the restart (here each is, about twice), not 30 s.
     */
    private static final Duration SLOTPOOL_LIFETIME = Duration.ofSeconds(5);
    private static final Duration SLOTPOOL_RETURN_WINDOW = SLOTPOOL_LIFETIME.plusSeconds(5);

    private static SlotPoolDataSource pool(PgStandbyPair pair, List<String> events) {
        return pool(pair, events, Duration.ofMinutes(30));
    }

    private static SlotPoolDataSource pool(PgStandbyPair pair, List<String> events, Duration maxLifetime) {
        return SlotPoolDataSource.builder().name("scenarios").username("postgres").minSize(2).maxSize(6)
                .maxLifetime(maxLifetime)
                .connectionProperty("connectTimeout", "2").connectionProperty("socketTimeout", "3")
                .borrowTimeout(Duration.ofSeconds(5))
                .listener(new dev.slotpool.PoolListener() {
                    @Override
                    public void onEvent(PoolEvent e) {
                        if (e.type() == PoolEvent.Type.ORIGIN_STATE) {
                            events.add(e.origin() + " " + e.detail());
                        }
                    }
                })
                .origin(OriginConfig.named("first").url("jdbc:postgresql://localhost:" + pair.port(0) + "/postgres"))
                .origin(OriginConfig.named("second").url("jdbc:postgresql://localhost:" + pair.port(1) + "/postgres"))
                .build();
    }

    /** HikariCP as its users meet a primary and a standby: pgjdbc's multi-host URL, the same sizes and driver
     * timeouts as {@link #pool}. */
    private static HikariDataSource hikari(PgStandbyPair pair, Duration maxLifetime) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(pair.multiHostUrl() + "?targetServerType=primary");
        config.setUsername("postgres");
        config.setMinimumIdle(2);
        config.setMaximumPoolSize(6);
        config.setMaxLifetime(maxLifetime.toMillis());
        config.setConnectionTimeout(5_000);
        config.addDataSourceProperty("connectTimeout", "2");
        config.addDataSourceProperty("socketTimeout", "3");
        return new HikariDataSource(config);
    }

    private static OriginSnapshot origin(PoolSnapshot s, String name) {
        return s.origin(name).orElseThrow();
    }

    @Test
    void aStandbyDownChangesNothingForWrites() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        try (PgStandbyPair pair = new PgStandbyPair(); SlotPoolDataSource ds = pool(pair, events)) {
            PoolSnapshot start = E2e.awaitSnapshot(ds, "roles read and applied", s -> origin(s, "first").role()
                    == ServerRole.PRIMARY && origin(s, "second").role() == ServerRole.STANDBY
                    && origin(s, "second").state() == OriginState.DOWN);
            assertThat(origin(start, "second").state()).isEqualTo(OriginState.DOWN);
            assertThat(origin(start, "second").stateReason()).isEqualTo("standby (pg_is_in_recovery() is true)");
            StandbyDown r = standbyDown(ds, pair);
            assertThat(r.errors()).as("no write failed: the standby was never written to").isZero();
            assertThat(origin(ds.snapshot(), "first").state()).isEqualTo(OriginState.UP);
            System.out.printf("PRIMARY-STANDBY standby down, slotpool, two origins: %s; events %s%n", r, events);
        }
    }

    @Test
    void hikariWithAMultiHostUrlWhenAStandbyIsDown() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair(); HikariDataSource ds = hikari(pair, Duration.ofMinutes(30))) {
            System.out.printf("PRIMARY-STANDBY standby down, HikariCP 7.1 + multi-host URL, targetServerType=primary:"
                    + " %s%n", standbyDown(ds, pair));
        }
    }

    /** Errors and commits per second of 4 writer threads over {@link #STANDBY_DOWN_WINDOW} before and after
     * server 1 (the standby) stops abruptly. */
    private record StandbyDown(long commits, long errors, long perSecondBefore, long perSecondAfter) {
        @Override
        public String toString() {
            return String.format("%,d commits, %d errors; %,d commits/s in the %d s before the stop, %,d in the %d s "
                    + "after", commits, errors, perSecondBefore, STANDBY_DOWN_WINDOW.toSeconds(), perSecondAfter,
                    STANDBY_DOWN_WINDOW.toSeconds());
        }
    }

    private static StandbyDown standbyDown(DataSource ds, PgStandbyPair pair) throws Exception {
        PrimaryStandbyFailoverPostgresTest.Workload load = new PrimaryStandbyFailoverPostgresTest.Workload(ds, pair, 4);
        try {
            load.awaitCommits(200);
            long before = commitsPerSecond(load);
            pair.stopAbruptly(1);
            long after = commitsPerSecond(load);
            load.awaitCommits(load.commits() + 500);
            return new StandbyDown(load.commits(), load.errors(), before, after);
        } finally {
            load.stop();
        }
    }

    /** Measures the throughput, never asserted on. */
    private static long commitsPerSecond(PrimaryStandbyFailoverPostgresTest.Workload load) throws InterruptedException {
        long start = load.commits();
        TimeUnit.MILLISECONDS.sleep(STANDBY_DOWN_WINDOW.toMillis());
        return (load.commits() - start) / STANDBY_DOWN_WINDOW.toSeconds();
    }

    @Test
    void theOldPrimaryReturningTakesNoWritesUntilAnOperatorMarksItUp() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        try (PgStandbyPair pair = new PgStandbyPair();
             SlotPoolDataSource ds = pool(pair, events, SLOTPOOL_LIFETIME)) {
            E2e.awaitSnapshot(ds, "roles read", s -> origin(s, "second").role() == ServerRole.STANDBY);
            PrimaryStandbyFailoverPostgresTest.Workload load = new PrimaryStandbyFailoverPostgresTest.Workload(ds, pair);
            try {
                failOver(load, pair);
                long onOld = load.committedAfterOn(0);
                long onNew = load.committedAfterOn(1);
                long restartAt = System.nanoTime();
                pair.restart(0);
                PoolSnapshot back = E2e.awaitSnapshot(ds, "the old primary seen again, refused",
                        s -> origin(s, "first").stateReason().startsWith("split brain")
                                && origin(s, "first").role() == ServerRole.PRIMARY
                                && events.stream().anyMatch(e -> e.startsWith("first") && e.contains("split brain")));
                long seenMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartAt);
                OnTheOldPrimary old = watchTheOldPrimary(load, restartAt, onOld, SLOTPOOL_RETURN_WINDOW);
                assertThat(old.writes()).as("no write on the old primary while it is refused").isZero();
                assertThat(origin(ds.snapshot(), "first").state()).isEqualTo(OriginState.DOWN);
                assertThat(load.readOnlyRefusals()).isZero();
                long onNewInWindow = load.committedAfterOn(1) - onNew;

                ds.markUp("first");
                load.awaitCommitsOn(0, onOld + 100);
                System.out.printf("PRIMARY-STANDBY old primary returns, slotpool, two origins: refused (%s) %d ms "
                        + "after its restart; in the %d s after the restart (connections live %d s) %,d writes on "
                        + "the promoted server, 0 on the old primary; %d after the operator's markUp; errors %d "
                        + "(read-only 0); events %s%n", origin(back, "first").stateReason(), seenMs,
                        SLOTPOOL_RETURN_WINDOW.toSeconds(), SLOTPOOL_LIFETIME.toSeconds(), onNewInWindow,
                        load.committedAfterOn(0) - onOld, load.errors(), events);
            } finally {
                load.stop();
            }
        }
    }

    @Test
    void hikariWithAMultiHostUrlWhenTheOldPrimaryReturns() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair(); HikariDataSource ds = hikari(pair, LIFETIME)) {
            PrimaryStandbyFailoverPostgresTest.Workload load = new PrimaryStandbyFailoverPostgresTest.Workload(ds, pair);
            try {
                failOver(load, pair);
                long onOld = load.committedAfterOn(0);
                long onNew = load.committedAfterOn(1);
                long restartAt = System.nanoTime();
                pair.restart(0);
                // pgjdbc's targetServerType=primary takes any server not in recovery, the first of the URL first:
                // a connection HikariCP opens after the restart (a lifetime's end, a broken one replaced) may land
                // on the old primary.
                OnTheOldPrimary old = watchTheOldPrimary(load, restartAt, onOld, RETURN_WINDOW);
                System.out.printf("PRIMARY-STANDBY old primary returns, HikariCP 7.1 + multi-host URL, "
                        + "targetServerType=primary: in the %d s after the restart (connections live %d s) %,d "
                        + "writes on the promoted server, %,d on the old primary (split brain), the first %d ms "
                        + "after its restart; errors %d %s%n", RETURN_WINDOW.toSeconds(), LIFETIME.toSeconds(),
                        load.committedAfterOn(1) - onNew, old.writes(), old.firstAfterMs(), load.errors(),
                        load.result("", 0, 0).errorStates());
            } finally {
                load.stop();
            }
        }
    }

    /** Crashes server 0 (the primary) under load, promotes server 1 and waits for writes on it. */
    private static void failOver(PrimaryStandbyFailoverPostgresTest.Workload load, PgStandbyPair pair)
            throws Exception {
        load.awaitCommits(200);
        load.failoverAt.set(System.nanoTime());
        pair.stopAbruptly(0);
        pair.promote(1);
        load.awaitCommitsOn(1, 200);
    }

    /** Writes the old primary took from its restart to the window's end, and when the first came (-1: none). */
    private record OnTheOldPrimary(long writes, long firstAfterMs) {
    }

    /** Watches the writes on server 0 until the window's end; a measurement, the test asserts only the count. */
    private static OnTheOldPrimary watchTheOldPrimary(PrimaryStandbyFailoverPostgresTest.Workload load, long restartAt,
                                                      long before, Duration window) throws InterruptedException {
        long end = restartAt + window.toNanos();
        long firstMs = -1;
        while (System.nanoTime() - end < 0) {
            if (firstMs < 0 && load.committedAfterOn(0) > before) {
                firstMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartAt);
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        return new OnTheOldPrimary(load.committedAfterOn(0) - before, firstMs);
    }

    @Test
    void aPrimaryTurnedReadOnlyIsTakenOutAtItsFirstRefusalsAndBackWhenItTakesWritesAgain() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        try (PgStandbyPair pair = new PgStandbyPair(); SlotPoolDataSource ds = pool(pair, events)) {
            E2e.awaitSnapshot(ds, "roles read", s -> origin(s, "second").role() == ServerRole.STANDBY);
            PrimaryStandbyFailoverPostgresTest.Workload load =
                    new PrimaryStandbyFailoverPostgresTest.Workload(ds, pair, 4);
            try {
                load.awaitCommits(200);
                pair.execute(0, "ALTER SYSTEM SET default_transaction_read_only = on");
                pair.query(0, "SELECT pg_reload_conf()");
                PoolSnapshot out = E2e.awaitSnapshot(ds, "the primary out for its role",
                        s -> origin(s, "first").state() == OriginState.DOWN);
                long refusals = load.readOnlyRefusals();
                pair.execute(0, "ALTER SYSTEM RESET default_transaction_read_only");
                pair.query(0, "SELECT pg_reload_conf()");
                E2e.awaitSnapshot(ds, "back in service", s -> origin(s, "first").state() == OriginState.UP);
                long before = load.commits();
                load.awaitCommits(before + 200);
                assertThat(load.readOnlyRefusals()).as("refusals only until the pool read the role again")
                        .isEqualTo(refusals).isLessThanOrEqualTo(6 + 4);
                System.out.printf("PRIMARY-STANDBY primary turned read-only: out (%s) after %d writes refused "
                        + "as read-only (6 connections, 4 threads); back when writable; events %s%n",
                        origin(out, "first").stateReason(), refusals, events);
            } finally {
                load.stop();
            }
        }
    }
}
