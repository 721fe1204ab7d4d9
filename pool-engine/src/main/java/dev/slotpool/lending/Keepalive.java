package dev.slotpool.lending;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolConfig;
import dev.slotpool.Ticker;
import dev.slotpool.failover.PacedDrains;
import dev.slotpool.kernel.Loggers;
import dev.slotpool.kernel.PoolLifecycle;
import dev.slotpool.kernel.PoolThreads;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.table.Parking;
import dev.slotpool.table.SlotTable;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keepalive validations on a pool thread of their own (docs/architecture.md, "Housekeeping"). The
 * {@code Housekeeper} picks the idle connections due for one and hands them over as a batch; this thread validates
 * them one at a time. A validation against a server that stopped answering stays in the driver for up to
 * validationTimeout: on the housekeeper's thread, k such connections froze every other timer (abandoned, leak
 * reports, drain pacing, DOWN deadlines, probes) for k × validationTimeout.
 *
 * <p>One batch at a time: while one runs the housekeeper hands over nothing; the connections stay idle and due, and
 * a visit after the batch ends picks them again. A connection is taken from borrowers only when its turn in the
 * batch comes, so a hung validation holds one connection out of the pool, never the whole batch.
 */
public final class Keepalive {

    private final String poolName;
    private final Ticker ticker;
    private final long intervalNanos;
    private final SlotTable<PooledConnection> table;
    private final Closing closing;
    private final PacedDrains drains;
    private final Validation validation;
    private final PoolLifecycle lifecycle;
    /** The batch under way: null → a list by the housekeeper (CAS), back to null by this thread when it is done. */
    private final AtomicReference<List<PooledConnection>> batch = new AtomicReference<>();
    private final Thread thread;

    /** For a keepaliveInterval above 0 (without one the pool builds none). */
    public Keepalive(PoolConfig config, SlotTable<PooledConnection> table, Closing closing, PacedDrains drains,
              Validation validation, PoolLifecycle lifecycle) {
        this.poolName = config.name();
        this.ticker = config.ticker();
        this.intervalNanos = config.keepaliveInterval().toNanos();
        this.table = table;
        this.closing = closing;
        this.drains = drains;
        this.validation = validation;
        this.lifecycle = lifecycle;
        this.thread = new PoolThreads(config).newThread(this::run, "keepalive");
    }

    public void start() {
        thread.start();
    }

    /** Wakes the thread to end: the pool is closed ({@link PoolLifecycle}), which its loop reads. */
    public void stop() {
        Parking.unpark(thread);
    }

    /** Whether no batch is under way: the housekeeper may hand over the next one. */
    public boolean idle() {
        return batch.get() == null;
    }

    /** Whether a connection is due for a keepalive at {@code now}: neither returned nor validated for the interval. */
    public boolean due(PooledConnection e, long now) {
        return now - Math.max(e.returnedAt, e.lastValidatedAt) >= intervalNanos;
    }

    /**
     * Hands over the connections due for a keepalive. The CAS from null keeps one batch at a time, two visits
     * racing included (a test's pass and the housekeeper's own); the loser's connections are picked again later.
     */
    public void submit(List<PooledConnection> due) {
        if (batch.compareAndSet(null, due)) {
            Parking.unpark(thread);
        }
    }

    /** Waits for the thread until {@code deadline} (System.nanoTime), then interrupts it; a validation that
     * outlasts this closes its connection when it ends ({@link #validate}). */
    public void join(long deadline) {
        if (!PoolThreads.joinUntil(thread, deadline)) {
            return;
        }
        if (thread.isAlive()) {
            thread.interrupt();
        }
    }

    /** Survives anything a driver throws (an {@code Error} included): the next batch must still run. */
    private void run() {
        while (!lifecycle.closed()) {
            List<PooledConnection> due = batch.get();
            if (due == null) {
                Parking.park(this, Long.MAX_VALUE);
                Thread.interrupted(); // a stray interrupt would make every later park return at once
                continue;
            }
            try {
                for (PooledConnection e : due) {
                    if (lifecycle.closed()) {
                        break;
                    }
                    validate(e);
                }
            } catch (Throwable ex) {
                Loggers.POOL.log(System.Logger.Level.ERROR,
                        "[" + poolName + "] keepalive failed", ex);
            } finally {
                batch.set(null); // this thread alone ends a batch
            }
        }
    }

    /** Behind DRCP the validation attached a pooled server (any round trip does): released, so the idle connection
     * holds none (docs/oracle.md, "DRCP"). False if the release failed. */
    private static boolean releasedPooledServer(PooledConnection e) {
        try {
            e.releasePooledServer();
            return true;
        } catch (SQLException | RuntimeException ex) {
            e.broken = ex instanceof SQLException sql ? sql : new SQLException("release failed: " + ex, ex);
            return false;
        }
    }

    /**
     * Validates an idle connection if it wins it from borrowers (HELD, entry-checked, S1) and it is still due (a
     * holder may have used it since the visit that picked it: its fields are this thread's to read once it holds
     * the slot); a good one goes back (to a waiter first) unless it must close meanwhile, for the reason its own
     * state gives ({@link PooledConnection#closeReason}: a drain, a rebalance or its lifetime may have come while
     * it was held). It was idle, so a paced drain of its origin closes it on its pace ({@link PacedDrains}).
     */
    private void validate(PooledConnection e) {
        if (!e.origin.isUp() || !table.tryHold(e.slot, e)) {
            return;
        }
        if (due(e, ticker.nanoTime())) {
            if (!validation.validate(e, Long.MAX_VALUE) || !releasedPooledServer(e)) {
                closing.closeOwned(e, CloseReason.VALIDATION_FAILED, false);
                return;
            }
            e.lastValidatedAt = ticker.nanoTime();
        }
        CloseReason reason = e.closeReason(ticker.nanoTime());
        if (reason == CloseReason.ORIGIN_NOT_UP) {
            drains.closeOwned(e);
            return;
        }
        if (reason != null) {
            closing.closeOwned(e, reason, false);
            return;
        }
        table.releaseHeld(e.slot);
        // Dekker with drain and markDown, as at a return: they store the origin's state, then visit the slots
        // (passing over this HELD one); this released, then reads the state. One of the two closes it.
        if (!e.origin.isUp()) {
            drains.closeIfIdle(e);
        }
        // A validation can outlast close() (a driver call the pool's join does not wait for): close() moves the
        // lifecycle out of OPEN, then sweeps; this released, then reads it. One of the two closes it.
        if (lifecycle.closed()) {
            closing.closeIfIdle(e, CloseReason.POOL_CLOSED);
        }
    }
}
