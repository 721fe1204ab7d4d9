package dev.slotpool.origins;

import dev.slotpool.JdbcUrls;
import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.sizing.Gate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An origin at run time: its configuration, state, weight and the counts the creator needs. Nothing here is
 * touched on the borrow/return fast path except the volatile {@link #state()} read (S7), the volatile
 * {@link #takesWrites()} reads and, for a read borrow, {@link #servesReads()}.
 */
public final class Origin {

    private static final VarHandle STATUS;
    private static final VarHandle WRITE_HOLDS;

    /** Effective weights are base × this × the latency factor, so a factor of 0.37 still has two digits. */
    public static final int LATENCY_SCALE = 100;

    static {
        try {
            STATUS = MethodHandles.lookup().findVarHandle(Origin.class, "status", OriginStatus.class);
            WRITE_HOLDS = MethodHandles.lookup().findVarHandle(Origin.class, "writeHolds", int.class);
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
     * UP origins unless a rebalance named it (the origins registry keeps which). */
    public volatile int baseWeight;

    /** Live connections plus those being opened (S3 per origin). Changed on creation and close only. */
    public final AtomicInteger occupied = new AtomicInteger();
    /** Connections being opened now. */
    public final AtomicInteger creating = new AtomicInteger();
    /** What its closed connections left for snapshots: borrows, statement cache counts ({@code Closing}'s). */
    public final ClosedConnections closed = new ClosedConnections();
    /** What the failure detector and its probes know about this origin: runs, back-off, attempts, probes. */
    public final OriginHealth health;

    /** Whether the server is a standby kept for reads (docs/architecture.md, "Reads to standbys"): its connections
     * serve read borrows only. Written by the role's side of the pool only ({@code RoleGate}), volatile. */
    private volatile boolean readsOnly;
    /** Whether a standby kept for reads takes them now: its replica lag was last read within the bound. Written
     * with {@link #readsOnly}, by the same owner. */
    private volatile boolean readable;
    /** Why a standby kept for reads takes them or not, as its last reading said ({@code RoleGate}'s words, e.g.
     * "takes no reads: replica lag 814 ms (bound 500 ms)"); for snapshots only, so it may lag the flags above. */
    private volatile String readsVerdict;
    /** The role's steps under way that may take the origin out of write service ({@link #holdWrites}); accessed
     * through {@link #WRITE_HOLDS}. */
    private volatile int writeHolds;

    /** Latency-aware balancing's samples (see {@link OriginLoad}). */
    public final OriginLoad load = new OriginLoad();

    /** Adaptive sizing's limit and samples (docs/architecture.md, "Adaptive sizing"); unlimited under FIXED. A
     * discovered origin's connections count in its group's ({@link #sizingGate()}). */
    private final Gate gate = new Gate();

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

    /** Volatile reads: whether borrows that may write may be lent this origin's connections (false for a standby
     * kept for reads, and while the role holds its writes); a borrower checks it after winning a slot, before it
     * checks {@link #state()}. The holds are read first: a hold is released only after its verdict is stored (the
     * flag, or the role's DOWN), so a borrower that finds none finds the verdict. */
    public boolean takesWrites() {
        return writeHolds == 0 && !readsOnly;
    }

    /** Whether the server is a standby kept for reads ({@code RoleGate}'s verdict, whatever the holds). */
    public boolean keptForReads() {
        return readsOnly;
    }

    /** The role ({@code RoleWatch}, through {@code RoleGate}) is about to store something that may take the origin
     * out of write service: borrows that may write are not lent its connections until {@link #releaseWrites}, so
     * none that begins once a reading of a standby is visible is lent one before its verdict is applied. Nests. */
    public void holdWrites() {
        WRITE_HOLDS.getAndAdd(this, 1);
    }

    /** Ends one {@link #holdWrites}, after its verdict is stored. */
    public void releaseWrites() {
        WRITE_HOLDS.getAndAdd(this, -1);
    }

    /** Volatile read: whether read borrows may be lent this origin's connections (a standby kept for reads, within
     * the replica lag bound); a read borrower checks it after winning a slot. */
    public boolean servesReads() {
        return readable;
    }

    /** The role's verdict for reads ({@code RoleGate} only): a standby kept for reads, and whether it takes them
     * now. {@code readsOnly} is stored first when it turns on and last when it turns off, so no reader sees the
     * origin readable yet taking writes. */
    public void keepForReads(boolean readsOnly, boolean readable) {
        if (readsOnly) {
            this.readsOnly = true;
            this.readable = readable;
        } else {
            this.readable = false;
            this.readsOnly = false;
        }
    }

    /** The last verdict on a standby's reads ({@code RoleGate} only); stored apart from the flags so that storing it
     * at every reading never flips them. */
    public void readsVerdict(String verdict) {
        this.readsVerdict = verdict;
    }

    /** Whether and why a standby kept for reads takes them now; null for an origin not kept for reads. */
    public String readsVerdict() {
        return readsOnly ? readsVerdict : null;
    }

    /** Whether new connections to this configured origin land on servers named by its discovery query. */
    public boolean discovers() {
        return parent == null && config.originQuery() != null;
    }

    /** Whether this origin may receive a new connection now (cap and back-off). */
    public boolean hasRoom(int poolMax, long now) {
        return occupied.get() < cap(poolMax) && health.mayAttempt(now);
    }

    /** The most connections this origin (or discovery group) may have: its own cap, else the pool's, and at most
     * the sessions adaptive sizing leaves it. */
    public int cap(int poolMax) {
        return Math.min(configuredCap(poolMax), sizingGate().sessions());
    }

    /** Its own cap, else the pool's: the ceiling of its adaptive limit. */
    public int configuredCap(int poolMax) {
        return config.maxConnections() == 0 ? poolMax : config.maxConnections();
    }

    /** The gate adaptive sizing keeps for this origin's connections: its discovery group's when it has one. */
    public Gate sizingGate() {
        return parent == null ? gate : parent.gate;
    }

    /** The driver of a configured origin: {@code driverClassName}'s when set, else DriverManager's for the URL. */
    public static Driver driverFor(OriginConfig c, String driverClassName) {
        try {
            String cls = driverClassName;
            if (cls != null) {
                return (Driver) Class.forName(cls, true, Thread.currentThread().getContextClassLoader())
                        .getDeclaredConstructor().newInstance();
            }
            return DriverManager.getDriver(c.url());
        } catch (SQLException | ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException("origin '" + c.name() + "': no JDBC driver for "
                    + describe(c) + " (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** The properties a connect passes to the driver: the configured ones, user and password. */
    public static Properties connectProperties(OriginConfig c) {
        Properties p = new Properties();
        for (Map.Entry<String, String> e : c.connectionProperties().entrySet()) {
            p.setProperty(e.getKey(), e.getValue());
        }
        if (c.username() != null) {
            p.setProperty("user", c.username());
        }
        if (c.password() != null) {
            p.setProperty("password", c.password());
        }
        return p;
    }

    /** An origin's name and redacted URL, for messages. */
    public static String describe(OriginConfig o) {
        return o.name() + " (" + JdbcUrls.redact(o.url()) + ")";
    }


    @Override
    public String toString() {
        return "Origin[" + name + ", " + state() + "]";
    }
}
