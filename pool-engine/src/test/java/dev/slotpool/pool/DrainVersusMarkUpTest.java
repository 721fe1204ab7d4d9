package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.origins.Origin;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A markUp that lands while a drain is still queueing the origin's idle connections leaves none of them CLOSING
 * on the drain's schedule: an UP origin's idle connections are closed at once and replaced (docs/reliability.md, 22.11).
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
        RecordedEvents events = new RecordedEvents();
        pool = new ConnectionPool(Pools.stub(a).url(null).listener(events).minSize(16).maxSize(16)
                .origin(OriginConfig.named("a").url(a.url()))
                .origin(OriginConfig.named("b").url(b.url()))
                .config());
        Origin oa = pool.origins.find("a");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong borrows = new AtomicLong();
        int raced = 0;
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
                int firstEvent = events.events.size();
                // markUp the moment the drain's CAS is visible, while the drain still queues the idle connections.
                // The drain may also have ended first (its origin emptied by other paths): the UP origin must then
                // be left with nothing CLOSING all the same, so markUp anyway. The wait is bounded and gives up on
                // interrupt, so a round that goes wrong fails with its cause instead of hanging the executor.
                Future<OriginState> up = threads.submit(() -> {
                    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                    OriginState seen;
                    while ((seen = oa.state()) == OriginState.UP) {
                        if (System.nanoTime() - deadline > 0 || Thread.currentThread().isInterrupted()) {
                            throw new AssertionError("origin a never left UP after drain(): "
                                    + pool.snapshot().summary());
                        }
                        Thread.onSpinWait();
                    }
                    pool.operations().markUp("a");
                    return seen;
                });
                pool.operations().drain("a", Duration.ofMinutes(10));
                int r = round;
                OriginState seen;
                try {
                    seen = up.get(60, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    throw new AssertionError("round " + r + ": markUp task stuck; " + pool.snapshot().summary()
                            + "; events on a: " + eventsOn("a", events, firstEvent));
                }
                raced += seen == OriginState.DRAINING ? 1 : 0;
                assertThat(oa.state()).as("round %d (markUp saw %s); events on a: %s", r, seen,
                        eventsOn("a", events, firstEvent)).isEqualTo(OriginState.UP);
                Pools.await(pool, s -> s.origin("a").orElseThrow().closing() == 0,
                        "no connection of the UP origin a left CLOSING (round " + r + ", markUp saw " + seen
                                + "; events on a: " + eventsOn("a", events, firstEvent) + ")");
            }
            stop.set(true);
            load.get(10, TimeUnit.SECONDS);
        } finally {
            stop.set(true);
            threads.shutdownNow();
        }
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(borrows.get()).isPositive();
        // The rounds must have raced for the test to find anything: a markUp that only ever came after the drain
        // ended never meets a drain still queueing.
        assertThat(raced).as("rounds whose markUp met the drain still DRAINING").isPositive();
    }

    /** The events on {@code origin} since index {@code from}, for a failing round's message. */
    private static List<String> eventsOn(String origin, RecordedEvents events, int from) {
        // A copy first: the pool keeps recording, and a sublist of a CopyOnWriteArrayList fails once it changes.
        List<PoolEvent> all = List.copyOf(events.events);
        return all.subList(Math.min(from, all.size()), all.size()).stream()
                .filter(e -> origin.equals(e.origin()))
                .map(e -> e.type() + (e.reason() != null ? " " + e.reason() : "")
                        + (e.detail() != null ? " (" + e.detail() + ")" : ""))
                .toList();
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
