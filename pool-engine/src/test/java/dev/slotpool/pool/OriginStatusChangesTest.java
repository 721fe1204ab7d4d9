package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.origins.Origin;
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

    /**
     * The interleaving behind the rare {@code total=1} after a drain: a creator chose origin a while it was UP, was
     * preempted, and claimed its room only after the drain had emptied a and turned it DOWN. The claim stood, so a
     * connection was opened to a DOWN origin and shown (CLOSING) after the drain had ended. Here the test is that
     * creator: it makes the claim, the choice having been made while a was UP.
     */
    @Test
    void aCreationClaimedAfterADrainEndedIsGivenUp() {
        StubDatabase a = StubDatabase.reset("osc-claim-a");
        StubDatabase b = StubDatabase.reset("osc-claim-b");
        pool = new ConnectionPool(Pools.stub(a).listener(events).minSize(2).maxSize(4)
                .origin(OriginConfig.named("a").url(a.url()))
                .origin(OriginConfig.named("b").url(b.url()))
                .config());
        Pools.await(pool, s -> origin(s.origins(), "a").total() == 1 && origin(s.origins(), "b").total() == 1
                && s.creating() == 0, "one connection on each origin");
        Origin chosen = pool.origins.find("a"); // the creator's choice, made while a was UP

        pool.operations().drain("a", Duration.ZERO);
        Pools.await(pool, s -> origin(s.origins(), "a").state() == OriginState.DOWN && s.total() == 2
                && s.creating() == 0, "a drained and DOWN, its connection replaced on b");
        int occupied = pool.capacity.occupied();
        assertThat(pool.creator.claim(pool.origins.find("b"), occupied)).as("control: room for a creation").isTrue();
        pool.capacity.unclaim(pool.origins.find("b"));

        assertThat(pool.creator.claim(chosen, occupied)).as("a claim for a, DOWN since its drain ended").isFalse();
        OriginSnapshot after = origin(pool.snapshot().origins(), "a");
        assertThat(after.state()).isEqualTo(OriginState.DOWN);
        assertThat(after.creating()).as("creations for a").isZero();
        assertThat(chosen.occupied.get()).as("a's room").isZero();
        assertThat(pool.capacity.occupied()).as("the pool's room").isEqualTo(occupied);
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
