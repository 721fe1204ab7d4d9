package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Origin state changes by CAS: concurrent operations leave one consistent state, and an operator's decision
 * is never undone by the pool's own detection (docs/architecture.md, "Origins"). */
class OriginStatusChangesTest {

    private final RecordedEvents events = new RecordedEvents();
    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
        StubDatabase.reset();
    }

    @Test
    void twoThreadsDrainingOneOriginUnderLoadLeaveItDownEveryTime() throws Exception {
        StubDatabase a = StubDatabase.reset("osc-a");
        StubDatabase b = StubDatabase.reset("osc-b");
        pool = new ConnectionPool(Pools.stub(a).listener(events).minSize(6).maxSize(6)
                .origin(OriginConfig.named("a").url(a.url()))
                .origin(OriginConfig.named("b").url(b.url()))
                .config());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong borrows = new AtomicLong();
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try {
            Future<?> load = threads.submit(() -> {
                while (!stop.get()) {
                    try (Connection c = pool.borrow()) {
                        borrows.incrementAndGet();
                    }
                }
                return null;
            });
            CyclicBarrier together = new CyclicBarrier(2);
            for (int round = 0; round < 40; round++) {
                rebalanceUntil(s -> origin(s.origins(), "a").available() >= 2, "idle connections on a again");
                Future<?> first = threads.submit(() -> drainTogether(together));
                drainTogether(together);
                first.get(10, TimeUnit.SECONDS);
                int r = round;
                Pools.await(pool, s -> origin(s.origins(), "a").state() == OriginState.DOWN,
                        "a DOWN after two concurrent drains (round " + r + ")");
                assertThat(origin(pool.snapshot().origins(), "a").total()).isZero();
                pool.operations().markUp("a");
            }
            stop.set(true);
            load.get(10, TimeUnit.SECONDS);
        } finally {
            stop.set(true);
            threads.shutdownNow();
            assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(borrows.get()).isPositive();
    }

    /** Housekeeping passes (each moves connections toward the weights) until the condition holds. */
    private void rebalanceUntil(java.util.function.Predicate<dev.slotpool.PoolSnapshot> condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.test(pool.snapshot())) {
            assertThat(System.nanoTime() - deadline).as("timed out waiting for %s: %s", what,
                    pool.snapshot().summary()).isNegative();
            pool.housekeeper.pass();
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
    }

    private Void drainTogether(CyclicBarrier together) throws Exception {
        together.await(10, TimeUnit.SECONDS);
        pool.operations().drain("a", Duration.ofMillis(40));
        return null;
    }

    @Test
    void aProbeAnsweringAfterAnOperatorsMarkDownLeavesTheOriginDown() throws Exception {
        StubDatabase db = StubDatabase.reset("osc-probe");
        pool = new ConnectionPool(Pools.stub(db).listener(events).minSize(1).maxSize(2).downAfterFailures(3)
                .creationBackoffMax(Duration.ofMillis(200)).config());
        Pools.await(pool, s -> s.total() == 1, "one connection");
        db.down(true);
        db.killLiveConnections();
        try (Connection c = pool.borrow()) {
            c.createStatement().execute("SELECT 1");
        } catch (java.sql.SQLException expected) {
            // 08006: evicted; the replacement connects fail until the origin is DOWN
        }
        Pools.await(pool, s -> s.origins().get(0).state() == OriginState.DOWN, "detected DOWN");

        db.hangConnects(true);
        db.down(false);
        long before = db.connectAttempts();
        Pools.await(pool, s -> db.connectAttempts() > before, "a probe connecting (hung)");
        pool.operations().markDown("default");
        long opened = db.opened();
        db.hangConnects(false);
        Pools.await(pool, s -> db.opened() > opened && db.live() == 0, "the probe answered and closed its connection");
        Pools.await(pool, s -> s.creating() == 0, "the probe done");

        OriginSnapshot o = pool.snapshot().origins().get(0);
        assertThat(o.state()).as("the operator's DOWN stands: %s", o.stateReason()).isEqualTo(OriginState.DOWN);
        assertThat(o.stateReason()).isEqualTo("marked down");
    }

    private static OriginSnapshot origin(java.util.List<OriginSnapshot> origins, String name) {
        return origins.stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
    }
}
