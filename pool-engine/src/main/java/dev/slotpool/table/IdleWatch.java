package dev.slotpool.table;

import java.util.Arrays;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The table's one thread that answers for slots a thread in its turn makes available while others wait: such a
 * return signals nobody (a wake per hand-off otherwise, one each time the queue gets a new head), so some thread
 * must notice a slot that nobody takes, or waiters would park beside it until their deadlines.
 *
 * <p>While threads wait it looks at the table once per {@code periodNanos} (a turn, at most
 * {@link #LONGEST_PERIOD_NANOS}) and signals the queue's head
 * only for a slot that stayed {@code AVAILABLE} from one look to the next with no return in between: the slot's
 * {@link Slot#timesAvailable()} did not move. Under load a slot is often free for an instant between two borrows of
 * a turn; those are not signalled. A slot left unused is thus signalled within two periods. While nobody waits it
 * parks until the first waiter to enqueue wakes it (Dekker: it sets {@code asleep} and then reads the queue's
 * size; the waiter increments the size and then reads {@code asleep}; one of the two sees the other).
 *
 * <p>It starts with the first waiter, so a pool that never queues has no such thread. If it cannot start (a thread
 * factory that fails, a container's thread limit), in-turn returns signal the head as they would without it
 * ({@link #watching()} stays false), and the starter signals for the slots made available meanwhile.
 */
final class IdleWatch<T> implements Runnable {

    /** The longest period between two looks: a long {@code turnDuration} does not strand a slot for as long. */
    static final long LONGEST_PERIOD_NANOS = 1_000_000;

    private static final int NOT_STARTED = 0;
    private static final int STARTING = 1;
    private static final int WATCHING = 2;
    private static final int FAILED = 3;

    private final SlotTable<T> table;
    private final long periodNanos;
    private final ThreadFactory threads;
    private final AtomicInteger phase = new AtomicInteger(NOT_STARTED);
    private volatile Thread thread;
    /** Set while the watch parks with nobody waiting; a waiter that enqueues then wakes it. */
    private volatile boolean asleep;
    /** The watch thread's own: per slot, its {@link Slot#timesAvailable()} at the last look, or -1 if busy then. */
    private final long[] seen;

    IdleWatch(SlotTable<T> table, long periodNanos, ThreadFactory threads) {
        this.table = table;
        this.periodNanos = periodNanos;
        this.threads = threads;
        this.seen = new long[table.capacity()];
        forget();
    }

    /** Whether the watch thread runs, so a return in a turn may leave a slot available without a signal. Volatile:
     * a returner reads it after its store of AVAILABLE, the Dekker pair with {@link #start()}'s failure path. */
    boolean watching() {
        return phase.get() == WATCHING;
    }

    /**
     * Called by a waiter right after it enqueued: starts the watch the first time, else wakes it if it sleeps.
     * True if it started or woke the watch.
     */
    boolean waiterEnqueued() {
        if (phase.get() == NOT_STARTED && phase.compareAndSet(NOT_STARTED, STARTING)) {
            start();
            return true;
        }
        if (asleep) {
            Parking.unpark(thread);
            return true;
        }
        return false;
    }

    /** Wakes the watch so it sees the table closed. */
    void shutdown() {
        Thread t = thread;
        if (t != null) {
            Parking.unpark(t);
        }
    }

    private void start() {
        boolean started = false;
        try {
            Thread t = threads.newThread(this);
            runOn(t);
            t.start();
            started = true;
        } catch (RuntimeException | OutOfMemoryError e) {
            // A borrow does not fail for it: returns in a turn signal the head again, as without a watch.
        } finally {
            if (!started) {
                phase.set(FAILED);
                // Returns in a turn between the store of WATCHING and this one signalled nobody.
                table.signalIfAvailable();
            }
        }
    }

    /** Makes {@code t} the watch's thread, before it starts (and, for a test, a thread that plays its part). */
    void runOn(Thread t) {
        thread = t;
        phase.set(WATCHING);
    }

    @Override
    public void run() {
        while (!table.isShutdown()) {
            if (sleepWhileNobodyWaits()) {
                continue;
            }
            if (look()) {
                table.signalHead();
            }
            waitOnePeriod();
        }
    }

    /** Parks until a waiter enqueues, if none waits; true if it parked (what it saw of the table is then stale). */
    boolean sleepWhileNobodyWaits() {
        if (table.waiting() > 0) {
            return false;
        }
        if (fallingAsleep()) {
            Parking.park(this, Long.MAX_VALUE);
        }
        asleep = false;
        forget();
        return true;
    }

    /**
     * Marks the watch asleep and tells whether it may park: nobody waits and the table is open. Dekker with
     * {@link #waiterEnqueued()}: a volatile write of {@code asleep}, then a volatile read of the queue's size; the
     * waiter's enqueue writes the size, then reads {@code asleep}.
     */
    boolean fallingAsleep() {
        asleep = true;
        return table.waiting() == 0 && !table.isShutdown();
    }

    /** A whole period, so that two looks with the same count are a period apart (a park may return early). */
    private void waitOnePeriod() {
        long end = System.nanoTime() + periodNanos;
        for (long left = periodNanos; left > 0 && !table.isShutdown(); left = end - System.nanoTime()) {
            Parking.park(this, left);
        }
    }

    /**
     * One look at the table: true if a shared slot has stayed available, with no return, since the last look.
     * Racy reads, benign: the state is read first (volatile), then the count its setter wrote before storing it,
     * so a slot returned in between shows a higher count and is not reported until it sits unused a whole period.
     */
    boolean look() {
        boolean unused = false;
        int n = table.highWater();
        for (int i = 0; i < n; i++) {
            long count = table.availableCount(i);
            if (count >= 0 && count == seen[i]) {
                unused = true;
            }
            seen[i] = count;
        }
        return unused;
    }

    private void forget() {
        Arrays.fill(seen, -1);
    }
}
