package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolConfig;
import dev.slotpool.SlotState;
import dev.slotpool.Ticker;
import dev.slotpool.table.Parking;
import dev.slotpool.table.SlotTable;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The one timer thread (docs/architecture.md, "Housekeeping"): every {@code housekeepingPeriod} it visits the
 * table once and closes idle connections above minSize, retires connections past their lifetime, validates idle
 * ones (keepalive), reports connections held past the leak detection threshold, takes back abandoned and
 * over-time-to-live connections, closes connections of origins that are not UP, and advances drains and
 * rebalances. Tests call {@link #pass()} directly with a manual ticker.
 */
final class Housekeeper {

    private final String poolName;
    private final PoolThreads threads;
    private final Ticker ticker;
    private final int minSize;
    private final Origins origins;
    private final SlotTable<PooledConnection> table;
    private final Capacity capacity;
    private final Closing closing;
    private final PacedDrains drains;
    private final OriginOperations operations;
    private final FailureDetector detector;
    private final Validation validation;
    private final Runnable wakeCreators;
    private final BooleanSupplier shutdown;
    private final long periodNanos;
    private final long inactiveNanos;
    private final long abandonedNanos;
    private final long ttlNanos;
    private final long keepaliveNanos;
    private final LeakWarnings leaks;
    /** A discovered origin with no connection this long is forgotten: inactiveTimeout, or 10 min when that is off. */
    private final long forgetNanos;
    private static final long FORGET_DEFAULT_NANOS = TimeUnit.MINUTES.toNanos(10);
    private Thread thread;
    private volatile boolean stopped;

    Housekeeper(PoolConfig c, Origins origins, SlotTable<PooledConnection> table, Capacity capacity, Closing closing,
                PacedDrains drains, OriginOperations operations, FailureDetector detector, Validation validation,
                Events events, Runnable wakeCreators, BooleanSupplier shutdown) {
        this.poolName = c.name();
        this.threads = new PoolThreads(c);
        this.ticker = c.ticker();
        this.minSize = c.minSize();
        this.origins = origins;
        this.table = table;
        this.capacity = capacity;
        this.closing = closing;
        this.drains = drains;
        this.operations = operations;
        this.detector = detector;
        this.validation = validation;
        this.wakeCreators = wakeCreators;
        this.shutdown = shutdown;
        this.periodNanos = c.housekeepingPeriod().toNanos();
        this.inactiveNanos = c.inactiveTimeout().toNanos();
        this.abandonedNanos = c.abandonedTimeout().toNanos();
        this.ttlNanos = c.timeToLive().toNanos();
        this.keepaliveNanos = c.keepaliveInterval().toNanos();
        this.leaks = new LeakWarnings(c.leakDetectionThreshold(), events);
        this.forgetNanos = inactiveNanos > 0 ? inactiveNanos : FORGET_DEFAULT_NANOS;
    }

    void start() {
        thread = threads.newThread(this::run, "housekeeper");
        thread.start();
    }

    void stop() {
        stopped = true;
        Parking.unpark(thread);
    }

    /** An operation scheduled work before the next visit (a paced drain, an abort deadline): look again. */
    void wake() {
        Parking.unpark(thread);
    }

    /**
     * Waits for the thread until {@code deadline} (System.nanoTime), then interrupts it. Its only driver calls
     * are keepalive validations (closes go to the {@link Closer}); one that outlasts this closes its connection
     * when it ends ({@link #keepalive}).
     */
    void join(long deadline) {
        try {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (thread.isAlive()) {
            thread.interrupt();
        }
    }

    /**
     * Visits every period; between visits it sleeps until the next due drain close or abort deadline
     * ({@link PacedDrains#nextDue}) or the next thing the failure detector has to look at
     * ({@link FailureDetector#nextDue}), so a drain's pace, its deadline and detection do not depend on the period.
     * It survives anything a driver throws (an {@code Error} from a close or a validation included): the pool's
     * timers must not stop because one connection misbehaved. A failure that repeats (a probe thread that cannot
     * start while its origin stays due) is tried again after a back-off (50 ms doubling to creationBackoffMax; a
     * wake cuts it short), not in a loop.
     */
    private void run() {
        long next = System.nanoTime() + periodNanos;
        long dueAt = ticker.nanoTime() + OriginStatus.NEVER;
        int failedInARow = 0;
        while (!stopped) {
            try {
                long now = ticker.nanoTime();
                if (now - dueAt >= 0) {
                    operations.dueWork(now);
                }
                detector.check(now);
                long wait = next - System.nanoTime();
                if (wait <= 0) {
                    next += periodNanos;
                    pass();
                    continue;
                }
                dueAt = Math.min(drains.nextDue(now), detector.nextDue(now));
                failedInARow = 0;
                Parking.park(this, Math.max(0, Math.min(wait, dueAt - now)));
            } catch (Throwable e) {
                failedInARow++;
                System.getLogger("dev.slotpool").log(failedInARow == 1 ? System.Logger.Level.ERROR
                        : System.Logger.Level.DEBUG, "[" + poolName + "] housekeeping failed", e);
                Parking.park(this, detector.backoffNanos(failedInARow));
            }
        }
    }

    /** One visit of the table. */
    void pass() {
        if (shutdown.getAsBoolean()) {
            return;
        }
        long now = ticker.nanoTime();
        int[] closableIdle = {capacity.occupied() - minSize};
        table.visit((state, e) -> {
            if (state == SlotState.AVAILABLE) {
                closableIdle[0] -= visitIdle(e, now, closableIdle[0]) ? 1 : 0;
            } else if (state == SlotState.BORROWED && e.lent()) {
                visitBorrowed(e, now);
            }
            return true;
        });
        origins.forgetEmpty(now, forgetNanos);
        origins.splitGroupWeights();
        operations.housekeep(now);
        if (capacity.occupied() < minSize) {
            wakeCreators.run();
        }
    }

    /** Returns true if it closed the connection for inactivity (so the count above min shrinks). */
    private boolean visitIdle(PooledConnection e, long now, int closableIdle) {
        if (!e.origin.isUp()) {
            closing.closeIfIdle(e, CloseReason.ORIGIN_NOT_UP);
        } else if (now - e.retireAt >= 0) {
            closing.closeIfIdle(e, CloseReason.MAX_LIFETIME);
        } else if (inactiveNanos > 0 && closableIdle > 0 && now - e.returnedAt >= inactiveNanos) {
            return closing.closeIfIdle(e, CloseReason.INACTIVE);
        } else if (keepaliveNanos > 0 && now - Math.max(e.returnedAt, e.lastValidatedAt) >= keepaliveNanos) {
            keepalive(e);
        }
        return false;
    }

    private void visitBorrowed(PooledConnection e, long now) {
        // The borrow judged, read before the fields it is judged by: each reclaim below names it, so one that
        // ended meanwhile takes nothing from the connection's next holder.
        long stamp = e.stamp();
        if (!PooledConnection.isLent(stamp)) {
            return;
        }
        leaks.visit(e, stamp, now);
        // Every visit notices the holder's calls since the last one, for the abandoned timer and the failure
        // detector's silence check alike (their precision is this period).
        long lastActive = e.lastActivity(now);
        if (abandonedNanos > 0 && now - lastActive >= abandonedNanos) {
            closing.reclaim(e, stamp, CloseReason.ABANDONED);
        } else if (ttlNanos > 0 && now - e.borrowedAt >= ttlNanos) {
            closing.reclaim(e, stamp, CloseReason.TIME_TO_LIVE);
        } else if (!e.origin.isUp()) {
            if (now - e.origin.status().abortBorrowedAt() >= 0) {
                closing.reclaim(e, stamp, CloseReason.ORIGIN_NOT_UP);
            } else {
                e.retire(CloseReason.ORIGIN_NOT_UP);
            }
        } else if (now - e.retireAt >= 0) {
            e.retire(CloseReason.MAX_LIFETIME);
        }
    }

    /** Validates an idle connection if it wins it from borrowers; a good one goes back (to a waiter first). */
    private void keepalive(PooledConnection e) {
        if (!table.tryBorrow(e.slot, e)) {
            return;
        }
        if (validation.validate(e, Long.MAX_VALUE)) {
            e.lastValidatedAt = ticker.nanoTime();
            table.release(e.slot);
            // A validation can outlast close() (a driver call the pool's join does not wait for): close() sets the
            // flag, then sweeps; this released, then reads the flag. One of the two closes it.
            if (shutdown.getAsBoolean()) {
                closing.closeIfIdle(e, CloseReason.POOL_CLOSED);
            }
        } else {
            closing.closeOwned(e, CloseReason.VALIDATION_FAILED, false);
        }
    }
}
