package dev.slotpool.pool.ground;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.jdbc.StatementCacheTotals;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.sql.Driver;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An origin at run time: its configuration, state, weight and the counts the creator needs. Nothing here is
 * touched on the borrow/return fast path except the volatile {@link #state()} read (S7).
 */
public final class Origin {

    private static final VarHandle STATUS;

    /** Effective weights are base × this × the latency factor, so a factor of 0.37 still has two digits. */
    public static final int LATENCY_SCALE = 100;

    static {
        try {
            STATUS = MethodHandles.lookup().findVarHandle(Origin.class, "status", OriginStatus.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public final OriginConfig config;
    public final String name;
    public final Driver driver;
    public final Properties connectProperties;
    /** For an origin found by a discovery query: the configured origin whose URL it was reached through (its
     * {@link #occupied} counts the whole group, so the configured cap and weight apply to the group). */
    public final Origin parent;

    /** Accessed through {@link #STATUS} after construction: volatile reads, changes by CAS only. */
    private volatile OriginStatus status;
    /** The weight borrows and placement follow; under latency-aware balancing, {@link #baseWeight} scaled. */
    public volatile int weight;
    /** The configured or rebalanced weight; for a discovered origin, its group's weight split among the group's
     * UP origins unless a rebalance named it ({@link #weightPinned}). */
    public volatile int baseWeight;
    /** A discovered origin whose weight an operator's rebalance set: no longer split from its group's. */
    public volatile boolean weightPinned;
    /** A discovered origin the pool forgot (no connection for a while): a connection landing on it is not lent. */
    public volatile boolean forgotten;
    /** Whether, and since when (ticker time), a discovered origin has had no connection (housekeeper only). */
    public boolean seenEmpty;
    public long emptySince;

    /** Live connections plus those being opened (S3 per origin). Changed on creation and close only. */
    public final AtomicInteger occupied = new AtomicInteger();
    /** Connections being opened now. */
    public final AtomicInteger creating = new AtomicInteger();
    /** Borrows of connections of this origin that have since been closed (live ones count in their entry). */
    public final AtomicLong retiredBorrows = new AtomicLong();
    /** Statement cache counts of this origin's closed connections (live ones count in their own cache). */
    public final StatementCacheTotals retiredStatements = new StatementCacheTotals();
    /** What the failure detector and its probes know about this origin: runs, back-off, attempts, probes. */
    public final OriginHealth health;

    /** Latency-aware balancing: mean borrow-to-return time fed by the same 1-in-16 return samples as the
     * creator's estimate, and their count (racy but benign, as the mean). */
    public final MovingMean holdTime = new MovingMean();
    public volatile long holdSamples;
    /** Connections of this origin closed as broken (fatal SQL error, failed validation). */
    public final AtomicLong brokenCloses = new AtomicLong();
    /** The two counts above at the housekeeper's last visit (housekeeper thread only). */
    public long seenSamples;
    public long seenBroken;

    public Origin(OriginConfig config, Driver driver, Properties connectProperties, long now, Origin parent) {
        this.config = config;
        this.parent = parent;
        this.health = new OriginHealth(now);
        this.status = OriginStatus.up("configured", now);
        this.name = config.name();
        this.driver = driver;
        this.connectProperties = connectProperties;
        this.weight = config.weight();
        this.baseWeight = config.weight();
    }

    /** Volatile read: a borrower checks it after winning a slot so that no connection of a DRAINING or DOWN
     * origin is lent once the state change is visible (S7). */
    public OriginState state() {
        return status().state();
    }

    public OriginStatus status() {
        return (OriginStatus) STATUS.getVolatile(this);
    }

    /** Replaces {@code expected} by {@code next} (CAS, volatile): false if another change came first. Callers
     * report a change to listeners. */
    public boolean changeStatus(OriginStatus expected, OriginStatus next) {
        return STATUS.compareAndSet(this, expected, next);
    }

    public boolean isUp() {
        return state() == OriginState.UP;
    }

    /** Whether new connections to this configured origin land on servers named by its discovery query. */
    public boolean discovers() {
        return parent == null && config.originQuery() != null;
    }

    public void sampleHold(long nanos) {
        holdTime.sample(nanos);
        holdSamples = holdSamples + 1;
    }

    /** Whether this origin may receive a new connection now (cap and back-off). */
    public boolean hasRoom(int poolMax, long now) {
        return occupied.get() < cap(poolMax) && health.mayAttempt(now);
    }

    /** The most connections this origin (or discovery group) may have: its own cap, else the pool's. */
    public int cap(int poolMax) {
        return config.maxConnections() == 0 ? poolMax : config.maxConnections();
    }

    @Override
    public String toString() {
        return "Origin[" + name + ", " + state() + "]";
    }
}
