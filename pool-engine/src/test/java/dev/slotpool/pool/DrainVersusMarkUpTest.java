package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A markUp that lands while a drain is still queueing the origin's idle connections leaves none of them CLOSING
 * on the drain's schedule: an UP origin's idle connections are closed at once and replaced (issue 22, item 11).
 */
class DrainVersusMarkUpTest {

    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
        StubDatabase.reset();
    }

    @Test
    void aMarkUpRacingADrainUnderLoadLeavesNoConnectionOfTheUpOriginClosing() throws Exception {
        StubDatabase a = StubDatabase.reset("dvm-a"), b = StubDatabase.reset("dvm-b");
        pool = new ConnectionPool(Pools.stub(a).url(null).listener(new RecordedEvents()).minSize(16).maxSize(16)
                .origin(OriginConfig.named("a").url(a.url()))
                .origin(OriginConfig.named("b").url(b.url()))
                .config());
        Origin oa = pool.origins.find("a");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong borrows = new AtomicLong();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> load = threads.submit(() -> {
                while (!stop.get()) {
                    try (Connection c = pool.borrow()) {
                        borrows.incrementAndGet();
                    }
                }
                return null;
            });
            for (int round = 0; round < 40; round++) {
                rebalanceUntil(s -> s.origin("a").orElseThrow().available() >= 4, "idle connections on a again");
                // markUp the moment the drain's CAS is visible, while the drain still queues the idle connections.
                Future<?> up = threads.submit(() -> {
                    while (oa.state() != OriginState.DRAINING) {
                        Thread.onSpinWait();
                    }
                    pool.operations().markUp("a");
                    return null;
                });
                pool.operations().drain("a", Duration.ofMinutes(10));
                up.get(10, TimeUnit.SECONDS);
                assertThat(oa.state()).isEqualTo(OriginState.UP);
                int r = round;
                Pools.await(pool, s -> s.origin("a").orElseThrow().closing() == 0,
                        "no connection of the UP origin a left CLOSING (round " + r + ")");
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
    private void rebalanceUntil(Predicate<PoolSnapshot> condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.test(pool.snapshot())) {
            assertThat(System.nanoTime() - deadline).as("timed out waiting for %s: %s", what,
                    pool.snapshot().summary()).isNegative();
            pool.housekeeper.pass();
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
    }
}
