package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.jdbc.ConnectionDefaults;
import dev.slotpool.jdbc.ConnectionLease;
import dev.slotpool.table.Slot;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * The entry of a slot: one physical connection and what the pool knows of it (seed 000, "connection
 * attributes"). It is also the {@link ConnectionLease} a proxy uses while the connection is lent.
 *
 * <p>The lease word arbitrates between the holder returning the connection and a reclaimer (abandoned or
 * time-to-live timer, drain deadline, shutdown) taking it back: {@code IDLE → LENT} at borrow, then exactly one
 * of {@code LENT → IDLE} (return) or {@code LENT → RECLAIMED} (reclaim) wins by CAS. A reclaimed entry is never
 * lent again, so a late return from its old holder cannot touch a slot that has moved on (no ABA; S1).
 *
 * <p>Statistics fields are plain: written by the one owner of the slot (S1) and read racily by the housekeeper
 * and snapshots. Racy but benign: a reader may see a value one borrow old, which only shifts a timer decision
 * to its next visit (and the reclaim itself is decided by the lease CAS, not by these reads).
 */
final class PooledConnection implements ConnectionLease {

    private static final int IDLE = 0;
    private static final int LENT = 1;
    private static final int RECLAIMED = 2;
    private static final VarHandle LEASE;

    static {
        try {
            LEASE = MethodHandles.lookup().findVarHandle(PooledConnection.class, "lease", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ConnectionPool pool;
    final Origin origin;
    final Slot<PooledConnection> slot;
    final Connection physical;
    final ConnectionDefaults defaults;
    final long createdAt;
    /** createdAt + maxLifetime − jitter, or Long.MAX_VALUE when max lifetime is off. */
    final long retireAt;

    @SuppressWarnings("unused")
    private volatile int lease = IDLE;
    /** Set by anyone (drain, max lifetime, rebalance); read by the holder at return. */
    volatile boolean retireAtReturn;
    /** Why it is retired; written before {@link #retireAtReturn} (volatile store publishes it). */
    volatile CloseReason retireReason;
    /** Set by the holder's proxy on a fatal error; read at return. */
    volatile SQLException broken;
    private volatile Map<String, String> labels = Map.of();

    // Owner-written statistics, read racily elsewhere (see class comment).
    long borrowedAt;
    long lastActivityAt;
    long returnedAt;
    long borrowCount;
    long heldNanosTotal;
    long lastValidatedAt;
    Thread holder;
    Throwable borrowStack;

    PooledConnection(ConnectionPool pool, Origin origin, Slot<PooledConnection> slot, Connection physical,
                     ConnectionDefaults defaults, long createdAt, long retireAt) {
        this.pool = pool;
        this.origin = origin;
        this.slot = slot;
        this.physical = physical;
        this.defaults = defaults;
        this.createdAt = createdAt;
        this.retireAt = retireAt;
        this.returnedAt = createdAt;
        this.lastActivityAt = createdAt;
        this.lastValidatedAt = createdAt;
    }

    /** IDLE → LENT by the thread that owns the slot (S1): a plain-ordered volatile store suffices, the slot's
     * CAS already made this thread the only writer. */
    void lend(long now, Thread to, Throwable stack) {
        borrowedAt = now;
        lastActivityAt = now;
        borrowCount++;
        holder = to;
        borrowStack = stack;
        LEASE.setVolatile(this, LENT);
    }

    /** LENT → IDLE by the holder. CAS against {@link #tryReclaim()}: false means the pool took it back. */
    boolean endLease() {
        return LEASE.compareAndSet(this, LENT, IDLE);
    }

    /** LENT → RECLAIMED by a reclaimer. CAS against the holder's return: true makes the caller the slot's owner. */
    boolean tryReclaim() {
        return LEASE.compareAndSet(this, LENT, RECLAIMED);
    }

    /** Marks the connection to be closed when it comes back (its holder is not interrupted). */
    void retire(CloseReason reason) {
        retireReason = reason;
        retireAtReturn = true;
    }

    boolean lent() {
        return (int) LEASE.getVolatile(this) == LENT;
    }

    /** Whether the connection must be closed rather than reused at return. */
    boolean mustClose() {
        return broken != null || retireAtReturn || origin.state() != OriginState.UP;
    }

    @Override
    public Connection physical() {
        return physical;
    }

    @Override
    public ConnectionDefaults defaults() {
        return defaults;
    }

    @Override
    public void touch() {
        lastActivityAt = pool.ticker.nanoTime();
    }

    @Override
    public void evict(SQLException cause) {
        broken = cause;
    }

    @Override
    public boolean reclaimed() {
        return (int) LEASE.getVolatile(this) == RECLAIMED;
    }

    @Override
    public void giveBack() {
        pool.giveBack(this);
    }

    @Override
    public Map<String, String> labels() {
        return labels;
    }

    @Override
    public void labels(Map<String, String> newLabels) {
        labels = Map.copyOf(newLabels);
    }
}
