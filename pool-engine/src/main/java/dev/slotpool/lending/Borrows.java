package dev.slotpool.lending;

import dev.slotpool.BorrowObserver;
import dev.slotpool.CloseReason;
import dev.slotpool.LabelingCallback;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.Ticker;
import dev.slotpool.failover.Failover;
import dev.slotpool.failover.FailureDetector;
import dev.slotpool.failover.PacedDrains;
import dev.slotpool.jdbc.ProxyConnection;
import dev.slotpool.kernel.Events;
import dev.slotpool.kernel.PoolLifecycle;
import dev.slotpool.kernel.UserCode;
import dev.slotpool.origins.Origins;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.slots.Signals;
import dev.slotpool.snapshots.Snapshots;
import dev.slotpool.table.EntryFilter;
import dev.slotpool.table.Slot;
import dev.slotpool.table.SlotTable;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The borrow path (docs/architecture.md, "Borrow"): a slot from the {@link SlotTable}, checked (origin UP, not
 * marked, validated when idle too long) and lent. A borrow has one deadline, an absolute time on the pool's
 * {@link Ticker}, taken once where the borrow begins and carried unchanged to the table's park, its validations
 * and its timeout message.
 */
public final class Borrows {

    /**
     * A validation needs at least this much of the borrow's time left; with less, the borrow times out and the
     * connection goes back unvalidated rather than be failed (and closed) for want of time.
     */
    private static final long MIN_VALIDATION_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** A standby that takes reads, not held back; racy but benign (an {@link EntryFilter}): the read borrower
     * checks again once it owns the slot. */
    private static final EntryFilter<PooledConnection> SERVES_READS = e -> !e.heldBack && e.origin.servesReads();

    private final String name;
    private final Ticker ticker;
    private final long timeoutNanos;
    /** The configured timeout as given, for the timeout message. */
    private final long timeoutMillis;
    private final long validateAfterIdleNanos;
    /** Wraps each borrow when configured; null (the default) costs one read. */
    private final BorrowObserver observer;
    /** Whether a borrow records its stack: an allocation and a stack walk, only when something will report it. */
    private final boolean recordStack;
    private final LabelingCallback labeling;
    private final SlotTable<PooledConnection> table;
    private final WeightedPick weightedPick;
    private final Closing closing;
    /** Takes a draining origin's connections a borrower meets idle, to close on the drain's pace. */
    private final PacedDrains drains;
    private final Validation validation;
    private final FailureDetector detector;
    private final Events events;
    private final UserCode userCode;
    /** The counts a timeout's message shows ({@link Snapshots#counts}). */
    private final Snapshots snapshots;
    private final AtomicLong timeouts;
    /** Passed to the table's slow path: refuses the borrow when the outage is known, else tells the creators;
     * a field so a borrow allocates no lambda. */
    private final Runnable onShortage;
    private final KnownOutage outage;
    private final PoolLifecycle lifecycle;

    public Borrows(PoolConfig config, SlotTable<PooledConnection> table, Origins origins, Closing closing,
            Failover failover, Events events, UserCode userCode,
            Snapshots snapshots, PoolLifecycle lifecycle, Signals signals) {
        this.name = config.name();
        this.ticker = config.ticker();
        this.timeoutNanos = config.borrowTimeout().toNanos();
        this.timeoutMillis = config.borrowTimeout().toMillis();
        this.validateAfterIdleNanos = config.validateAfterIdle().toNanos();
        this.observer = config.borrowObserver();
        this.recordStack = config.leakTracing() || !config.leakDetectionThreshold().isZero();
        this.labeling = config.labeling();
        this.table = table;
        this.weightedPick = new WeightedPick(origins);
        this.closing = closing;
        this.drains = failover.drains();
        this.detector = failover.detector();
        this.validation = new Validation(config, detector);
        this.events = events;
        this.userCode = userCode;
        this.snapshots = snapshots;
        this.timeouts = snapshots.timeouts();
        KnownOutage outage = new KnownOutage(name, origins);
        this.outage = outage;
        // Run before the borrower joins the queue and again once it is in it: a known outage found by either is
        // refused at once; one that begins later turns the queue away (Housekeeper, SlotTable.turnAwayWaiters).
        this.onShortage = () -> {
            outage.refuseIfKnown();
            signals.borrowerShort();
        };
        this.lifecycle = lifecycle;
    }

    /** Whether an outage is known, for the housekeeper that turns the waiters away (the borrows' own). */
    public KnownOutage outage() {
        return outage;
    }

    /** Borrows a connection, waiting up to the borrow timeout from now. */
    public Connection borrow() throws SQLException {
        return observer == null ? borrowFast() : observed(null, ticker.nanoTime() + timeoutNanos);
    }

    /** Borrows a connection on a clock started at {@code start} (ticker time): see
     * {@code ConnectionPool.borrowSince}. */
    public Connection borrowSince(long start) throws SQLException {
        long deadline = start + timeoutNanos;
        return observer == null ? borrowUntil(deadline) : observed(null, deadline);
    }

    /**
     * A read borrow (docs/architecture.md, "Reads to standbys"): an available connection of a standby that takes
     * reads, else an ordinary borrow (the primary), so reads never fail for want of a standby. Either way the
     * connection is read-only for its holder ({@link Connection#setReadOnly}, reset at return): what that refuses on
     * the primary is the driver's to say (pgjdbc by default: every transaction it begins, not a statement in
     * auto-commit mode; docs/failover.md, "Reads to standbys").
     */
    public Connection borrowForRead() throws SQLException {
        long deadline = ticker.nanoTime() + timeoutNanos;
        Connection c;
        if (observer == null) {
            c = borrowRead(deadline);
        } else {
            Object started = userCode.borrowStarted(observer);
            try {
                c = borrowRead(deadline);
            } catch (SQLException | RuntimeException | Error ex) {
                userCode.borrowEnded(observer, started, null, -1, ex);
                throw ex;
            }
            PooledConnection e = (PooledConnection) ((ProxyConnection) c).lease();
            userCode.borrowEnded(observer, started, e.origin.name, e.lentAfterNanos, null);
        }
        try {
            c.setReadOnly(true);
        } catch (SQLException | RuntimeException | Error ex) {
            ((PooledConnection) ((ProxyConnection) c).lease()).retire(CloseReason.BROKEN);
            c.close();
            throw ex;
        }
        return c;
    }

    /** A standby's connection if one is available and takes reads (each tried at most once), else any borrow. */
    private Connection borrowRead(long deadline) throws SQLException {
        for (int tries = table.capacity(); tries > 0; tries--) {
            Slot<PooledConnection> s = table.tryBorrowReserved(SERVES_READS);
            if (s == null) {
                break;
            }
            Connection c = lendIfUsable(s, deadline, true);
            if (c != null) {
                return c;
            }
        }
        return borrowUntil(deadline);
    }

    /** Borrows the cheapest connection for {@code labels} (see {@link LabelingCallback}). */
    public Connection borrow(Map<String, String> labels) throws SQLException {
        long deadline = ticker.nanoTime() + timeoutNanos;
        return observer == null ? borrowLabeled(labels, deadline) : observed(labels, deadline);
    }

    /** A borrow wrapped by the {@link BorrowObserver}: plain ({@code labels} null) or labeled. */
    private Connection observed(Map<String, String> labels, long deadline) throws SQLException {
        Object started = userCode.borrowStarted(observer);
        Connection c;
        try {
            c = labels == null ? borrowUntil(deadline) : borrowLabeled(labels, deadline);
        } catch (SQLException | RuntimeException | Error ex) {
            userCode.borrowEnded(observer, started, null, -1, ex);
            throw ex;
        }
        PooledConnection e = (PooledConnection) ((ProxyConnection) c).lease();
        userCode.borrowEnded(observer, started, e.origin.name, e.lentAfterNanos, null);
        return c;
    }

    /** The fast path: an available connection that needs no check is lent at once; the deadline starts only if
     * the borrow must check a connection or wait. */
    private Connection borrowFast() throws SQLException {
        EntryFilter<PooledConnection> preferred = weightedPick.pick();
        long now = ticker.nanoTime();
        Slot<PooledConnection> s = table.tryBorrow(preferred, now);
        if (s != null && lendableAsIs(s.entry(), now)) {
            return lend(s.entry(), now, 0);
        }
        return borrowSlow(preferred, s, now + timeoutNanos);
    }

    /** The fast path on a deadline already set (an observed borrow, a bean-style DataSource's first use). */
    private Connection borrowUntil(long deadline) throws SQLException {
        EntryFilter<PooledConnection> preferred = weightedPick.pick();
        long now = ticker.nanoTime();
        Slot<PooledConnection> s = table.tryBorrow(preferred, now);
        if (s != null && lendableAsIs(s.entry(), now)) {
            return lend(s.entry(), now, 0);
        }
        return borrowSlow(preferred, s, deadline);
    }

    /** Waits for a connection until {@code deadline}; {@code owned} is a slot already won but not checked. */
    private Connection borrowSlow(EntryFilter<PooledConnection> preferred, Slot<PooledConnection> owned,
                                  long deadline) throws SQLException {
        Slot<PooledConnection> s = owned;
        // Null: the fast path's scan just missed, so the table need not scan again before its revisits.
        boolean missed = owned == null;
        while (true) {
            if (s == null) {
                checkOpen();
                try {
                    s = missed ? table.borrowAfterMiss(deadline, preferred, onShortage)
                            : table.borrow(deadline, preferred, onShortage);
                    missed = false;
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("pool '" + name + "': interrupted while waiting for a connection", ie);
                } catch (KnownOutage.Refusal refused) {
                    checkOpen();
                    throw outage.failure();
                }
                if (s == null) {
                    checkOpen();
                    if (outage.known()) {
                        throw outage.failure();
                    }
                    if (deadline - ticker.nanoTime() > 0) {
                        continue; // turned away, and an origin came back meanwhile: wait on
                    }
                    throw timeout(deadline);
                }
            }
            Connection c = lendIfUsable(s, deadline);
            if (c != null) {
                return c;
            }
            s = null;
        }
    }

    /** Whether a connection this thread owns may be lent without closing, attaching or validating it first. */
    private boolean lendableAsIs(PooledConnection e, long now) {
        // takesWrites before the state (in closeReason): see Origin#takesWrites.
        return e.drcp == null && e.origin.takesWrites() && e.closeReason(now) == null && !e.heldBack
                && !idleTooLong(e, now);
    }

    private boolean idleTooLong(PooledConnection e, long now) {
        return now - e.returnedAt >= validateAfterIdleNanos && now - e.lastValidatedAt >= validateAfterIdleNanos;
    }

    /** {@link #lendIfUsable(Slot, long, boolean)} for a borrow that may write. */
    private Connection lendIfUsable(Slot<PooledConnection> s, long deadline) throws SQLException {
        return lendIfUsable(s, deadline, false);
    }

    /**
     * Checks and lends a connection this thread now owns; null if it was unusable (closed here: the caller looks
     * again). Its origin must be UP (S7: checked after the slot CAS, so a drain that returned before is seen; the
     * connection was idle, so it joins its origin's paced drain if there is one, {@link PacedDrains#closeOwned}), it
     * must not be marked, behind DRCP a pooled server is attached to it, and it is validated if it sat idle too
     * long, within the time the borrow has left. With too little time left to validate, it goes back and the
     * borrow times out. Its origin must also serve the borrow (read after the slot CAS, before the state): a borrow
     * that may write never gets a standby kept for reads, a read one only a standby that takes reads; one that
     * does not, or one adaptive sizing held back meanwhile, goes back unused (null).
     */
    private Connection lendIfUsable(Slot<PooledConnection> s, long deadline, boolean read) throws SQLException {
        PooledConnection e = s.entry();
        // Before the state (in closeReason): a role's hold on writes ends only once its DOWN is stored.
        boolean serves = read ? e.origin.servesReads() : e.origin.takesWrites();
        long now = ticker.nanoTime();
        CloseReason reason = e.closeReason(now);
        if (reason == CloseReason.ORIGIN_NOT_UP) {
            drains.closeOwned(e);
            return null;
        }
        if (reason != null) {
            closing.closeOwned(e, reason, false);
            return null;
        }
        if (e.heldBack) {
            table.release(e.slot, now); // held back by adaptive sizing since this borrower's scan read it
            return null;
        }
        if (!serves) {
            table.release(e.slot, now);
            // With no filter to reserve them (reads to standbys off), a held origin's entries are met again at once
            // until the hold ends (Origin#holdWrites): the deadline bounds that. A read borrow falls back instead.
            if (!read && timeoutNanos != 0 && deadline - now <= 0) {
                throw timeout(deadline);
            }
            return null;
        }
        boolean validate = idleTooLong(e, now);
        // A zero borrow timeout only means "do not wait for a connection": its validation gets the full time.
        long budget = timeoutNanos == 0 ? Long.MAX_VALUE : deadline - now;
        if (validate && budget < MIN_VALIDATION_NANOS) {
            table.release(e.slot, now); // before any attach: an idle connection holds no pooled server
            throw timeout(deadline);
        }
        if (e.drcp != null && !attached(e)) {
            return null;
        }
        if (validate) {
            if (e.drcp != null && timeoutNanos != 0) {
                budget = deadline - ticker.nanoTime(); // what the attach left of the borrow's time
            }
            if (!validation.validate(e, budget)) {
                closing.closeOwned(e, CloseReason.VALIDATION_FAILED, false);
                return null;
            }
            now = ticker.nanoTime();
            e.lastValidatedAt = now;
        }
        return lend(e, now, now - (deadline - timeoutNanos));
    }

    /**
     * Behind DRCP, attaches a pooled server to a connection this thread owns, before it is lent (docs/oracle.md,
     * "DRCP"): the slot is the borrower's and the lease not yet stamped, so no transition waits on the driver. A
     * server that does not carry the connection's tag holds none of its labels' state: the labels are dropped, so
     * a labeled borrow configures it again. A failed attach closes the connection; the failure detector tells DRCP
     * refusing work from a dead connection ({@link FailureDetector#attachFailed}). False if it failed.
     */
    private boolean attached(PooledConnection e) {
        try {
            if (!e.drcp.attach() && !e.labels().isEmpty()) {
                e.labels(Map.of());
            }
            return true;
        } catch (SQLException | RuntimeException | Error ex) {
            SQLException cause = ex instanceof SQLException sql ? sql
                    : new SQLException("the driver failed to attach a pooled server: " + ex, ex);
            closing.closeOwned(e, CloseReason.ATTACH_FAILED, false);
            detector.attachFailed(e.origin, cause);
            return false;
        }
    }

    /**
     * Lends a connection this thread owns and checked. The proxy carries the stamp {@code lend} stored, never a
     * re-read: a reclaim from here on ends this borrow, and the proxy then acts closed (S1). The listeners run
     * last, on a borrow already whole (stamp taken, proxy built), so a reclaim they cause ends it like any other.
     */
    private Connection lend(PooledConnection e, long now, long waitNanos) {
        Throwable stack = recordStack ? new Throwable("borrowed here") : null;
        long stamp = e.lend(now, waitNanos, Thread.currentThread(), stack);
        ProxyConnection c = new ProxyConnection(e, stamp);
        if (events.any()) {
            events.borrowed(e.origin.name, waitNanos);
        }
        return c;
    }

    /** One deadline for the whole borrow: the labeled look, its validations and the plain borrow after it. */
    private Connection borrowLabeled(Map<String, String> labels, long deadline) throws SQLException {
        if (labeling == null) {
            throw new SQLException("pool '" + name + "': a labeled borrow needs a labeling callback "
                    + "(SlotPoolBuilder.labeling)");
        }
        Map<String, String> requested = Map.copyOf(labels);
        Connection c = Labels.borrowCheapest(table, this::lendIfUsable, userCode, labeling, requested, deadline);
        if (c == null) {
            c = borrowUntil(deadline);
        }
        return Labels.configure(name, userCode, labeling, requested, c);
    }

    private SQLException timeout(long deadline) {
        timeouts.incrementAndGet();
        PoolSnapshot snap = snapshots.counts();
        SQLException cause = detector.currentFailure();
        long waited = ticker.nanoTime() - (deadline - timeoutNanos);
        String msg = "pool '" + name + "': no connection available within "
                + TimeUnit.NANOSECONDS.toMillis(waited) + " ms (borrow timeout " + timeoutMillis + " ms); "
                + snap.summary() + (cause == null ? "" : "; last connection failure: " + cause.getMessage());
        events.emit(PoolEvent.Type.TIMEOUT, null, null, snap.summary());
        return new SQLTransientConnectionException(msg, cause == null ? null : cause.getSQLState(), cause);
    }

    private void checkOpen() throws SQLException {
        if (lifecycle.closed()) {
            throw new SQLException("pool '" + name + "' is closed", "08003");
        }
    }
}
