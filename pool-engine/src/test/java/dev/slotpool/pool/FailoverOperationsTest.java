package dev.slotpool.pool;

import dev.slotpool.Balancing;
import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The failover operations (docs/failover.md) on stub databases and H2: a drain paced over its timeout, DOWN with and without aborting
 * borrowed connections, dimension selectors, discovered origins and latency-aware balancing.
 */
class FailoverOperationsTest {

    private final RecordedEvents recorder = new RecordedEvents();
    private final List<PoolEvent> events = recorder.events;

    private static String originOf(Connection c) throws Exception {
        return c.unwrap(StubConnection.class).database().name();
    }

    @Test
    void aDrainClosesIdleConnectionsOneByOneOverItsTimeout() {
        StubDatabase a = StubDatabase.reset("pa"), b = StubDatabase.reset("pb");
        ManualTicker clock = new ManualTicker();
        ConnectionPool pool = new ConnectionPool(Pools.stub(a).url(null).ticker(clock).minSize(8).maxSize(8)
                .listener(recorder)
                .origin(OriginConfig.named("a").url(a.url()).weight(1))
                .origin(OriginConfig.named("b").url(b.url()).weight(1)).config());
        try {
            Pools.fillToShares(pool, p -> p.origin("a").orElseThrow().total() == 4, "4 on a, 4 on b");
            pool.operations().drain("a", Duration.ofSeconds(10));

            // Reserved for close at once (no borrower can take them), closed on schedule: k of 4 at k/5 of 10 s.
            OriginSnapshot draining = pool.snapshot().origin("a").orElseThrow();
            assertThat(draining.state()).isEqualTo(OriginState.DRAINING);
            assertThat(draining.closing()).isEqualTo(4);
            assertThat(a.live()).isEqualTo(4);
            clock.advance(Duration.ofMillis(2_100));
            pool.housekeeper.wake();
            Pools.await(pool, p -> a.live() == 3, "first close at 2 s");
            clock.advance(Duration.ofMillis(2_000));
            pool.housekeeper.wake();
            Pools.await(pool, p -> a.live() == 2, "second close at 4 s");
            assertThat(a.live()).as("no more than due").isEqualTo(2);
            clock.advance(Duration.ofSeconds(6));
            pool.housekeeper.wake();
            var s = Pools.await(pool, p -> p.origin("a").orElseThrow().state() == OriginState.DOWN, "drained");
            assertThat(a.live()).isZero();
            assertThat(s.origin("a").orElseThrow().stateReason()).isEqualTo("drained");
            assertThat(events).filteredOn(e -> e.type() == PoolEvent.Type.CLOSED && "a".equals(e.origin()))
                    .hasSize(4);
        } finally {
            pool.close();
        }
        assertThat(a.live() + b.live()).isZero();
    }

    @Test
    void aWaitingBorrowerDoesNotWaitForAPacedDrainWhenThePoolIsFull() throws Exception {
        StubDatabase a = StubDatabase.reset("qa"), b = StubDatabase.reset("qb");
        ConnectionPool pool = new ConnectionPool(Pools.stub(a).url(null).minSize(4).maxSize(4)
                .borrowTimeout(Duration.ofSeconds(20))
                .origin(OriginConfig.named("a").url(a.url()).weight(1))
                .origin(OriginConfig.named("b").url(b.url()).weight(1)).config());
        List<Connection> held = new ArrayList<>();
        try {
            Pools.fillToShares(pool, p -> p.origin("a").orElseThrow().total() == 2, "2 on a, 2 on b");
            pool.operations().drain("a", Duration.ofMinutes(10));
            // b's two connections are taken; a's two sit in the drain's queue; the pool is at maxSize.
            held.add(pool.borrow());
            held.add(pool.borrow());
            assertThat(originOf(held.get(0))).isEqualTo("qb");
            try (Connection third = pool.borrow()) {
                assertThat(originOf(third)).as("a creator closed a draining connection to open one on b")
                        .isEqualTo("qb");
            }
            // One waiter, one early close: the other stays on the drain's pace.
            assertThat(a.live()).isEqualTo(1);
            assertThat(a.live() + b.live()).isLessThanOrEqualTo(4);
        } finally {
            for (Connection c : held) {
                c.close();
            }
            pool.close();
        }
    }

    @Test
    void downAbortsBorrowedAfterTheGracePeriodOrLetsThemFinishWhenConfigured() throws Exception {
        for (boolean abort : new boolean[] {true, false}) {
            StubDatabase a = StubDatabase.reset("da" + abort), b = StubDatabase.reset("db" + abort);
            ConnectionPool pool = new ConnectionPool(Pools.stub(a).url(null).minSize(2).maxSize(4)
                    .downGracePeriod(Duration.ofMillis(200)).abortBorrowedOnDown(abort)
                    .origin(OriginConfig.named("a").url(a.url()).weight(1))
                    .origin(OriginConfig.named("b").url(b.url()).weight(0)).config());
            try {
                Pools.await(pool, p -> p.available() == 2, "min filled");
                Connection held = pool.borrow();
                pool.operations().markDown("a");
                if (abort) {
                    Pools.await(pool, p -> a.aborted() == 1, "held connection aborted after the grace period");
                    assertThat(held.isClosed()).isTrue();
                } else {
                    // Nothing will abort it: wait well past the grace period, then the holder still works.
                    Thread.sleep(600);
                    assertThat(a.aborted()).isZero();
                    try (Statement st = held.createStatement()) {
                        st.execute("SELECT 1");
                    }
                    held.close();
                    Pools.closesDone(pool);
                    assertThat(a.live()).as("closed at return").isZero();
                }
            } finally {
                pool.close();
            }
        }
    }

    @Test
    void selectorsNameOriginsByDimension() {
        StubDatabase a = StubDatabase.reset("sa"), b = StubDatabase.reset("sb"), c = StubDatabase.reset("sc");
        ConnectionPool pool = new ConnectionPool(Pools.stub(a).url(null).minSize(3).maxSize(6)
                .origin(OriginConfig.named("a").url(a.url()).host("db1").service("oltp"))
                .origin(OriginConfig.named("b").url(b.url()).host("db3").service("oltp"))
                .origin(OriginConfig.named("c").url(c.url()).host("db3").service("batch")).config());
        try {
            assertThat(pool.operations().select("host=db3")).containsExactly("b", "c");
            assertThat(pool.operations().select("HOST=DB3, service=batch")).containsExactly("c");
            assertThat(pool.operations().select("a")).containsExactly("a");
            assertThatThrownBy(() -> pool.operations().select("rack=r1")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("bad origin selector 'rack=r1'");
            assertThatThrownBy(() -> pool.operations().select("host=db9")).hasMessageContaining("no origin matches");
            assertThatThrownBy(() -> pool.operations().markDown("host=")).hasMessageContaining("bad origin selector");

            pool.operations().markDown("host=db3");
            assertThat(pool.snapshot().origins()).extracting(OriginSnapshot::state)
                    .containsExactly(OriginState.UP, OriginState.DOWN, OriginState.DOWN);
            pool.operations().markUp("host=db3");
            assertThat(pool.snapshot().origins()).extracting(OriginSnapshot::state).containsOnly(OriginState.UP);
        } finally {
            pool.close();
        }
    }

    @Test
    void aDiscoveryQueryAttributesEachConnectionToTheServerItLandedOn() throws Exception {
        // One H2 URL; the query "lands" each connection on left or right at random, like a multi-host URL.
        String landing = "SELECT CASE WHEN RAND() < 0.5 THEN 'left' ELSE 'right' END, 'h-' || CASE WHEN RAND() < 2 "
                + "THEN 'x' END AS host";
        ConnectionPool pool = new ConnectionPool(SlotPoolDataSource.builder().name("disc").minSize(10).maxSize(10)
                .housekeepingPeriod(Duration.ofMinutes(10)).listener(recorder)
                .origin(OriginConfig.named("cluster").url("jdbc:h2:mem:disc;DB_CLOSE_DELAY=-1").originQuery(landing))
                .config());
        try {
            var s = Pools.await(pool, p -> p.available() == 10 && p.origins().size() == 2, "both landings seen");
            assertThat(s.origins()).extracting(OriginSnapshot::name).containsExactlyInAnyOrder("left", "right");
            assertThat(s.origins()).extracting(OriginSnapshot::host).containsOnly("h-x");
            assertThat(s.origins().stream().mapToInt(OriginSnapshot::total).sum()).isEqualTo(10);
            assertThat(events).anyMatch(e -> e.type() == PoolEvent.Type.ORIGIN_STATE && "left".equals(e.origin())
                    && e.detail().contains("discovered through origin 'cluster'"));

            // Drain one discovered origin: its connections go, new landings on it are closed, the pool refills
            // on the other.
            pool.operations().drain("left", Duration.ZERO);
            var after = Pools.await(pool, p -> p.origin("left").orElseThrow().total() == 0
                    && p.origin("right").orElseThrow().total() == 10, "refilled on right");
            assertThat(after.origin("left").orElseThrow().state()).isIn(OriginState.DRAINING, OriginState.DOWN);
            for (int i = 0; i < 50; i++) {
                try (Connection c = pool.borrow(); Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT 1")) {
                    assertThat(rs.next()).isTrue();
                }
            }
            assertThat(pool.snapshot().origin("right").orElseThrow().borrows()).isEqualTo(50);

            // The configured origin names the whole group.
            assertThat(pool.operations().select("cluster")).containsExactlyInAnyOrder("cluster", "left", "right");
            pool.operations().markUp("left");
            assertThat(pool.snapshot().origin("left").orElseThrow().state()).isEqualTo(OriginState.UP);
        } finally {
            pool.close();
        }
    }

    @Test
    void latencyAwareBalancingShiftsShareAwayFromASlowOrigin() throws Exception {
        StubDatabase fast = StubDatabase.reset("lf"), slow = StubDatabase.reset("ls");
        // Holds 25:1 apart when quiet. A hold is wall time, scheduling included: at 8 ms against 1 ms a loaded machine
        // (load 12-21) brought them within 2:1 (slow weight 53 and 73 against the bound of 50).
        slow.queryDelay(Duration.ofMillis(25));
        fast.queryDelay(Duration.ofMillis(1));
        ConnectionPool pool = new ConnectionPool(Pools.stub(fast).url(null).minSize(8).maxSize(8)
                .balancing(Balancing.LATENCY).rebalanceStep(4).listener(recorder)
                .origin(OriginConfig.named("fast").url(fast.url()).weight(1))
                .origin(OriginConfig.named("slow").url(slow.url()).weight(1)).config());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        try {
            Pools.await(pool, p -> p.available() == 8, "min filled");
            assertThat(pool.snapshot().origin("slow").orElseThrow().weight()).isEqualTo(100);
            for (int t = 0; t < 4; t++) {
                Thread w = new Thread(() -> {
                    while (!stop.get()) {
                        try (Connection c = pool.borrow(); Statement st = c.createStatement()) {
                            st.execute("SELECT 1");
                        } catch (Exception e) {
                            failure.compareAndSet(null, e);
                        }
                    }
                });
                w.start();
                workers.add(w);
            }
            // Enough returns for a few of the 1-in-16 hold samples on each of the 4 connections of both origins.
            Pools.await(pool, p -> p.origin("slow").orElseThrow().borrows() > 200
                    && p.origin("fast").orElseThrow().borrows() > 200, "samples on both origins");
            for (int i = 0; i < 4; i++) {
                Pools.passAndSettle(pool);
            }
            var s = pool.snapshot();
            int fastWeight = s.origin("fast").orElseThrow().weight();
            int slowWeight = s.origin("slow").orElseThrow().weight();
            // A wide margin for a loaded machine: at least 2:1.
            assertThat(fastWeight).isEqualTo(100);
            assertThat(slowWeight).as("slow weight %d vs fast %d", slowWeight, fastWeight).isLessThanOrEqualTo(50);
            assertThat(s.origin("fast").orElseThrow().total()).as("connections follow the weights")
                    .isGreaterThan(s.origin("slow").orElseThrow().total());
            assertThat(events).anyMatch(e -> e.type() == PoolEvent.Type.REBALANCE
                    && e.detail().startsWith("latency-aware weights"));
            assertThat(failure.get()).isNull();
        } finally {
            stop.set(true);
            for (Thread w : workers) {
                w.join(10_000);
            }
            pool.close();
        }
    }

    @Test
    void aRebalanceOfADiscoveredOriginChangesItsBorrowWeight() {
        ConnectionPool pool = new ConnectionPool(SlotPoolDataSource.builder().name("disc2").minSize(2).maxSize(4)
                .housekeepingPeriod(Duration.ofMinutes(10))
                .origin(OriginConfig.named("one").url("jdbc:h2:mem:disc2;DB_CLOSE_DELAY=-1")
                        .originQuery("SELECT 'only'"))
                .config());
        try {
            Pools.await(pool, p -> p.available() == 2, "min filled");
            pool.weights().rebalance(Map.of("only", 7));
            assertThat(pool.snapshot().origin("only").orElseThrow().weight()).isEqualTo(7);
        } finally {
            pool.close();
        }
    }
}
