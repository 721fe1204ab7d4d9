package dev.slotpool.pool;

import dev.slotpool.SlotState;
import dev.slotpool.testsupport.StubDatabase;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The quiet end of a wait, over and over (docs/reliability.md, "Pool-level model check"): a one-connection pool,
 * its holder in its turn (it got the connection from the queue), two threads queued behind it. The holder
 * interrupts the first waiter, waits a seeded 10–30 µs and returns the connection; nobody else borrows. So the
 * return's signal to the head meets the head leaving, and the second waiter is the only one left to take the
 * connection: it must get it at once. A waiter still parked 1.2 s later beside the AVAILABLE connection is a lost
 * wake-up (it would park its whole borrow timeout). The thread that got the connection holds it for the next round.
 */
final class WakeUpRounds {

    private static final long STUCK_NANOS = TimeUnit.MILLISECONDS.toNanos(1_200);

    private final Random rnd;
    private final StubDatabase db = StubDatabase.reset("model-wakeup");
    private final ConnectionPool pool;
    /** Three fixed threads: a turn belongs to a thread. */
    private final ExecutorService[] actors = new ExecutorService[3];
    private final Thread[] threads = new Thread[3];
    private final List<String> violations = new ArrayList<>();

    WakeUpRounds(long seed) {
        this.rnd = new Random(seed);
        this.pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1)
                .borrowTimeout(Duration.ofSeconds(3))
                // The longest turnDuration the pool allows, so a thread the queue served is still in its turn when it
                // returns the connection: its return then makes the connection AVAILABLE and signals the head,
                // rather than handing it off.
                .turnDuration(Duration.ofSeconds(1))
                .config());
        for (int i = 0; i < actors.length; i++) {
            int n = i;
            actors[i] = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "model-wakeup-" + n);
                t.setDaemon(true);
                threads[n] = t;
                return t;
            });
        }
    }

    /** Runs {@code rounds} rounds; returns what broke (empty: nothing). */
    List<String> run(int rounds) throws Exception {
        try {
            // The first holder gets the connection from the queue too, so it starts in its turn.
            Connection seedHolder = pool.borrow();
            Future<Connection> first = actors[0].submit(this::borrow);
            awaitWaiting(1);
            seedHolder.close();
            Connection held = first.get(10, TimeUnit.SECONDS);
            int holder = 0;
            for (int r = 0; r < rounds && violations.isEmpty(); r++) {
                int w1 = (holder + 1) % 3;
                int w2 = (holder + 2) % 3;
                Future<Connection> f1 = actors[w1].submit(this::borrow);
                awaitWaiting(1);
                Future<Connection> f2 = actors[w2].submit(this::borrow);
                awaitWaiting(2);
                LockSupport.parkNanos(50_000);
                Connection c = held;
                Thread head = threads[w1];
                long delay = 10_000 + rnd.nextInt(20_000);
                actors[holder].submit(() -> {
                    head.interrupt();
                    long until = System.nanoTime() + delay;
                    while (System.nanoTime() - until < 0) {
                        Thread.onSpinWait();
                    }
                    c.close();
                    return null;
                }).get(10, TimeUnit.SECONDS);
                AtomicReference<Connection> got = new AtomicReference<>();
                int next = served(f1, f2, w1, w2, got);
                if (next < 0) {
                    violations.add("in round " + (r + 1) + " of " + rounds);
                    break;
                }
                held = got.get();
                holder = next;
            }
            if (held != null && violations.isEmpty()) {
                held.close();
            }
        } finally {
            for (ExecutorService a : actors) {
                a.shutdownNow();
            }
            pool.close();
        }
        if (violations.isEmpty() && db.live() != 0) {
            violations.add("S2 after close(): " + db.live() + " physical connections still open");
        }
        return violations;
    }

    /** Which waiter got the connection (its future's value in {@code got}); -1 after a violation. */
    private int served(Future<Connection> f1, Future<Connection> f2, int w1, int w2, AtomicReference<Connection> got)
            throws InterruptedException, ExecutionException {
        long start = System.nanoTime();
        while (true) {
            if (f2.isDone()) {
                Connection c = f2.get();
                Connection other = getQuietly(f1);
                if (c != null && other != null) {
                    violations.add("S1: both waiters got the one connection");
                    return -1;
                }
                got.set(c != null ? c : other);
                return c != null ? w2 : w1;
            }
            if (f1.isDone() && f1.get() != null) {
                // The head got it before the interrupt landed: the second waiter, which waits for the next
                // return, is sent away the same way.
                got.set(f1.get());
                threads[w2].interrupt();
                awaitGone(f2);
                return w1;
            }
            if (System.nanoTime() - start > STUCK_NANOS) {
                if (pool.table.count(SlotState.AVAILABLE) > 0) {
                    violations.add("lost wake-up: the head left as the connection came back, and the next waiter "
                            + "stayed parked " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
                            + " ms beside it (AVAILABLE): " + pool.snapshot().summary());
                } else {
                    violations.add("no waiter served 1.2 s after the return: " + pool.snapshot().summary());
                }
                return -1;
            }
            LockSupport.parkNanos(20_000);
        }
    }

    private static Connection getQuietly(Future<Connection> f) {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException | TimeoutException e) {
            return null;
        }
    }

    private void awaitGone(Future<Connection> f) {
        Connection c = getQuietly(f);
        if (c != null) {
            violations.add("S1: a cancelled waiter also got the connection");
        }
    }

    /** A borrow on this actor's thread: the connection, or null if the wait ended otherwise (the interrupt). */
    private Connection borrow() {
        Thread.interrupted();
        try {
            return pool.borrow();
        } catch (SQLException e) {
            return null;
        }
    }

    private void awaitWaiting(int n) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.table.waiting() < n) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("never " + n + " waiting: " + pool.snapshot().summary());
            }
            Thread.onSpinWait();
        }
    }
}
