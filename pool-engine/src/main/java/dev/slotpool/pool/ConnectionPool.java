package dev.slotpool.pool;

import dev.slotpool.Balancing;
import dev.slotpool.CloseReason;
import dev.slotpool.JdbcUrls;
import dev.slotpool.LabelingCallback;
import dev.slotpool.OriginConfig;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotState;
import dev.slotpool.Ticker;
import dev.slotpool.jdbc.ProxyConnection;
import dev.slotpool.table.EntryFilter;
import dev.slotpool.table.Parking;
import dev.slotpool.table.Slot;
import dev.slotpool.table.SlotTable;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pool: borrow and return over the {@link SlotTable}, with the JDBC concerns the table does not know
 * (origins, validation, closing, labels). Creation runs on {@link Creator} threads, timers on the
 * {@link Housekeeper}; origin operations are in {@link OriginOperations}.
 */
public final class ConnectionPool {

    /**
     * A validation needs at least this much of the borrow's time left; with less, the borrow times out and the
     * connection goes back unvalidated rather than be failed (and closed) for want of time.
     */
    private static final long MIN_VALIDATION_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Runs a driver's network-timeout task on the calling thread (the pool owns no executor). */
    private static final Executor INLINE = Runnable::run;

    final PoolConfig config;
    final String name;
    final Ticker ticker;
    final SlotTable<PooledConnection> table;
    final Events events;
    final Origins origins;
    final Creator creator;
    private final Connector connector;
    final Housekeeper housekeeper;
    final PacedDrains drains;
    final OriginOperations operations;
    private final Suspension suspension;
    final FailureDetector detector;
    final Closer closer;

    /** Live connections plus those being opened, pool-wide (S3, with the table's capacity as the hard bound). */
    final AtomicInteger occupied = new AtomicInteger();
    /** Connections being opened now. */
    final AtomicInteger creating = new AtomicInteger();
    /** Connections retired by a rebalance step that the creator still owes to under-share origins. */
    final AtomicInteger replacements = new AtomicInteger();
    final AtomicLong timeouts = new AtomicLong();
    /** Physical connections opened and closed since the start (S2: their difference is the live ones). */
    final AtomicLong openedCount = new AtomicLong();
    final AtomicLong closedCount = new AtomicLong();
    /** Bumped before and after a closed connection's borrows move to its origin's count (see {@link Snapshots}). */
    final AtomicLong retiring = new AtomicLong();
    private volatile boolean shutdown;
    private static final int OPEN = 0;
    private static final int CLOSING = 1;
    private static final int CLOSED = 2;
    /** OPEN → CLOSING by the one close() that runs (CAS); CLOSED when it returns, releasing the others. */
    private final AtomicInteger closeState = new AtomicInteger(OPEN);
    /** How long close() waits, at each of three steps, for pool threads it told to stop: creators and the
     * housekeeper, connects it interrupted, closes still in the driver. Past it they end on their own. */
    private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** Whether origins' hold times are sampled (only latency-aware balancing reads them). */
    private final boolean latencyAware;
    private final long borrowTimeoutNanos;
    private final long validateAfterIdleNanos;
    private final long validationTimeoutNanos;
    private final int validationTimeoutSeconds;
    /** Passed to the table's slow path; a field so a borrow allocates no lambda. */
    private final Runnable onShortage;

    public ConnectionPool(PoolConfig config) {
        this.config = config;
        this.name = config.name();
        this.ticker = config.ticker();
        this.table = new SlotTable<>(config.maxSize(), config.turnDuration().toNanos());
        this.events = new Events(name, config.listeners());
        this.origins = new Origins(this, config.origins());
        this.latencyAware = config.balancing() == Balancing.LATENCY;
        this.borrowTimeoutNanos = config.borrowTimeout().toNanos();
        this.validateAfterIdleNanos = config.validateAfterIdle().toNanos();
        this.validationTimeoutNanos = config.validationTimeout().toNanos();
        this.validationTimeoutSeconds = (int) Math.max(1, config.validationTimeout().toSeconds());
        this.closer = new Closer(name, (int) config.validationTimeout().toMillis());
        this.connector = new Connector(config.credentialsProvider());
        this.creator = new Creator(this);
        this.onShortage = creator::shortage;
        this.housekeeper = new Housekeeper(this);
        this.drains = new PacedDrains(origins, table, this::closeReserved,
                e -> reclaim(e, CloseReason.ORIGIN_NOT_UP));
        this.operations = new OriginOperations(this);
        this.suspension = new Suspension(this);
        this.detector = new FailureDetector(this);
        ProxyConnection.prepareClasses();
        events.started(config);
        closer.start();
        creator.start();
        housekeeper.start();
    }

    // ---- borrow ------------------------------------------------------------------------------------------

    /** Borrows a connection, waiting up to the borrow timeout. */
    public Connection borrow() throws SQLException {
        return borrow(0, 0);
    }

    /** A borrow that goes on an earlier one's clock ({@code start}, {@code deadline}), or its own when 0. */
    private Connection borrow(long start, long deadline) throws SQLException {
        EntryFilter<PooledConnection> preferred = origins.pickByWeight();
        Slot<PooledConnection> s = table.tryBorrow(preferred);
        if (s != null) {
            PooledConnection e = s.entry();
            long now = ticker.nanoTime();
            if (lendableAsIs(e, now)) {
                return lend(e, now, 0);
            }
        }
        // A connection that needs a check is checked on the clock of the slow path, so that its validation
        // counts against the borrow timeout too.
        if (start == 0) {
            start = System.nanoTime();
            deadline = start + borrowTimeoutNanos;
        }
        return borrowSlow(preferred, s, start, deadline);
    }

    /** Waits for a connection until {@code deadline}; {@code owned} is a slot already won but not checked. */
    private Connection borrowSlow(EntryFilter<PooledConnection> preferred, Slot<PooledConnection> owned,
                                  long start, long deadline) throws SQLException {
        Slot<PooledConnection> s = owned;
        while (true) {
            if (s == null) {
                checkOpen();
                try {
                    s = table.borrow(Math.max(0, deadline - System.nanoTime()), preferred, onShortage);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("pool '" + name + "': interrupted while waiting for a connection", ie);
                }
                if (s == null) {
                    checkOpen();
                    throw timeout(start);
                }
            }
            PooledConnection e = s.entry();
            long now = ticker.nanoTime();
            if (usable(e, now, start, deadline)) {
                return lend(e, now, System.nanoTime() - start);
            }
            s = null;
        }
    }

    /** Whether a connection this thread owns may be lent without closing or validating it first. */
    private boolean lendableAsIs(PooledConnection e, long now) {
        return !e.mustClose() && now - e.retireAt < 0 && !idleTooLong(e, now);
    }

    private boolean idleTooLong(PooledConnection e, long now) {
        return now - e.returnedAt >= validateAfterIdleNanos && now - e.lastValidatedAt >= validateAfterIdleNanos;
    }

    /**
     * Checks a connection this thread now owns: its origin must be UP (S7: checked after the slot CAS, so a
     * drain that returned before is seen), it must not be marked, and it is validated if it sat idle too long,
     * within the time the borrow has left ({@code deadline}, System.nanoTime). An unusable one is closed here
     * and the caller looks again; with too little time left to validate, it goes back and the borrow times out.
     */
    private boolean usable(PooledConnection e, long now, long start, long deadline) throws SQLException {
        if (e.mustClose()) {
            closeOwned(e, e.origin.isUp() ? (e.broken != null ? CloseReason.BROKEN : CloseReason.MAX_LIFETIME)
                    : CloseReason.ORIGIN_NOT_UP, false);
            return false;
        }
        if (now - e.retireAt >= 0) {
            closeOwned(e, CloseReason.MAX_LIFETIME, false);
            return false;
        }
        if (idleTooLong(e, now)) {
            // A zero borrow timeout only means "do not wait for a connection": its validation gets the full time.
            long budget = borrowTimeoutNanos == 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
            if (budget < MIN_VALIDATION_NANOS) {
                table.release(e.slot);
                throw timeout(start);
            }
            if (!validate(e, budget)) {
                closeOwned(e, CloseReason.VALIDATION_FAILED, false);
                return false;
            }
            e.lastValidatedAt = ticker.nanoTime();
        }
        return true;
    }

    private Connection lend(PooledConnection e, long now, long waitNanos) {
        // The stack costs an allocation and a stack walk: only when something will report it.
        boolean stack = config.leakTracing() || !config.leakDetectionThreshold().isZero();
        e.lend(now, Thread.currentThread(), stack ? new Throwable("borrowed here") : null);
        if (events.any()) {
            events.borrowed(e.origin.name, waitNanos);
        }
        return new ProxyConnection(e);
    }

    /** Borrows the cheapest connection for {@code labels} (see {@link LabelingCallback}). */
    public Connection borrow(Map<String, String> labels) throws SQLException {
        LabelingCallback labeling = config.labeling();
        if (labeling == null) {
            throw new SQLException("pool '" + name + "': a labeled borrow needs a labeling callback "
                    + "(SlotPoolBuilder.labeling)");
        }
        Map<String, String> requested = Map.copyOf(labels);
        // One deadline for the whole borrow: the labeled look, its validations and the plain borrow after it.
        long start = System.nanoTime();
        long deadline = start + borrowTimeoutNanos;
        Connection c = Labels.borrowCheapest(this, labeling, requested, start, deadline);
        if (c == null) {
            c = borrow(start, deadline);
        }
        return Labels.configure(this, labeling, requested, c);
    }

    /** Takes an available slot chosen by label cost, checking it like any borrow within the borrow's deadline.
     * Null if it was unusable. */
    Connection lendIfUsable(Slot<PooledConnection> s, long start, long deadline) throws SQLException {
        PooledConnection e = s.entry();
        long now = ticker.nanoTime();
        return usable(e, now, start, deadline) ? lend(e, now, System.nanoTime() - start) : null;
    }

    /**
     * Validates a connection this thread owns, within {@code budgetNanos} when that is shorter than the
     * validation timeout: the connection's network timeout is lowered for the check (drivers apply it to
     * {@code isValid} and statements), so a server that stopped answering cannot hold a borrower past its
     * borrow timeout. A failed validation does not count toward marking the origin DOWN (a firewall may have
     * killed an idle connection); it asks the failure detector for a probe. Anything the driver throws, an
     * {@code Error} included, fails the validation and the connection is closed.
     */
    private boolean validate(PooledConnection e, long budgetNanos) {
        int boundMillis = validationBoundMillis(e, budgetNanos);
        SQLException failure;
        try {
            boundMillis = lowerNetworkTimeout(e, boundMillis);
            failure = check(e);
            if (failure == null) {
                if (boundMillis > 0) {
                    e.physical.setNetworkTimeout(INLINE, e.defaults.networkTimeoutMillis());
                }
                return true;
            }
        } catch (Throwable ex) {
            failure = ex instanceof SQLException sql ? sql : new SQLException("validation failed: " + ex, ex);
        }
        e.broken = failure;
        detector.validationFailed(e.origin);
        return false;
    }

    /** The network timeout a validation within {@code budgetNanos} needs, or 0 if the connection's own settings
     * already end it in time. */
    private int validationBoundMillis(PooledConnection e, long budgetNanos) {
        if (budgetNanos >= validationTimeoutNanos) {
            return 0;
        }
        int millis = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(budgetNanos));
        int own = e.defaults.networkTimeoutMillis();
        return own > 0 && own <= millis ? 0 : millis;
    }

    /** Sets the bound as the connection's network timeout; 0 (no bound applied) where the driver has none. */
    private static int lowerNetworkTimeout(PooledConnection e, int boundMillis) throws SQLException {
        if (boundMillis == 0) {
            return 0;
        }
        try {
            e.physical.setNetworkTimeout(INLINE, boundMillis);
            return boundMillis;
        } catch (SQLFeatureNotSupportedException | UnsupportedOperationException | AbstractMethodError ex) {
            return 0;
        }
    }

    /** Runs the configured check; null if the connection is valid. */
    private SQLException check(PooledConnection e) throws SQLException {
        if (config.validationQuery() == null) {
            return e.physical.isValid(validationTimeoutSeconds) ? null
                    : new SQLException("connection is not valid (isValid returned false)", "08006");
        }
        try (var st = e.physical.createStatement()) {
            st.setQueryTimeout(validationTimeoutSeconds);
            st.execute(config.validationQuery());
            return null;
        }
    }

    /** Validates an idle connection if it wins it from borrowers; a good one goes back (to a waiter first). */
    void keepalive(PooledConnection e) {
        if (!table.tryBorrow(e.slot, e)) {
            return;
        }
        if (validate(e, Long.MAX_VALUE)) {
            e.lastValidatedAt = ticker.nanoTime();
            table.release(e.slot);
            // A validation can outlast close() (a driver call the housekeeper's join does not wait for): close()
            // sets the flag, then sweeps; this released, then reads the flag. One of the two closes it.
            if (shutdown) {
                closeIfIdle(e, CloseReason.POOL_CLOSED);
            }
        } else {
            closeOwned(e, CloseReason.VALIDATION_FAILED, false);
        }
    }

    private SQLException timeout(long start) {
        timeouts.incrementAndGet();
        PoolSnapshot snap = snapshot();
        SQLException cause = detector.currentFailure();
        String msg = "pool '" + name + "': no connection available within "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms (borrow timeout "
                + config.borrowTimeout().toMillis() + " ms); " + snap.summary()
                + (cause == null ? "" : "; last connection failure: " + cause.getMessage());
        events.emit(PoolEvent.Type.TIMEOUT, null, null, snap.summary());
        return new SQLTransientConnectionException(msg, cause == null ? null : cause.getSQLState(), cause);
    }

    private void checkOpen() throws SQLException {
        if (shutdown) {
            throw new SQLException("pool '" + name + "' is closed", "08003");
        }
    }

    // ---- return ------------------------------------------------------------------------------------------

    /** Called once per borrow by the proxy's close(), after hygiene. */
    void giveBack(PooledConnection e, long stamp) {
        if (!e.endLease(stamp)) {
            return; // aborted or reclaimed: whoever ended the borrow owns the slot and closed the connection
        }
        long now = ticker.nanoTime();
        long held = now - e.borrowedAt;
        e.heldNanosTotal += held;
        e.returnedAt = now;
        e.holder = null;
        e.borrowStack = null;
        // Every 16th return per connection, starting with the first, feeds the creator's hold-time estimate:
        // early enough for a fresh pool, rare enough not to make every return write a shared field.
        if ((e.borrowCount & 15) == 1) {
            creator.sampleHold(held);
            if (latencyAware) {
                e.origin.sampleHold(held);
            }
        }
        if (events.any()) {
            events.returned(e.origin.name, held);
        }
        if (e.mustClose() || now - e.retireAt >= 0 || shutdown) {
            closeOwned(e, closeReason(e), false);
            return;
        }
        detector.healthyReturn(e.origin);
        table.release(e.slot);
        // Dekker with drain and markDown, which store the origin's state and then visit the slots: this return
        // stored the slot's state above and reads the origin's now. If the origin left UP in between, whichever
        // comes second closes the connection: it does not wait idle for the next housekeeping visit.
        if (!e.origin.isUp()) {
            closeIfIdle(e, CloseReason.ORIGIN_NOT_UP);
        }
    }

    private CloseReason closeReason(PooledConnection e) {
        if (shutdown) {
            return CloseReason.POOL_CLOSED;
        }
        if (e.broken != null) {
            return CloseReason.BROKEN;
        }
        if (!e.origin.isUp()) {
            return CloseReason.ORIGIN_NOT_UP;
        }
        return e.retireAtReturn && e.retireReason != null ? e.retireReason : CloseReason.MAX_LIFETIME;
    }

    // ---- closing -----------------------------------------------------------------------------------------

    /** Closes the connection of a slot this thread owns (BORROWED, won by CAS, lease or hand-off). */
    void closeOwned(PooledConnection e, CloseReason reason, boolean abort) {
        table.closeOwned(e.slot);
        finishClose(e, reason, abort);
    }

    /** Closes an idle connection if this thread wins it from borrowers (AVAILABLE → CLOSING). */
    boolean closeIfIdle(PooledConnection e, CloseReason reason) {
        if (!table.tryReserveForClose(e.slot, e)) {
            return false;
        }
        finishClose(e, reason, false);
        return true;
    }

    /** Closes a connection whose slot this thread already moved to CLOSING (a paced drain's queue). */
    void closeReserved(PooledConnection e, CloseReason reason) {
        finishClose(e, reason, false);
    }

    /**
     * The borrow was ended by {@code Connection.abort} (the lease CAS made this thread the slot's owner): the
     * physical connection is aborted through the caller's executor, then closed. Not counted toward DOWN: the
     * holder chose it.
     */
    void abortedByHolder(PooledConnection e, Executor executor) {
        e.broken = new SQLException("aborted by holder");
        try {
            e.physical.abort(executor);
        } catch (Throwable ex) {
            // The connection is closed below either way.
        }
        closeOwned(e, CloseReason.BROKEN, false);
    }

    /** Takes a lent connection back from its holder (CAS on the lease, S1) and aborts it. */
    boolean reclaim(PooledConnection e, CloseReason reason) {
        if (!e.tryReclaim()) {
            return false;
        }
        Thread holder = e.holder;
        Throwable stack = e.borrowStack;
        closeOwned(e, reason, true);
        if (reason == CloseReason.ABANDONED || reason == CloseReason.TIME_TO_LIVE) {
            events.emit(PoolEvent.Type.LEAK, e.origin.name, reason, "connection held by thread '"
                    + (holder == null ? "?" : holder.getName()) + "' taken back (" + reason + ")"
                    + (stack == null ? "" : "; borrowed at:\n" + Labels.stackText(stack)));
        }
        return true;
    }

    /**
     * S2: every connection opened is closed exactly once: only the owner of a CLOSING slot gets here. The
     * {@link Closer} closes it off this thread; the slot stays CLOSING, and its room taken (S3), until the driver
     * is done. Whatever the driver throws (an {@code Error} included), the slot is emptied and the counts released.
     */
    private void finishClose(PooledConnection e, CloseReason reason, boolean abort) {
        closer.close(e.physical, abort, () -> closed(e, reason));
    }

    /** After the physical close, on the closer's thread: the slot and its room are free again (S2, S3). */
    private void closed(PooledConnection e, CloseReason reason) {
        // The connection's borrows move from its slot to its origin's count: odd while they are in neither or
        // both, so a snapshot taken meanwhile counts them once (it looks again).
        retiring.incrementAndGet();
        table.empty(e.slot);
        e.origin.retiredBorrows.addAndGet(e.borrowCount);
        e.origin.retiredStatements.retire(e.statementCache);
        retiring.incrementAndGet();
        e.origin.occupied.decrementAndGet();
        if (e.origin.parent != null) {
            e.origin.parent.occupied.decrementAndGet();
        }
        occupied.decrementAndGet();
        if (reason == CloseReason.BROKEN || reason == CloseReason.VALIDATION_FAILED) {
            e.origin.brokenCloses.incrementAndGet();
        }
        if (reason == CloseReason.BROKEN && e.broken != null && !shutdown) {
            detector.evicted(e.origin, e.broken);
        }
        closedCount.incrementAndGet();
        events.emit(PoolEvent.Type.CLOSED, e.origin.name, reason, null);
        operations.finishDrain(e.origin);
        if (!shutdown) {
            creator.signal();
        }
    }

    // ---- state -------------------------------------------------------------------------------------------

    public PoolSnapshot snapshot() {
        return Snapshots.take(this);
    }

    /** Checkpoint and restore: see {@link Suspension}. */
    public Suspension suspension() {
        return suspension;
    }

    public OriginOperations operations() {
        return operations;
    }

    boolean isShutdown() {
        return shutdown;
    }

    /**
     * Closes the pool: see {@link dev.slotpool.SlotPoolDataSource#close()}. Idempotent; a second call while the
     * first runs waits for it. Takes at most shutdownTimeout for borrowed connections and running connects
     * together, plus a second at each of three steps for pool threads still in a driver call (creators and the
     * housekeeper, interrupted connects, closes); those end on their own and close what they hold.
     */
    public void close() {
        if (!closeState.compareAndSet(OPEN, CLOSING)) {
            while (closeState.get() != CLOSED) {
                Parking.park(TimeUnit.MILLISECONDS.toNanos(10));
            }
            return;
        }
        shutdown = true;
        creator.stop();
        housekeeper.stop();
        table.shutdown();
        drains.closeAll(CloseReason.POOL_CLOSED);
        closeIdle();
        long deadline = System.nanoTime() + config.shutdownTimeout().toNanos();
        while (table.count(SlotState.BORROWED) > 0 && System.nanoTime() - deadline < 0) {
            Parking.park(TimeUnit.MILLISECONDS.toNanos(10));
        }
        table.visit((state, e) -> {
            if (state == SlotState.BORROWED) {
                reclaim(e, CloseReason.POOL_CLOSED);
            } else if (state == SlotState.AVAILABLE) {
                closeIfIdle(e, CloseReason.POOL_CLOSED);
            }
            return true;
        });
        long graceEnd = System.nanoTime() + GRACE_NANOS;
        creator.join(graceEnd);
        housekeeper.join(graceEnd);
        endAttempts(deadline);
        // A creation that published, or a keepalive that released, after the sweeps above closes its connection
        // itself (each reads the flag after its store); this sweep catches one that stored before it was told.
        closeIdle();
        closer.finish(System.nanoTime() + GRACE_NANOS);
        closeState.set(CLOSED);
    }

    /** Waits for running connects and probes until the deadline, then interrupts them and waits a little more;
     * one that ignores both outlives close() and closes what it opens (it sees the pool closed). */
    private void endAttempts(long deadline) {
        List<ConnectAttempt> running = new ArrayList<>();
        for (Origin o : origins.configured()) {
            running.addAll(o.attempts); // no new ones: the creators and the housekeeper have ended
        }
        try {
            for (ConnectAttempt a : running) {
                a.join(deadline - System.nanoTime());
            }
            running.forEach(ConnectAttempt::interrupt);
            long grace = System.nanoTime() + GRACE_NANOS;
            for (ConnectAttempt a : running) {
                a.join(grace - System.nanoTime());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** close()'s sweep of idle connections. */
    private void closeIdle() {
        table.visit((state, e) -> {
            if (state == SlotState.AVAILABLE) {
                closeIfIdle(e, CloseReason.POOL_CLOSED);
            }
            return true;
        });
    }

    /** Opens a physical connection for an origin; runs on pool threads only (S6). */
    Connection connect(Origin o) throws SQLException {
        return connector.connect(o);
    }

    /** Redacted name for messages. */
    static String describe(OriginConfig o) {
        return o.name() + " (" + JdbcUrls.redact(o.url()) + ")";
    }
}
