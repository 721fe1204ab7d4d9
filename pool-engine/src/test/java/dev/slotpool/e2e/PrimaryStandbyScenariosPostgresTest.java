package dev.slotpool.e2e;

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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scenarios of docs/failover.md "Primary and standbys" beyond the crash of the measured table: a standby
 * down (writes unaffected), a primary whose configuration turns read-only, the old primary returning after a promotion (no writes until an
 * operator marks it up). Each prints one "PRIMARY-STANDBY ..." line with its events; assertions count.
 */
class PrimaryStandbyScenariosPostgresTest {

    private static SlotPoolDataSource pool(PgStandbyPair pair, List<String> events) {
        return SlotPoolDataSource.builder().name("scenarios").username("postgres").minSize(2).maxSize(6)
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
            PrimaryStandbyFailoverPostgresTest.Workload load =
                    new PrimaryStandbyFailoverPostgresTest.Workload(ds, pair, 4);
            try {
                load.awaitCommits(200);
                long before = load.commits();
                pair.stopAbruptly(1);
                load.awaitCommits(before + 500);
                assertThat(load.errors()).as("no write failed: the standby was never written to").isZero();
                assertThat(origin(ds.snapshot(), "first").state()).isEqualTo(OriginState.UP);
                System.out.printf("PRIMARY-STANDBY standby down: %,d commits, 0 errors; events %s%n",
                        load.commits(), events);
            } finally {
                load.stop();
            }
        }
    }

    @Test
    void theOldPrimaryReturningTakesNoWritesUntilAnOperatorMarksItUp() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        try (PgStandbyPair pair = new PgStandbyPair(); SlotPoolDataSource ds = pool(pair, events)) {
            E2e.awaitSnapshot(ds, "roles read", s -> origin(s, "second").role() == ServerRole.STANDBY);
            PrimaryStandbyFailoverPostgresTest.Workload load = new PrimaryStandbyFailoverPostgresTest.Workload(ds, pair);
            try {
                load.awaitCommits(200);
                load.failoverAt.set(System.nanoTime());
                pair.stopAbruptly(0);
                pair.promote(1);
                load.awaitCommitsOn(1, 200);

                long restartAt = System.nanoTime();
                pair.restart(0);
                PoolSnapshot back = E2e.awaitSnapshot(ds, "the old primary seen again, refused",
                        s -> origin(s, "first").stateReason().startsWith("split brain")
                                && origin(s, "first").role() == ServerRole.PRIMARY
                                && events.stream().anyMatch(e -> e.startsWith("first") && e.contains("split brain")));
                long seenMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartAt);
                long onOld = load.committedAfterOn(0);
                load.awaitCommitsOn(1, load.committedAfterOn(1) + 1_000);
                assertThat(load.committedAfterOn(0)).as("no write on the old primary while it is refused")
                        .isEqualTo(onOld);
                assertThat(origin(ds.snapshot(), "first").state()).isEqualTo(OriginState.DOWN);
                assertThat(load.readOnlyRefusals()).isZero();

                ds.markUp("first");
                load.awaitCommitsOn(0, onOld + 100);
                System.out.printf("PRIMARY-STANDBY old primary returns: refused (%s) %d ms after its restart; "
                        + "0 writes on it before the operator's markUp, %d after; errors %d (read-only 0); "
                        + "events %s%n", origin(back, "first").stateReason(), seenMs,
                        load.committedAfterOn(0) - onOld, load.errors(), events);
            } finally {
                load.stop();
            }
        }
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
