package dev.slotpool.e2e;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.PreparedSwitchover;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.e2e.PrimaryStandbyFailoverPostgresTest.Result;
import dev.slotpool.e2e.PrimaryStandbyFailoverPostgresTest.Workload;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The planned switchover (docs/failover.md, "Planned switchover") on embedded PostgreSQL 17
 * ({@link PgStandbyPair}): 20 threads of one-row UPDATE transactions on 10 connections, and after {@link #BEFORE}
 * the switchover, each configuration on a fresh pair, one after the other in one run. slotpool, primary and standby
 * as two origins: {@code prepareSwitchover(first, second)}, then {@code pg_promote()} on the standby as its answer
 * says; the old primary keeps running, still claiming to be primary. HikariCP with a multi-host URL and
 * {@code targetServerType=primary}: what its operator would do, stop the primary cleanly ({@code pg_ctl stop -m
 * fast}), then promote. The pause counts from the switchover's first step (the call, the stop) to the first commit
 * on the promoted server. Each prints one "SWITCHOVER ..." line; the assertions count, they never time.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PlannedSwitchoverPostgresTest {

    private static final int CONNECTIONS = 10;
    private static final Duration BEFORE = Duration.ofMillis(2500);
    private static final Duration AFTER = Duration.ofSeconds(2);
    /** Both pools let a borrower wait this long, so a borrower waits out the pause rather than fail. */
    private static final Duration BORROW_TIMEOUT = Duration.ofSeconds(30);
    private static final Map<String, String> DRIVER = Map.of("connectTimeout", "2", "socketTimeout", "3",
            "sslmode", "disable", "ApplicationName", "slotpool-switchover");

    private final List<String> story = new CopyOnWriteArrayList<>();

    @Test
    @Order(1)
    void slotpoolPreparesTheSwitchoverAndResumesOnThePromotedStandbyWithNoError() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair(); SlotPoolDataSource ds = slotpool(pair)) {
            E2e.awaitSnapshot(ds, "second out for its role", s -> s.origin("second").orElseThrow().state()
                    == OriginState.DOWN);
            Workload load = new Workload(ds, pair);
            try {
                load.awaitCommits(200);
                TimeUnit.MILLISECONDS.sleep(BEFORE.toMillis());
                long start = System.nanoTime();
                load.failoverAt.set(start);
                PreparedSwitchover prepared = ds.prepareSwitchover("first", "second", Duration.ofSeconds(30));
                long preparedMs = millisSince(start);
                long onOldPrimary = load.committedAfterOn(0);
                pair.promote(1);
                long promotedMs = millisSince(start);
                load.awaitCommitsOn(1, 200);
                TimeUnit.MILLISECONDS.sleep(AFTER.toMillis());
                load.stop();
                Result r = load.result("slotpool, primary and standby as two origins, prepareSwitchover", -1,
                        promotedMs);
                System.out.println(line(r, "prepareSwitchover answered at " + preparedMs + " ms ("
                        + prepared.summary() + ")"));
                story.forEach(s -> System.out.println("  story: " + s));

                assertThat(r.errors()).as("errors (target 0): %s", r.errorStates()).isZero();
                assertThat(prepared.aborted()).as("no transaction aborted").isFalse();
                assertThat(r.committedAfterOn(1)).as("writes went on on the promoted server").isPositive();
                assertThat(pair.inRecovery(0)).as("the old primary still runs as a primary").isFalse();
                assertThat(load.committedAfterOn(0)).as("no write reached the old primary after the switchover "
                        + "returned (split brain kept out)").isEqualTo(onOldPrimary);
                assertThat(ds.snapshot().origin("first").orElseThrow().state()).isEqualTo(OriginState.DOWN);
                assertThat(ds.snapshot().origin("second").orElseThrow().state()).isEqualTo(OriginState.UP);
            } finally {
                load.stop();
            }
        }
    }

    @Test
    @Order(2)
    void hikariWithAMultiHostUrlStopThePrimaryCleanlyThenPromote() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair()) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(pair.multiHostUrl() + "?targetServerType=primary");
            config.setUsername("postgres");
            config.setMaximumPoolSize(CONNECTIONS);
            config.setMinimumIdle(CONNECTIONS);
            config.setConnectionTimeout(BORROW_TIMEOUT.toMillis());
            DRIVER.forEach(config::addDataSourceProperty);
            try (HikariDataSource ds = new HikariDataSource(config)) {
                Workload load = new Workload(ds, pair);
                try {
                    load.awaitCommits(200);
                    TimeUnit.MILLISECONDS.sleep(BEFORE.toMillis());
                    long start = System.nanoTime();
                    load.failoverAt.set(start);
                    pair.stopCleanly(0);
                    long stoppedMs = millisSince(start);
                    pair.promote(1);
                    long promotedMs = millisSince(start);
                    load.awaitCommitsOn(1, 200);
                    TimeUnit.MILLISECONDS.sleep(AFTER.toMillis());
                    load.stop();
                    Result r = load.result("HikariCP 7.1 + multi-host URL, targetServerType=primary, "
                            + "pg_ctl stop -m fast", stoppedMs, promotedMs);
                    System.out.println(line(r, "the primary stopped at " + stoppedMs + " ms"));
                    assertThat(r.readOnlyRefusals()).as("no write reached the standby").isZero();
                    assertThat(r.committedAfterOn(1)).as("writes went on on the promoted server").isPositive();
                } finally {
                    load.stop();
                }
            }
        }
    }

    @Test
    @Order(3)
    void aSwitchoverNeedsAPrimaryAndItsStandbyAndIsAbandonedWhenTheStandbyCannotCatchUp() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair(); SlotPoolDataSource ds = slotpool(pair)) {
            E2e.awaitSnapshot(ds, "second out for its role", s -> s.origin("second").orElseThrow().state()
                    == OriginState.DOWN);
            assertThatThrownBy(() -> ds.prepareSwitchover("second", "first", Duration.ofSeconds(5)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'second' is not a primary in service");
            assertThatThrownBy(() -> ds.prepareSwitchover("first", "first", Duration.ofSeconds(5)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs two origins");
            assertThatThrownBy(() -> ds.prepareSwitchover("first", "third", Duration.ofSeconds(5)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown origin 'third'");
            assertThat(ds.snapshot().origin("first").orElseThrow().state()).as("nothing changed")
                    .isEqualTo(OriginState.UP);

            pair.pauseReplay(1);
            Workload load = new Workload(ds, pair, 4);
            try {
                load.awaitCommits(50);
                assertThatThrownBy(() -> ds.prepareSwitchover("first", "second", Duration.ofSeconds(1)))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("'second' did not catch up within 1000 ms")
                        .hasMessageContaining("writes resumed on 'first'; do not promote 'second'");
                long after = load.commits();
                load.awaitCommits(after + 50);
                load.stop();
                assertThat(load.errors()).as("the borrowers waited through the pause").isZero();
                assertThat(ds.snapshot().origin("first").orElseThrow().state()).isEqualTo(OriginState.UP);
            } finally {
                load.stop();
                pair.resumeReplay(1);
            }
        }
    }

    private SlotPoolDataSource slotpool(PgStandbyPair pair) {
        SlotPoolBuilder b = SlotPoolDataSource.builder().name("switchover").username("postgres")
                .minSize(CONNECTIONS).maxSize(CONNECTIONS).borrowTimeout(BORROW_TIMEOUT)
                .origin(OriginConfig.named("first").url(pgUrl(pair.port(0))))
                .origin(OriginConfig.named("second").url(pgUrl(pair.port(1))))
                .listener(new PoolListener() {
                    @Override
                    public void onEvent(PoolEvent e) {
                        if (e.type() == PoolEvent.Type.ORIGIN_STATE) {
                            story.add(e.origin() + " " + e.detail());
                        }
                    }
                });
        DRIVER.forEach(b::connectionProperty);
        return b.build();
    }

    private static String pgUrl(int port) {
        return "jdbc:postgresql://localhost:" + port + "/postgres";
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    private static String line(Result r, String how) {
        return String.format("SWITCHOVER %s: transactions committed %,d (after the start: %,d on the old primary, "
                + "%,d on the promoted one); errors %,d (by SQLState %s), refused as read-only %,d; errors after the "
                + "start: first at %d ms, last at %d ms; %s; pg_promote returned at %d ms; write pause (start to the "
                + "first commit on the promoted server) %d ms",
                r.configuration(), r.commits(), r.commitsAfterOn()[0], r.commitsAfterOn()[1], r.errors(),
                r.errorStates(), r.readOnlyRefusals(), r.firstErrorMs(), r.lastErrorMs(), how, r.promotedMs(),
                r.firstCommitOnNewPrimaryMs());
    }
}
