package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The role layer together with the core's mechanisms (docs/failover.md, "Primary and standbys"): suspend and
 * resume, an operator's markDown, drains, minimum size and close, on stub servers that answer PostgreSQL's role
 * query.
 */
class RoleLayerTest {

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final ThreadLocal<String> lastOrigin = new ThreadLocal<>();
    private final StubDatabase primary = StubDatabase.reset("layer-primary").productName("PostgreSQL")
            .answer("pg_is_in_recovery", pg(false, 1));
    private final StubDatabase standby = StubDatabase.reset("layer-standby").productName("PostgreSQL")
            .answer("pg_is_in_recovery", pg(true, 0));

    @AfterEach
    void reset() {
        StubDatabase.reset();
    }

    /** PostgreSQL's role query's answer: a standby caught up, or a primary on a timeline. */
    static Map<String, Object> pg(boolean inRecovery, long timeline) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("in_recovery", inRecovery);
        row.put("cluster", "42");
        row.put("transaction_read_only", inRecovery ? "on" : "off");
        row.put("default_read_only", "off");
        row.put("timeline", inRecovery ? null : timeline);
        row.put("lag_bytes", inRecovery ? 0L : null);
        row.put("lag_millis", inRecovery ? 0L : null);
        row.put("receiver", inRecovery ? "streaming" : null);
        return row;
    }

    private SlotPoolBuilder builder(String name, int min, int max, boolean readsToStandbys) {
        return SlotPoolDataSource.builder().name(name).minSize(min).maxSize(max)
                .borrowTimeout(Duration.ofSeconds(10)).creationBackoffMax(Duration.ofMillis(200))
                .housekeepingPeriod(Duration.ofMillis(200))
                .readsToStandbys(readsToStandbys).maxReplicaLag(Duration.ofSeconds(5))
                .listener(new PoolListener() {
                    @Override
                    public void onEvent(PoolEvent e) {
                        if (e.type() == PoolEvent.Type.ORIGIN_STATE) {
                            events.add(e.origin() + " " + e.detail());
                        }
                    }

                    @Override
                    public void onBorrow(String origin, long waitNanos) {
                        lastOrigin.set(origin);
                    }
                })
                .origin(OriginConfig.named("primary").url(primary.url()))
                .origin(OriginConfig.named("standby").url(standby.url()));
    }

    private static OriginSnapshot origin(SlotPoolDataSource ds, String name) {
        return ds.snapshot().origin(name).orElseThrow();
    }

    private void await(String what, SlotPoolDataSource ds, Predicate<PoolSnapshot> condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.test(ds.snapshot())) {
            assertThat(System.nanoTime() - deadline).as("timed out waiting for: %s; %s; events %s", what,
                    ds.snapshot().summary(), events).isNegative();
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("timed out waiting for: %s", what).isNegative();
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    /** Borrows n times from {@code from}, one statement each; returns how many landed on each origin. */
    private Map<String, Integer> borrow(DataSource from, int n) throws SQLException {
        Map<String, Integer> landed = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            try (Connection c = from.getConnection(); Statement st = c.createStatement()) {
                st.executeQuery("SELECT 1").close();
                landed.merge(lastOrigin.get(), 1, Integer::sum);
            }
        }
        return landed;
    }

    private static boolean stateIs(PoolSnapshot s, String origin, OriginState state) {
        return s.origin(origin).orElseThrow().state() == state;
    }

    /** The primary dies and the standby is promoted on timeline 2. */
    private void failover() {
        primary.down(true).killLiveConnections();
        standby.answer("pg_is_in_recovery", pg(false, 2));
    }

    // ---- who owns an origin's status -------------------------------------------------------------------------

    @Test
    void aFailoverAfterSuspendAndResumePutsThePromotedStandbyInService() throws Exception {
        try (SlotPoolDataSource ds = builder("layer-resume", 2, 6, false).build()) {
            await("the standby out for its role", ds, s -> stateIs(s, "standby", OriginState.DOWN)
                    && s.origin("primary").orElseThrow().total() > 0);
            ds.suspend(Duration.ofSeconds(2));
            ds.resume();
            await("the primary back", ds, s -> stateIs(s, "primary", OriginState.UP));
            assertThat(origin(ds, "standby").stateReason()).as("out for its role again, not for the checkpoint")
                    .isEqualTo("standby (pg_is_in_recovery() is true)");

            failover();
            // The promoted standby serves before the primary it outranks is taken out (RoleWatch.applyAll): a borrow in
            // between may meet one of the dead primary's connections.
            await("the promoted standby in service, the old primary out", ds,
                    s -> stateIs(s, "standby", OriginState.UP) && !stateIs(s, "primary", OriginState.UP));
            assertThat(borrow(ds, 20)).containsOnlyKeys("standby");
        }
    }

    @Test
    void aStandbyPromotedWhileSuspendedTakesWritesAtResume() throws Exception {
        try (SlotPoolDataSource ds = builder("layer-promoted-suspended", 2, 6, false).build()) {
            await("the standby out for its role", ds, s -> stateIs(s, "standby", OriginState.DOWN)
                    && s.origin("primary").orElseThrow().total() > 0);
            assertThat(ds.suspend(Duration.ofSeconds(2))).isTrue();
            failover();
            ds.resume();
            // The promoted standby serves before the primary it outranks is taken out (RoleWatch.applyAll): a borrow in
            // between may meet one of the dead primary's connections.
            await("the promoted standby in service, the old primary out", ds,
                    s -> stateIs(s, "standby", OriginState.UP) && !stateIs(s, "primary", OriginState.UP));
            assertThat(borrow(ds, 20)).containsOnlyKeys("standby");
        }
    }

    @Test
    void anOperatorsMarkDownReplacesTheRolesDownAndItsMarkUpMeetsThePromotion() throws Exception {
        try (SlotPoolDataSource ds = builder("layer-markdown", 2, 6, false).build()) {
            await("the standby out for its role", ds, s -> stateIs(s, "standby", OriginState.DOWN));
            ds.markDown("standby");
            assertThat(origin(ds, "standby").stateReason()).as("the operator's DOWN replaces the role's")
                    .isEqualTo("marked down");
            await("the watch session closed, as every connection of an origin marked down", () -> standby.live() == 0);
            failover();
            ds.markUp("standby");
            // The promoted standby serves before the primary it outranks is taken out (RoleWatch.applyAll): a borrow in
            // between may meet one of the dead primary's connections.
            await("the promoted standby in service, the old primary out", ds,
                    s -> stateIs(s, "standby", OriginState.UP) && !stateIs(s, "primary", OriginState.UP));
            assertThat(borrow(ds, 20)).containsOnlyKeys("standby");
        }
    }

    @Test
    void anOperatorsMarkUpOfAStandbyNeverPutsItInWriteService() throws Exception {
        try (SlotPoolDataSource ds = builder("layer-markup-standby", 2, 6, false).build()) {
            await("the standby out for its role", ds, s -> stateIs(s, "standby", OriginState.DOWN));
            ds.markDown("standby");
            events.clear();
            ds.markUp("standby");
            assertThat(origin(ds, "standby").stateReason()).as("the role's DOWN takes the operator's place at once")
                    .isEqualTo("standby (pg_is_in_recovery() is true)");
            assertThat(events).as("no moment in which the standby took writes")
                    .noneMatch(e -> e.startsWith("standby ") && e.contains("-> UP"));
            assertThat(borrow(ds, 20)).containsOnlyKeys("primary");
        }
    }

    @Test
    void anOperatorsMarkDownWhileSuspendedOutlivesTheResume() throws Exception {
        try (SlotPoolDataSource ds = builder("layer-markdown-suspended", 2, 6, false).build()) {
            await("connections to the primary", ds, s -> s.origin("primary").orElseThrow().total() > 0);
            assertThat(ds.suspend(Duration.ofSeconds(2))).isTrue();
            ds.markDown("primary");
            ds.resume();
            assertThat(origin(ds, "primary").state()).isEqualTo(OriginState.DOWN);
            assertThat(origin(ds, "primary").stateReason()).isEqualTo("marked down");
        }
    }

    // ---- the watch session's accounting ----------------------------------------------------------------------

    @Test
    void theWatchSessionIsNeitherACreationNorAConnectionTowardsMinSize() throws Exception {
        try (SlotPoolDataSource ds = builder("layer-min", 2, 6, false).borrowTimeout(Duration.ofSeconds(5))
                .build()) {
            await("the standby watched", ds, s -> stateIs(s, "standby", OriginState.DOWN) && standby.live() == 1);
            // The stub counts a connection once its connect returns, the pool once it is published: wait for both.
            // With the watch session counted as a creation, creating stays 1 for as long as the session lives.
            await("minSize on the primary, nothing being created", ds, s -> primary.live() == 2 && s.creating() == 0);
            assertThat(origin(ds, "standby").creating()).isZero();
            List<Connection> held = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    held.add(ds.getConnection());
                }
            } finally {
                for (Connection c : held) {
                    c.close();
                }
            }
        }
    }

    @Test
    void aDrainOfAStandbyKeptForReadsEndsAndItsWatchSessionCloses() throws Exception {
        try (SlotPoolDataSource ds = builder("layer-drain", 2, 6, true).build()) {
            await("the standby kept for reads, watched", ds, s -> s.origin("standby").orElseThrow().total() > 0
                    && standby.live() > s.origin("standby").orElseThrow().total());
            ds.drain("standby", Duration.ofMillis(300));
            await("the drain ended", ds, s -> stateIs(s, "standby", OriginState.DOWN));
            await("no session to the drained standby", () -> standby.live() == 0);
            ds.markUp("standby");
            await("watched again after markUp", ds, s -> stateIs(s, "standby", OriginState.UP)
                    && standby.live() > s.origin("standby").orElseThrow().total());
        }
    }

    @Test
    void suspendClosesTheWatchSessionAndResumeReopensIt() throws Exception {
        try (SlotPoolDataSource ds = builder("layer-suspend", 2, 6, false).build()) {
            await("the standby watched", ds, s -> stateIs(s, "standby", OriginState.DOWN) && standby.live() == 1);
            assertThat(ds.suspend(Duration.ofMillis(500))).as("every connection closed; %s",
                    ds.snapshot().summary()).isTrue();
            assertThat(standby.live() + primary.live()).as("no socket open for the checkpoint").isZero();
            ds.resume();
            await("watched again", () -> standby.live() == 1);
            failover();
            await("the promoted standby in service", ds, s -> stateIs(s, "standby", OriginState.UP));
        }
    }

    // ---- a failed role query ---------------------------------------------------------------------------------

    @Test
    void aFailedRoleQueryOnTheWatchSessionKeepsTheStandbyOut() throws Exception {
        try (SlotPoolDataSource ds = builder("layer-failed-query", 2, 6, false).build()) {
            await("the standby watched", ds, s -> stateIs(s, "standby", OriginState.DOWN) && standby.live() == 1);
            long before = standby.queries();
            standby.failNextQueries(3, "57014");
            await("three failed readings and one more, or the standby back", () -> standby.queries() >= before + 4
                    || events.stream().anyMatch(e -> e.startsWith("standby DOWN -> UP")));
            assertThat(events).as("never back for writes").noneMatch(e -> e.startsWith("standby DOWN -> UP"));
            assertThat(origin(ds, "standby").state()).isEqualTo(OriginState.DOWN);
            assertThat(borrow(ds, 20)).containsOnlyKeys("primary");
        }
    }

    @Test
    void aFailedRoleQueryNeverLendsAStandbyKeptForReadsToAWriter() throws Exception {
        try (SlotPoolDataSource ds = builder("layer-failed-query-reads", 2, 6, true).build()) {
            await("the standby kept for reads, watched", ds, s -> s.origin("standby").orElseThrow().total() > 0
                    && standby.live() > s.origin("standby").orElseThrow().total());
            long before = standby.queries();
            standby.failNextQueries(1, "57014");
            await("the failed reading and one more, or the standby back", () -> standby.queries() >= before + 2
                    || events.stream().anyMatch(e -> e.contains("takes writes again")));
            assertThat(events).as("never back for writes").noneMatch(e -> e.contains("takes writes again"));
            assertThat(borrow(ds, 50)).containsOnlyKeys("primary");
        }
    }

    // ---- close -----------------------------------------------------------------------------------------------

    @Test
    void noRoleWatcherOrSwitchoverThreadOutlivesClose() throws Exception {
        SlotPoolDataSource ds = builder("layer-close", 2, 6, false).build();
        try {
            await("the standby watched", ds, s -> stateIs(s, "standby", OriginState.DOWN) && standby.live() == 1);
            // The watcher is in its role query when the pool closes.
            standby.queryDelay(Duration.ofMillis(400));
            long before = standby.queries();
            await("a slow reading under way", () -> standby.queries() > before);
        } finally {
            ds.close();
        }
        // close() waits a second for pool threads still in a driver call (ConnectionPool.close); one whose call
        // outlasts that on a loaded machine ends on its own once the call returns, and closes what it holds.
        await("every role watcher and switchover thread ended", () -> Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName).noneMatch(n -> n.startsWith("slotpool-layer-close-")));
        await("the watch session closed", () -> standby.live() == 0);
    }
}
