package dev.slotpool.pool;

import dev.slotpool.LimitSnapshot;
import dev.slotpool.OriginConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.Sizing;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntPredicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Adaptive sizing on the stub driver (docs/architecture.md, "Adaptive sizing"): the pool's side of the limit. */
class AdaptiveSizingTest {

    /** Borrowers that each hold their connection for what {@code work} does, until stopped. */
    private static final class Load implements AutoCloseable {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong served = new AtomicLong();
        final List<Throwable> failures = new CopyOnWriteArrayList<>();
        final List<Thread> threads = new ArrayList<>();

        Load(ConnectionPool pool, int n, Runnable work) {
            for (int i = 0; i < n; i++) {
                Thread t = new Thread(() -> {
                    while (!stop.get()) {
                        try (Connection c = pool.borrow()) {
                            work.run();
                            served.incrementAndGet();
                        } catch (Throwable e) {
                            if (!stop.get()) {
                                failures.add(e);
                            }
                        }
                    }
                }, "load-" + i);
                t.start();
                threads.add(t);
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            for (Thread t : threads) {
                t.join(30_000);
            }
        }
    }

    private static void sleepMillis(long ms) {
        LockSupport.parkNanos(Duration.ofMillis(ms).toNanos());
    }

    private static LimitSnapshot limit(ConnectionPool pool) {
        return pool.limits().get(0);
    }

    /** Waits (20 s at most, a bound for a broken pool) until the first origin's limit satisfies {@code test},
     * checking on the way that it stays within its bounds and that the pool holds no more than the ceiling. */
    private static LimitSnapshot awaitLimit(ConnectionPool pool, IntPredicate test, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            LimitSnapshot l = limit(pool);
            assertThat(l.limit()).isBetween(l.floor(), l.ceiling());
            assertThat(pool.capacity.occupied()).isLessThanOrEqualTo(pool.config.maxSize());
            if (test.test(l.limit())) {
                return l;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what + "; last " + l);
            }
            sleepMillis(20);
        }
    }

    private static ConnectionPool adaptive(StubDatabase db, int min, int max) {
        return new ConnectionPool(Pools.stub(db).minSize(min).maxSize(max).sizing(Sizing.ADAPTIVE)
                .borrowTimeout(Duration.ofSeconds(30)).config());
    }

    @Test
    void aFlatHeldTimeGrowsTheLimitAndEveryBorrowerIsServed() throws Exception {
        ConnectionPool pool = adaptive(StubDatabase.reset("sizing-flat"), 1, 24);
        try {
            assertThat(limit(pool).limit()).isEqualTo(1);
            Load load = new Load(pool, 32, () -> sleepMillis(5));
            LimitSnapshot grown = awaitLimit(pool, l -> l >= 12, "the limit to grow");
            assertThat(grown.reason()).contains("tx/s at");
            assertThat(grown.history()).isNotEmpty();
            load.close();
            assertThat(load.failures).isEmpty();
            assertThat(pool.snapshot().waiting()).isZero();
            assertThat(pool.capacity.occupied()).isLessThanOrEqualTo(24);
        } finally {
            pool.close();
        }
    }

    @Test
    void aHotLockKeepsTheLimitLow() throws Exception {
        ConnectionPool pool = adaptive(StubDatabase.reset("sizing-lock"), 1, 32);
        ReentrantLock hotRow = new ReentrantLock(true);
        try {
            Load load = new Load(pool, 40, () -> {
                hotRow.lock();
                try {
                    sleepMillis(2);
                } finally {
                    hotRow.unlock();
                }
            });
            // Every holder beyond the first waits for the lock: the held time rises in step with the limit.
            Pools.await(pool, s -> load.served.get() >= 500, "500 transactions");
            long end = System.nanoTime() + Duration.ofSeconds(4).toNanos();
            int highest = 0;
            while (System.nanoTime() - end < 0) {
                highest = Math.max(highest, awaitLimit(pool, l -> true, "a reading").limit());
                sleepMillis(20);
            }
            load.close();
            assertThat(highest).isLessThanOrEqualTo(8);
            assertThat(load.failures).isEmpty();
            assertThat(pool.snapshot().waiting()).isZero();
        } finally {
            pool.close();
        }
    }

    @Test
    void aLowerLimitHoldsTheSurplusBackOpenAndAHigherOneLendsItAgainWithoutOpeningAny() throws Exception {
        List<PoolEvent> churn = new CopyOnWriteArrayList<>();
        PoolListener listener = new PoolListener() {
            @Override
            public void onEvent(PoolEvent e) {
                if (e.type() == PoolEvent.Type.CREATED || e.type() == PoolEvent.Type.CLOSED) {
                    churn.add(e);
                }
            }
        };
        ConnectionPool pool = new ConnectionPool(Pools.stub(StubDatabase.reset("sizing-surplus")).minSize(1)
                .maxSize(32).sizing(Sizing.ADAPTIVE).listener(listener).borrowTimeout(Duration.ofSeconds(30))
                .config());
        try {
            pool.pinLimit("default", 16);
            Load load = new Load(pool, 24, () -> sleepMillis(5));
            Pools.await(pool, s -> pool.capacity.occupied() == 16 && s.borrowed() == 16, "16 lent for a limit of 16");
            pool.pinLimit("default", 4);
            Pools.await(pool, s -> limit(pool).heldBack() == 12, "12 held back");
            churn.clear();
            // Held back, not closed: the 16 sessions stay open while no more than 4 are ever lent.
            long end = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            while (System.nanoTime() - end < 0) {
                assertThat(pool.snapshot().borrowed()).isLessThanOrEqualTo(4);
                assertThat(pool.capacity.occupied()).isEqualTo(16);
                sleepMillis(10);
            }
            pool.pinLimit("default", 16);
            Pools.await(pool, s -> limit(pool).heldBack() == 0 && s.borrowed() == 16, "the 16 lent again");
            load.close();
            assertThat(load.failures).isEmpty();
            assertThat(churn).as("connections opened or closed while the limit fell and rose").isEmpty();
            assertThat(pool.snapshot().waiting()).isZero();
        } finally {
            pool.close();
        }
    }

    @Test
    void waitersBeyondTheLimitAreServedInArrivalOrder() throws Exception {
        ConnectionPool pool = adaptive(StubDatabase.reset("sizing-fifo"), 1, 4);
        try {
            pool.pinLimit("default", 1);
            Pools.await(pool, s -> s.available() == 1, "one idle connection");
            Connection held = pool.borrow();
            List<String> order = new CopyOnWriteArrayList<>();
            List<Thread> waiters = new ArrayList<>();
            for (String name : List.of("A", "B", "C", "D")) {
                Thread t = new Thread(() -> {
                    try (Connection c = pool.borrow()) {
                        order.add(name);
                        sleepMillis(2);
                    } catch (Exception e) {
                        order.add(name + " failed: " + e);
                    }
                }, name);
                t.start();
                waiters.add(t);
                int expected = waiters.size();
                Pools.await(pool, s -> s.waiting() == expected, expected + " waiters");
            }
            // The pool has room (max 4) but the limit is 1: nobody opens a second connection.
            sleepMillis(600);
            assertThat(pool.capacity.occupied()).isEqualTo(1);
            held.close();
            for (Thread t : waiters) {
                t.join(20_000);
                assertThat(t.isAlive()).isFalse();
            }
            assertThat(order).containsExactly("A", "B", "C", "D");
            assertThat(pool.snapshot().waiting()).isZero();
        } finally {
            pool.close();
        }
    }

    @Test
    void aStalledHolderAndADownOriginDoNotCollapseTheLimit() throws Exception {
        StubDatabase db = StubDatabase.reset("sizing-faults");
        ConnectionPool pool = adaptive(db, 1, 16);
        try {
            Load load = new Load(pool, 20, () -> sleepMillis(5));
            awaitLimit(pool, l -> l >= 8, "the limit to grow");
            // A holder stalls for 3 s (a long transaction, a lock wait), then comes back.
            Thread stalled = new Thread(() -> {
                try (Connection c = pool.borrow()) {
                    sleepMillis(3_000);
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            stalled.start();
            stalled.join(30_000);
            awaitLimit(pool, l -> l >= 8, "the limit after the stall");
            load.close();

            // DOWN: the limit holds, whatever the failed connects; back UP it is where it was.
            int before = limit(pool).limit();
            db.down(true);
            pool.operations().markDown("default");
            sleepMillis(1_500);
            assertThat(limit(pool).limit()).isEqualTo(before);
            assertThat(limit(pool).reason()).contains("DOWN");
            db.down(false);
            pool.operations().markUp("default");
            Load again = new Load(pool, 20, () -> sleepMillis(5));
            awaitLimit(pool, l -> l >= 8, "the limit back UP");
            again.close();
            assertThat(again.failures).isEmpty();
        } finally {
            pool.close();
        }
    }

    @Test
    void aPinIsAppliedAndReportedAndBadPinsAreRefused() throws Exception {
        List<PoolEvent> events = new CopyOnWriteArrayList<>();
        PoolListener listener = new PoolListener() {
            @Override
            public void onEvent(PoolEvent e) {
                events.add(e);
            }
        };
        ConnectionPool pool = new ConnectionPool(Pools.stub(StubDatabase.reset("sizing-pin")).minSize(1).maxSize(10)
                .sizing(Sizing.ADAPTIVE).listener(listener).config());
        try {
            pool.pinLimit("default", 6);
            LimitSnapshot pinned = awaitLimit(pool, l -> l == 6, "the pin applied");
            assertThat(pinned.pinned()).isEqualTo(6);
            Pools.await(pool, s -> limit(pool).reason().contains("pinned at 6"), "the pin's reason");
            assertThat(events).anyMatch(e -> e.type() == PoolEvent.Type.LIMIT && "default".equals(e.origin())
                    && e.detail().startsWith("limit 1 -> 6: pinned at 6"));
            assertThatThrownBy(() -> pool.pinLimit("default", 11)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("between 1 and 10");
            assertThatThrownBy(() -> pool.pinLimit("nowhere", 2)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'nowhere'");
            pool.releaseLimit("default");
            Pools.await(pool, s -> limit(pool).pinned() == 0 && !limit(pool).reason().contains("pinned"),
                    "the pin released");
            // Released, the controller searches again from the step at or below the pin (steps 1, 2, 4, 8, 10).
            assertThat(limit(pool).limit()).isEqualTo(4);
            assertThat(events).anyMatch(e -> e.type() == PoolEvent.Type.LIMIT
                    && e.detail().equals("limit 6 -> 4: the pin released: searching again from 4"));
        } finally {
            pool.close();
        }
        ConnectionPool fixed = new ConnectionPool(Pools.stub(StubDatabase.reset("sizing-fixed")).minSize(1)
                .maxSize(4).config());
        try {
            assertThat(fixed.limits()).isEmpty();
            assertThatThrownBy(() -> fixed.pinLimit("default", 2)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("sizing FIXED");
        } finally {
            fixed.close();
        }
    }

    @Test
    void heldBackConnectionsGiveWayToAnOriginTheFleetBudgetStops() throws Exception {
        StubDatabase a = StubDatabase.reset("sizing-way-a");
        StubDatabase b = StubDatabase.reset("sizing-way-b");
        ConnectionPool pool = new ConnectionPool(Pools.stub(a).url(null).minSize(2).maxSize(32)
                .origin(OriginConfig.named("a").url(a.url()).weight(1))
                .origin(OriginConfig.named("b").url(b.url()).weight(1))
                .sizing(Sizing.ADAPTIVE).fleetBudget(8).borrowTimeout(Duration.ofSeconds(30)).config());
        AtomicBoolean watching = new AtomicBoolean(true);
        AtomicInteger most = new AtomicInteger();
        Thread watcher = new Thread(() -> {
            while (watching.get()) {
                most.accumulateAndGet((int) (a.live() + b.live()), Math::max);
                sleepMillis(2);
            }
        });
        watcher.start();
        try {
            pool.pinLimit("a", 7);
            pool.pinLimit("b", 1);
            Load load = new Load(pool, 24, () -> sleepMillis(5));
            Pools.await(pool, s -> s.origin("a").orElseThrow().total() == 7, "7 connections to a");
            // b's pin above what the budget leaves it: capped, and a's held-back connections closed to make room.
            pool.pinLimit("a", 1);
            pool.pinLimit("b", 7);
            Pools.await(pool, s -> s.origin("b").orElseThrow().total() == 7 && limitOf(pool, "b") == 7,
                    "7 connections to b");
            load.close();
            assertThat(load.failures).isEmpty();
            assertThat(most.get()).as("sessions open at once on both servers").isLessThanOrEqualTo(8);
        } finally {
            watching.set(false);
            watcher.join();
            pool.close();
        }
    }

    private static int limitOf(ConnectionPool pool, String origin) {
        return pool.limits().stream().filter(l -> l.origin().equals(origin)).findFirst().orElseThrow().limit();
    }

    @Test
    void theFleetBudgetCapsTheSumOfTheLimits() throws Exception {
        StubDatabase a = StubDatabase.reset("sizing-a");
        StubDatabase b = StubDatabase.reset("sizing-b");
        ConnectionPool pool = new ConnectionPool(Pools.stub(a).url(null).minSize(2).maxSize(32)
                .origin(OriginConfig.named("a").url(a.url()).weight(1))
                .origin(OriginConfig.named("b").url(b.url()).weight(1))
                .sizing(Sizing.ADAPTIVE).fleetBudget(8).borrowTimeout(Duration.ofSeconds(30)).config());
        AtomicInteger most = new AtomicInteger();
        try {
            Load load = new Load(pool, 24, () -> sleepMillis(5));
            long end = System.nanoTime() + Duration.ofSeconds(6).toNanos();
            int sumSeen = 0;
            while (System.nanoTime() - end < 0) {
                int sum = pool.limits().stream().mapToInt(LimitSnapshot::limit).sum();
                sumSeen = Math.max(sumSeen, sum);
                assertThat(sum).isLessThanOrEqualTo(8);
                most.accumulateAndGet(pool.capacity.occupied(), Math::max);
                sleepMillis(10);
            }
            load.close();
            assertThat(load.failures).isEmpty();
            assertThat(sumSeen).isEqualTo(8);
            // The pool's connections stay within the budget too (held, or being opened).
            assertThat(most.get()).isLessThanOrEqualTo(8);
            assertThat(pool.limits()).allMatch(l -> l.limit() >= 1);
        } finally {
            pool.close();
        }
    }
}
