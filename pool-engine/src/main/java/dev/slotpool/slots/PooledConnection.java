package dev.slotpool.slots;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.SqlExceptionOverride;
import dev.slotpool.jdbc.ConnectionDefaults;
import dev.slotpool.jdbc.ConnectionLease;
import dev.slotpool.jdbc.StatementCache;
import dev.slotpool.kernel.LeadingPadding;
import dev.slotpool.origins.Origin;
import dev.slotpool.sessions.DrcpSession;
import dev.slotpool.table.EntryFilter;
import dev.slotpool.table.Slot;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * The entry of a slot: one physical connection and what the pool knows of it (docs/architecture.md,
 * "Slot states"). It is also the {@link ConnectionLease} a proxy uses while the connection is lent.
 *
 * <p>The lease word arbitrates between the holder returning the connection, the holder (or another thread)
 * aborting it, and a reclaimer (abandoned or time-to-live timer, drain deadline, silent origin, shutdown) taking
 * it back: {@code IDLE → LENT} at borrow, then exactly one of {@code LENT → IDLE} (return) or
 * {@code LENT → RECLAIMED} (abort, reclaim) wins by CAS. The word also holds a generation, one more per borrow;
 * the word {@link #lend} stores is the borrow's stamp, and every end of a borrow names the stamp it means: the
 * proxy the one it was built with (never re-read, so a reclaim that lands before the proxy exists still ends its
 * borrow), a reclaimer the one its visit read before judging. A late return, abort or reclaim of an ended borrow
 * then fails its CAS even after the connection was lent again (no ABA; S1). A reclaimed entry is never lent
 * again, and RECLAIMED is final: no stamp moves it.
 *
 * <p>Statistics fields are plain: written by the one owner of the slot (S1) and read racily by the housekeeper
 * and snapshots. Racy but benign: a reader may see a value one borrow old, which only shifts a timer decision
 * to its next visit (and the reclaim itself is decided by the lease CAS, not by these reads).
 *
 * <p>The holder writes the lease word and the statistics at every lend and return, so the fields have cache lines
 * to themselves: padding before them ({@link LeadingPadding}) and after them (the {@code after} references,
 * declared last: the JVM lays out references after primitives, in declaration order). A JOL walk of a running pool
 * found an entry on one line with the return path, which every return on every thread reads (docs/benchmarks.md,
 * "Cache lines: the slot, the means and the entry padded").
 */
public final class PooledConnection extends LeadingPadding implements ConnectionLease {

    /** The lease word: generation × 4 + state. */
    private static final long IDLE = 0;
    private static final long LENT = 1;
    private static final long RECLAIMED = 2;
    private static final long STATE_BITS = 3;
    private static final long ONE_GENERATION = 4;
    private static final VarHandle LEASE;
    private static final VarHandle ACTIVITY;

    static {
        try {
            LEASE = MethodHandles.lookup().findVarHandle(PooledConnection.class, "lease", long.class);
            ACTIVITY = MethodHandles.lookup().findVarHandle(PooledConnection.class, "activity", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The return path ({@code Returns}): how the holder's borrow ends, and the exception override its proxies ask
     * on the way (which decides whether the connection goes back or is closed at the return). */
    public interface ReturnPath {
        SqlExceptionOverride exceptionOverride();

        /** The holder closed its proxy, after hygiene: the connection goes back or is closed. */
        void giveBack(PooledConnection e, long stamp);

        /** The holder aborted the connection; the lease CAS made the caller the slot's owner. */
        void abortedByHolder(PooledConnection e, Executor executor);
    }

    private final ReturnPath returnPath;
    public final Origin origin;
    public final Slot<PooledConnection> slot;
    public final Connection physical;
    public final ConnectionDefaults defaults;
    public final long createdAt;
    /** createdAt + maxLifetime − jitter, or Long.MAX_VALUE when max lifetime is off. */
    public final long retireAt;
    /** The connection's statement cache (null when statementCacheSize is 0): used by its holder only (S1); its
     * counts move to the origin when the connection is closed. */
    public final StatementCache statementCache;
    /** Behind DRCP, the connection's pooled server, attached at borrow and released at return; else null. */
    public final DrcpSession drcp;

    @SuppressWarnings("unused")
    private volatile long lease = IDLE;
    /** Set by anyone (drain, max lifetime, rebalance, a failed labeling); read by whoever owns the slot when it lets
     * the connection go ({@link #closeReason}): the holder at return, a borrower's check, the keepalive. */
    public volatile boolean retireAtReturn;
    /** Why it is retired; written before {@link #retireAtReturn} (volatile store publishes it), never null then. */
    public volatile CloseReason retireReason;
    /** Set by the holder's proxy on a fatal error; read at return. */
    public volatile SQLException broken;
    /** Held back by adaptive sizing (docs/architecture.md, "Adaptive sizing"): open, idle and lent to nobody until
     * its origin's limit rises. Written only by the slot's owner, before the store that releases the slot; read
     * by scans as a racy-but-benign filter and checked again by whoever wins the slot. */
    public volatile boolean heldBack;
    private volatile Map<String, String> labels = Map.of();

    // Statistics written by the slot's one owner, read racily elsewhere (see class comment).
    public long borrowedAt;
    /** How long the current borrow took to get this connection (0: at once), for a {@code BorrowObserver}. */
    public long lentAfterNanos;
    /** JDBC calls on this connection: one plain increment per call by its holder, no clock read (see
     * {@link #lastActivity}). */
    private long activity;
    /** The activity count when the current borrow began; written by its holder before the stamp. */
    private long activityAtLend;
    /** The borrow (its stamp) the housekeeper's looks below are about ({@link #lastActivity}). */
    private long lookedStamp;
    /** When that borrow was last seen active (ticker time); housekeeper thread only. */
    private long lastActivityAt;
    /** The activity count at the housekeeper's last look. */
    private long seenActivity;
    public long returnedAt;
    public long borrowCount;
    public long heldNanosTotal;
    public long lastValidatedAt;
    public Thread holder;
    public Throwable borrowStack;
    /** The borrow (its stamp) last reported past the leak detection threshold; written by the housekeeper only. */
    public long leakReportedStamp;
    @SuppressWarnings("unused")
    private Object after0, after1, after2, after3, after4, after5, after6, after7, after8, after9, after10, after11,
            after12, after13, after14, after15;

    public PooledConnection(ReturnPath returnPath, Origin origin, Slot<PooledConnection> slot, Connection physical,
                     ConnectionDefaults defaults, int statementCacheSize, long createdAt, long retireAt,
                     DrcpSession drcp) {
        this.returnPath = returnPath;
        this.origin = origin;
        this.slot = slot;
        this.physical = physical;
        this.defaults = defaults;
        this.createdAt = createdAt;
        this.retireAt = retireAt;
        this.statementCache = statementCacheSize > 0 ? new StatementCache(statementCacheSize) : null;
        this.drcp = drcp;
        this.returnedAt = createdAt;
        this.lastValidatedAt = createdAt;
    }

    /** The entries every borrow may take when standbys' connections are kept for read borrows
     * (docs/architecture.md, "Reads to standbys"): not a standby's, nor, while the role holds an origin's writes
     * ({@link Origin#holdWrites}), that origin's, so that writers wait instead of meeting them. */
    public static final EntryFilter<PooledConnection> TAKES_WRITES = e -> e.origin.takesWrites();

    /** The entries every borrow may take under adaptive sizing: none held back, and, with reads to standbys, only
     * those of origins that take writes. */
    public static EntryFilter<PooledConnection> lendable(boolean readsToStandbys) {
        return readsToStandbys ? e -> !e.heldBack && e.origin.takesWrites() : e -> !e.heldBack;
    }

    /** The filter of the entries of {@code o}, for weighted borrows that prefer it. */
    public static EntryFilter<PooledConnection> of(Origin o) {
        return e -> e.origin == o;
    }

    /** IDLE → LENT of the next generation, by the thread that owns the slot (S1): a volatile store suffices,
     * the slot's CAS already made this thread the only writer. Returns the borrow's stamp, the word stored: the
     * word itself may be RECLAIMED by the time anyone reads it again. */
    public long lend(long now, long waitNanos, Thread to, Throwable stack) {
        borrowedAt = now;
        lentAfterNanos = waitNanos;
        activityAtLend = activity;
        borrowCount++;
        holder = to;
        borrowStack = stack;
        long generation = ((long) LEASE.getVolatile(this) & ~STATE_BITS) + ONE_GENERATION;
        long stamp = generation | LENT;
        LEASE.setVolatile(this, stamp);
        return stamp;
    }

    /** LENT → IDLE for the borrow {@code stamp}, by its holder. CAS against an abort or a reclaim: false means the
     * borrow had already ended. Only a LENT stamp ends a borrow: RECLAIMED is final (S1, S2). */
    public boolean endLease(long stamp) {
        return isLent(stamp) && LEASE.compareAndSet(this, stamp, (stamp & ~STATE_BITS) | IDLE);
    }

    /** LENT → RECLAIMED for the borrow {@code stamp} (an abort, or a reclaimer naming the borrow it judged). CAS
     * against the holder's return: true makes the caller the slot's owner; false means that borrow had ended,
     * whatever borrow of this connection is out now. */
    boolean tryReclaim(long stamp) {
        return isLent(stamp) && LEASE.compareAndSet(this, stamp, (stamp & ~STATE_BITS) | RECLAIMED);
    }

    /** Marks the connection to be closed when it comes back (its holder is not interrupted). */
    public void retire(CloseReason reason) {
        retireReason = reason;
        retireAtReturn = true;
    }

    /** Whether a lease word read earlier ({@link #stamp()}) is a borrow's stamp. Visitors ask {@link LentBorrows}. */
    public static boolean isLent(long stamp) {
        return (stamp & STATE_BITS) == LENT;
    }

    /**
     * Why the connection must be closed rather than reused at {@code now} (ticker time), or null if it may be
     * reused: the one decider of a close's reason for its owner, whether a returning holder, a borrower checking
     * it or the keepalive. A mark to retire names its own reason, so a retirement met idle is counted as what it
     * is (rebalance, drain), not as a lifetime's end.
     */
    public CloseReason closeReason(long now) {
        if (broken != null) {
            return CloseReason.BROKEN;
        }
        if (origin.state() != OriginState.UP) {
            return CloseReason.ORIGIN_NOT_UP;
        }
        if (retireAtReturn) {
            return retireReason;
        }
        return now - retireAt >= 0 ? CloseReason.MAX_LIFETIME : null;
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
    public StatementCache statementCache() {
        return statementCache;
    }

    @Override
    public SqlExceptionOverride exceptionOverride() {
        return returnPath.exceptionOverride();
    }

    @Override
    public boolean sessionSharedPerTransaction() {
        return origin.config.pooler() != null && origin.config.pooler().sharesSessionsPerTransaction();
    }

    @Override
    public void releasePooledServer() throws SQLException {
        if (drcp != null) {
            drcp.release(labels);
        }
    }

    @Override
    public void touch() {
        activity++;
    }

    /**
     * When the borrow {@code stamp} (read by the caller before) was last seen active: at its start, or at the first
     * look ({@code now}) that found its holder had made JDBC calls since the look before. Never earlier than the
     * true last call, so a timer on silence (abandoned, silent on a DOWN origin) fires at most one look late and
     * never early. Each look is tied to the borrow it judged: a look at an ended borrow that lands after the next
     * lend starts over at the next borrow's first look, so it cannot age the next one (the holder writes nothing
     * here). Fields read after the stamp belong to that borrow or a later one, whose start only makes the borrow
     * look younger. The holder's count is read opaquely: the holder does not pay for making it visible.
     * Housekeeper thread only.
     */
    public long lastActivity(long stamp, long now) {
        long calls = (long) ACTIVITY.getOpaque(this);
        if (stamp != lookedStamp) {
            lookedStamp = stamp;
            seenActivity = activityAtLend;
            lastActivityAt = borrowedAt;
        }
        if (calls != seenActivity) {
            seenActivity = calls;
            // A pass's now may precede the borrow's start (lent after the pass read the clock).
            lastActivityAt = Math.max(lastActivityAt, now);
        }
        return lastActivityAt;
    }

    /** The lease word now (volatile): a visitor reads it before the fields it judges the borrow by, which the
     * holder wrote before storing it, and names it to {@link #tryReclaim}. Fields read after it belong to this
     * borrow or a later one; a later one's only make the reclaim's CAS fail. */
    public long stamp() {
        return (long) LEASE.getVolatile(this);
    }

    /** Racy but benign: a check-then-store, so an eviction racing the borrow's end can at worst mark the next
     * borrow's connection, which is then closed at its return; never is a dead or shared connection lent. */
    @Override
    public void evict(SQLException cause, long stamp) {
        if (!ended(stamp)) {
            broken = cause;
        }
    }

    @Override
    public boolean ended(long stamp) {
        return (long) LEASE.getVolatile(this) != stamp;
    }

    @Override
    public void giveBack(long stamp) {
        returnPath.giveBack(this, stamp);
    }

    @Override
    public boolean abort(long stamp, Executor executor) {
        if (!tryReclaim(stamp)) {
            return false;
        }
        returnPath.abortedByHolder(this, executor);
        return true;
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
