package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Weighted origins, drain, mark down/up, rebalance and detection, and S7 under concurrent borrowers. */
class OriginOperationsTest {

    private static ConnectionPool threeOrigins(StubDatabase a, StubDatabase b, StubDatabase c, PoolListener l) {
        return new ConnectionPool(Pools.stub(a).url(null).minSize(6).maxSize(12).listener(l)
                .origin(OriginConfig.named("a").url(a.url()).host("h1").weight(50))
                .origin(OriginConfig.named("b").url(b.url()).host("h2").weight(30))
                .origin(OriginConfig.named("c").url(c.url()).host("h3").weight(20))
                .config());
    }

    private static String originOf(Connection c) throws Exception {
        return c.unwrap(StubConnection.class).database().name();
    }

    @Test
    void connectionsAndBorrowsFollowTheWeights() throws Exception {
        StubDatabase a = StubDatabase.reset("wa"), b = StubDatabase.reset("wb"), c = StubDatabase.reset("wc");
        ConnectionPool pool = threeOrigins(a, b, c, new PoolListener() { });
        try {
            var s = Pools.await(pool, p -> p.available() == 6, "min filled");
            // Two creators choosing at once can overshoot an origin's share while filling; the rebalance step of
            // each housekeeping pass moves the pool to the weights' shares.
            for (int pass = 0; pass < 10 && s.origin("a").orElseThrow().total() != 3; pass++) {
                Pools.passAndSettle(pool);
                Pools.closesDone(pool);
                s = Pools.await(pool, p -> p.available() == 6, "min filled");
            }
            assertThat(s.origin("a").orElseThrow().total()).isEqualTo(3);
            assertThat(s.origin("b").orElseThrow().total()).isEqualTo(2);
            assertThat(s.origin("c").orElseThrow().total()).isEqualTo(1);
            Map<String, Integer> counts = new java.util.HashMap<>();
            for (int i = 0; i < 10_000; i++) {
                try (Connection conn = pool.borrow()) {
                    counts.merge(originOf(conn), 1, Integer::sum);
                }
            }
            // Weighted random preference: loose bounds, the expected shares are 50/30/20 %.
            assertThat(counts.get("wa")).isBetween(4_000, 6_000);
            assertThat(counts.get("wb")).isBetween(2_000, 4_000);
            assertThat(counts.get("wc")).isBetween(1_000, 3_000);
            assertThat(pool.snapshot().origin("a").orElseThrow().borrows()).isEqualTo((long) counts.get("wa"));
        } finally {
            pool.close();
        }
    }

    @Test
    void noBorrowStartedAfterDrainReturnsGetsADrainedConnection() throws Exception {
        StubDatabase a = StubDatabase.reset("da"), b = StubDatabase.reset("db"), c = StubDatabase.reset("dc");
        ConnectionPool pool = threeOrigins(a, b, c, new PoolListener() { });
        try {
            Pools.await(pool, p -> p.available() == 6, "min filled");
            AtomicBoolean drained = new AtomicBoolean();
            AtomicLong violations = new AtomicLong();
            AtomicLong borrows = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                Thread th = new Thread(() -> {
                    while (!stop.get()) {
                        boolean drainReturnedBefore = drained.get();
                        try (Connection conn = pool.borrow()) {
                            borrows.incrementAndGet();
                            if (drainReturnedBefore && originOf(conn).equals("da")) {
                                violations.incrementAndGet();
                            }
                        } catch (Exception e) {
                            failure.compareAndSet(null, e);
                        }
                    }
                });
                th.start();
                threads.add(th);
            }
            Pools.await(pool, p -> borrows.get() > 2_000, "load running");
            pool.operations().drain("a", Duration.ofSeconds(5));
            drained.set(true);
            long at = borrows.get();
            Pools.await(pool, p -> borrows.get() > at + 5_000, "5,000 borrows after the drain");
            stop.set(true);
            for (Thread th : threads) {
                th.join(10_000);
                assertThat(th.isAlive()).isFalse();
            }
            assertThat(failure.get()).isNull();
            assertThat(violations.get()).as("S7: borrows after drain() returned that got origin a").isZero();
            // DOWN is the drain's own end: a empty, nothing being opened on it (a creation claimed before the
            // drain may still be connecting when a's last slot empties, its connection not yet shown).
            Pools.await(pool, p -> p.origin("a").orElseThrow().state() == OriginState.DOWN
                    && p.origin("a").orElseThrow().total() == 0, "a drained: DOWN and empty");
            assertThat(a.live()).isZero();
            // The replacement for a's last connection may still be in creation when a turns empty.
            Pools.await(pool, p -> p.origin("b").orElseThrow().total() + p.origin("c").orElseThrow().total() >= 6,
                    "capacity moved to b and c");
        } finally {
            pool.close();
        }
    }

    @Test
    void markDownClosesIdleAtOnceAndMarkUpBringsConnectionsBack() throws Exception {
        StubDatabase a = StubDatabase.reset("ma"), b = StubDatabase.reset("mb"), c = StubDatabase.reset("mc");
        List<PoolEvent> events = new CopyOnWriteArrayList<>();
        ConnectionPool pool = threeOrigins(a, b, c, new PoolListener() {
            @Override
            public void onEvent(PoolEvent e) {
                events.add(e);
            }
        });
        try {
            Pools.await(pool, p -> p.available() == 6, "min filled");
            pool.operations().markDown("b");
            Pools.closesDone(pool);
            OriginSnapshot down = pool.snapshot().origin("b").orElseThrow();
            assertThat(down.state()).isEqualTo(OriginState.DOWN);
            assertThat(down.total()).as("idle connections closed at once").isZero();
            assertThat(b.live()).isZero();
            Pools.await(pool, p -> p.available() == 6, "replacements on a and c");
            assertThat(events).anyMatch(e -> e.type() == PoolEvent.Type.ORIGIN_STATE && "b".equals(e.origin())
                    && e.detail().contains("UP -> DOWN"));

            pool.operations().markUp("b");
            assertThat(pool.snapshot().origin("b").orElseThrow().state()).isEqualTo(OriginState.UP);
            Pools.passAndSettle(pool); // one rebalance step moves capacity back to b
            assertThat(pool.snapshot().origin("b").orElseThrow().total()).isPositive();
        } finally {
            pool.close();
        }
    }

    @Test
    void rebalanceIsAllOrNothingOnBadInput() throws Exception {
        StubDatabase a = StubDatabase.reset("ra"), b = StubDatabase.reset("rb"), c = StubDatabase.reset("rc");
        ConnectionPool pool = threeOrigins(a, b, c, new PoolListener() { });
        try {
            assertThatThrownBy(() -> pool.weights().rebalance(Map.of("a", 10, "nope", 5)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown origin 'nope'")
                    .hasMessageContaining("known origins: a, b, c");
            assertThatThrownBy(() -> pool.weights().rebalance(Map.of("a", -1)))
                    .hasMessageContaining("must be ≥ 0");
            assertThatThrownBy(() -> pool.weights().rebalance(Map.of("a", 0, "b", 0, "c", 0)))
                    .hasMessageContaining("at least one origin needs a weight > 0");
            assertThat(pool.snapshot().origins()).extracting(OriginSnapshot::weight).containsExactly(50, 30, 20);
            assertThatThrownBy(() -> pool.operations().drain("zz", Duration.ofSeconds(1)))
                    .hasMessageContaining("unknown origin 'zz'");

            pool.weights().rebalance(Map.of("a", 10, "b", 10, "c", 80));
            assertThat(pool.snapshot().origins()).extracting(OriginSnapshot::weight).containsExactly(10, 10, 80);
            Pools.await(pool, p -> p.available() == 6, "min filled");
            for (int i = 0; i < 5; i++) {
                Pools.passAndSettle(pool);
            }
            var s = pool.snapshot();
            assertThat(s.origin("c").orElseThrow().total()).as("c moves toward 80 %% of 6").isGreaterThanOrEqualTo(4);
            assertThat(s.total()).as("capacity kept while rebalancing").isGreaterThanOrEqualTo(6);
        } finally {
            pool.close();
        }
    }

    @Test
    void repeatedConnectFailuresMarkAnOriginDownAndAProbeBringsItBack() throws Exception {
        StubDatabase a = StubDatabase.reset("fa"), b = StubDatabase.reset("fb"), c = StubDatabase.reset("fc");
        b.down(true);
        List<PoolEvent> events = new CopyOnWriteArrayList<>();
        ConnectionPool pool = new ConnectionPool(Pools.stub(a).url(null).minSize(6).maxSize(12)
                .creationBackoffMax(Duration.ofMillis(100)).downAfterFailures(3)
                .housekeepingPeriod(Duration.ofMillis(50))
                .listener(new PoolListener() {
                    @Override
                    public void onEvent(PoolEvent e) {
                        events.add(e);
                    }
                })
                .origin(OriginConfig.named("a").url(a.url()).weight(1))
                .origin(OriginConfig.named("b").url(b.url()).weight(1))
                .origin(OriginConfig.named("c").url(c.url()).weight(1))
                .config());
        try {
            var s = Pools.await(pool, p -> p.origin("b").orElseThrow().state() == OriginState.DOWN, "b detected down");
            // Two creator threads may both fail before one of them marks b DOWN: at least the threshold.
            var reason = java.util.regex.Pattern.compile("(\\d+) consecutive connection failures")
                    .matcher(s.origin("b").orElseThrow().stateReason());
            assertThat(reason.find()).as("reason: %s", s.origin("b").orElseThrow().stateReason()).isTrue();
            assertThat(Integer.parseInt(reason.group(1))).isGreaterThanOrEqualTo(3);
            var filled = Pools.await(pool, p -> p.available() >= 6, "min filled on a and c");
            assertThat(filled.origin("b").orElseThrow().total()).isZero();
            b.down(false);
            Pools.await(pool, p -> p.origin("b").orElseThrow().state() == OriginState.UP, "probe marks b up");
            // The state changes before its event is emitted: wait for the event rather than expect it already.
            Pools.await(pool, p -> events.stream().anyMatch(e -> e.type() == PoolEvent.Type.ORIGIN_STATE
                    && "b".equals(e.origin()) && e.detail().contains("probe succeeded")), "the probe's UP event");
        } finally {
            pool.close();
        }
    }
}
