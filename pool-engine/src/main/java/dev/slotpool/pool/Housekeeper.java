package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolConfig;
import dev.slotpool.SlotState;
import dev.slotpool.Ticker;
import dev.slotpool.failover.DetectionRounds;
import dev.slotpool.failover.Failover;
import dev.slotpool.failover.FailureDetector;
import dev.slotpool.failover.OriginOperations;
import dev.slotpool.failover.PacedDrains;
import dev.slotpool.kernel.Events;
import dev.slotpool.kernel.Loggers;
import dev.slotpool.kernel.PoolLifecycle;
import dev.slotpool.kernel.PoolThreads;
import dev.slotpool.lending.Keepalive;
import dev.slotpool.lending.KnownOutage;
import dev.slotpool.lending.LeakWarnings;
import dev.slotpool.lending.Validation;
import dev.slotpool.sizing.Sizer;
import dev.slotpool.slots.Capacity;
import dev.slotpool.slots.Closer;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.LentBorrows;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.slots.Signals;
import dev.slotpool.table.Parking;
import dev.slotpool.table.SlotTable;

import java.util.ArrayList;
import java.util.List;

/**
 * The one timer thread (docs/architecture.md, "Housekeeping"): every {@code housekeepingPeriod} it visits the
 * table once and closes idle connections above minSize, retires connections past their lifetime, hands idle ones
 * due for a validation to the {@link Keepalive} thread (no driver call holds the timers), reports connections held
 * past the leak detection threshold, takes back abandoned and over-time-to-live connections, closes connections of
 * origins that are not UP (on the drain's pace when their origin is on a paced drain), and advances drains and
 * rebalances. Between visits it ticks adaptive sizing's {@link Sizer}. Tests call {@link #pass()} directly with a
 * manual ticker.
 */
final class Housekeeper {

    private final String poolName;
    private final PoolThreads threads;
    private final Ticker ticker;
    private final int minSize;
    private final SlotTable<PooledConnection> table;
    private final Capacity capacity;
    private final Closing closing;
    private final PacedDrains drains;
    private final OriginOperations operations;
    private final DetectionRounds detection;
    /** Null when keepaliveInterval is 0. */
    private final Keepalive keepalive;
    private final Signals signals;
    private final PoolLifecycle lifecycle;
    private final long periodNanos;
    private final long inactiveNanos;
    private final long abandonedNanos;
    private final long ttlNanos;
    private final LeakWarnings leaks;
    private final KnownOutage outage;
    /** Adaptive sizing's ticks; null under FIXED sizing. */
    private final Sizer sizer;
    private Thread thread;

    /** Builds the keepalive (when keepaliveInterval is above 0) and the leak warnings it runs; {@code sizer}: null
     * under FIXED sizing. */
    Housekeeper(PoolConfig c, SlotTable<PooledConnection> table, Capacity capacity, Closing closing,
                Failover failover, KnownOutage outage, Sizer sizer, Events events, Signals signals,
                PoolLifecycle lifecycle) {
        this.poolName = c.name();
        this.threads = new PoolThreads(c);
        this.ticker = c.ticker();
        this.minSize = c.minSize();
        this.table = table;
        this.capacity = capacity;
        this.closing = closing;
        this.drains = failover.drains();
        this.operations = failover.operations();
        this.detection = failover.detectionRounds();
        this.signals = signals;
        this.lifecycle = lifecycle;
        this.periodNanos = c.housekeepingPeriod().toNanos();
        this.inactiveNanos = c.inactiveTimeout().toNanos();
        this.abandonedNanos = c.abandonedTimeout().toNanos();
        this.ttlNanos = c.timeToLive().toNanos();
        this.keepalive = c.keepaliveInterval().toNanos() > 0
                ? new Keepalive(c, table, closing, drains, new Validation(c, failover.detector()), lifecycle) : null;
        this.leaks = new LeakWarnings(c.leakDetectionThreshold(), events, ticker.nanoTime());
        this.outage = outage;
        this.sizer = sizer;
    }

    void start() {
        thread = threads.newThread(this::run, "housekeeper");
        thread.start();
        if (keepalive != null) {
            keepalive.start();
        }
    }

    /** Wakes the thread and the keepalive's to end: the pool is closed ({@link PoolLifecycle}), which their loops
     * read. */
    void stop() {
        Parking.unpark(thread);
        if (keepalive != null) {
            keepalive.stop();
        }
    }

    /** Whether no keepalive batch is under way (tests wait for it after a {@link #pass()}). */
    boolean keepaliveIdle() {
        return keepalive == null || keepalive.idle();
    }

    /** An operation scheduled work before the next visit (a paced drain, an abort deadline): look again. */
    void wake() {
        Parking.unpark(thread);
    }

    /**
     * Waits for the thread and the keepalive's until {@code deadline} (System.nanoTime), then interrupts them. The
     * housekeeper makes no driver call (closes go to the {@link Closer}, validations to the {@link Keepalive}); a
     * validation that outlasts this closes its connection when it ends.
     */
    void join(long deadline) {
        if (!PoolThreads.joinUntil(thread, deadline)) {
            return;
        }
        if (thread.isAlive()) {
            thread.interrupt();
        }
        if (keepalive != null) {
            keepalive.join(deadline);
        }
    }

    /**
     * Visits every period; between visits it sleeps until the next due drain close or abort deadline
     * ({@link OriginOperations#nextDue}), the next thing the failure detector has to look at
     * ({@link FailureDetector#nextDue}), the next look for leaks ({@link LeakWarnings#nextDue}) or the next sizing
     * tick ({@link Sizer#nextDue}), so a drain's pace, its deadline, detection, leak warnings and sizing do not
     * depend on the period. At every wake, a known outage
     * turns the waiting borrowers away ({@link KnownOutage}).
     * It survives anything a visit throws (an {@code Error} included): the pool's timers must not stop because one
     * connection or listener misbehaved. A failure that repeats (a probe thread that cannot start while its origin
     * stays due) is tried again after a back-off (50 ms doubling to creationBackoffMax; a wake cuts it short), not
     * in a loop.
     */
    private void run() {
        long next = System.nanoTime() + periodNanos;
        int failedInARow = 0;
        while (!lifecycle.closed()) {
            try {
                long now = ticker.nanoTime();
                // At every wake, not only at the instant nextDue named: a deadline set while this thread was
                // parked may have passed before it runs again (a markDown's grace on a loaded machine), and
                // nextDue names only instants still ahead, so gating on it lost such a deadline for good.
                operations.dueWork(now);
                detection.check(now);
                // The detector wakes this thread when it marks an origin DOWN: borrowers waiting since before the
                // last one went are told at once (docs/architecture.md, "Borrow", step 4).
                if (outage.known()) {
                    table.turnAwayWaiters();
                }
                if (leaks.due(now)) {
                    lookForLeaks(now);
                }
                if (sizer != null) {
                    sizer.tickIfDue(now);
                }
                long wait = next - System.nanoTime();
                if (wait <= 0) {
                    next += periodNanos;
                    pass();
                    continue;
                }
                long dueAt = Math.min(Math.min(operations.nextDue(now), detection.nextDue(now)), leaks.nextDue(now));
                if (sizer != null) {
                    dueAt = Math.min(dueAt, sizer.nextDue());
                }
                failedInARow = 0;
                Parking.park(this, Math.max(0, Math.min(wait, dueAt - now)));
            } catch (Throwable e) {
                failedInARow++;
                Loggers.POOL.log(failedInARow == 1 ? System.Logger.Level.ERROR
                        : System.Logger.Level.DEBUG, "[" + poolName + "] housekeeping failed", e);
                Parking.park(this, threads.backoffNanos(failedInARow));
            }
        }
    }

    /** A look at the borrowed connections for leaks only, between visits ({@link LeakWarnings#nextDue}). */
    void lookForLeaks(long now) {
        leaks.looking(now);
        table.visit((state, e) -> {
            long stamp = LentBorrows.stamp(state, e);
            if (stamp != LentBorrows.NONE) {
                leaks.visit(e, stamp, now);
            }
            return true;
        });
    }

    /** One visit of the table. */
    void pass() {
        if (lifecycle.closed()) {
            return;
        }
        long now = ticker.nanoTime();
        int[] closableIdle = {capacity.occupied() - minSize};
        // Connections due for a keepalive, when the keepalive thread is free to take them.
        List<PooledConnection> due = keepalive != null && keepalive.idle() ? new ArrayList<>() : null;
        table.visit((state, e) -> {
            if (state == SlotState.AVAILABLE) {
                closableIdle[0] -= visitIdle(e, now, closableIdle[0], due) ? 1 : 0;
            } else {
                long stamp = LentBorrows.stamp(state, e);
                if (stamp != LentBorrows.NONE) {
                    visitLent(e, stamp, now);
                }
            }
            return true;
        });
        if (due != null && !due.isEmpty()) {
            keepalive.submit(due);
        }
        operations.housekeep(now);
        if (capacity.occupied() < minSize) {
            signals.creationWanted();
        }
    }

    /** Returns true if it closed the connection for inactivity (so the count above min shrinks); adds it to
     * {@code due} (when not null) if a keepalive is due. */
    private boolean visitIdle(PooledConnection e, long now, int closableIdle, List<PooledConnection> due) {
        if (!e.origin.isUp()) {
            drains.closeIfIdle(e);
        } else if (now - e.retireAt >= 0) {
            closing.closeIfIdle(e, CloseReason.MAX_LIFETIME);
        } else if (inactiveNanos > 0 && closableIdle > 0 && now - e.returnedAt >= inactiveNanos) {
            return closing.closeIfIdle(e, CloseReason.INACTIVE);
        } else if (due != null && keepalive.due(e, now)) {
            due.add(e);
        }
        return false;
    }

    /** A borrow a user holds, named by {@code stamp} (read before the fields it is judged by): each reclaim below
     * names it, so one that ended meanwhile takes nothing from the connection's next holder. */
    private void visitLent(PooledConnection e, long stamp, long now) {
        leaks.visit(e, stamp, now);
        // Every visit notices the holder's calls since the last one, for the abandoned timer and the failure
        // detector's silence check alike (their precision is this period).
        long lastActive = e.lastActivity(stamp, now);
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
}
