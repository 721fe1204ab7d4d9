package dev.slotpool.pool;

import dev.slotpool.BorrowObserver;
import dev.slotpool.CloseReason;
import dev.slotpool.LabelingCallback;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.Ticker;
import dev.slotpool.jdbc.ProxyConnection;
import dev.slotpool.pool.ground.Capacity;
import dev.slotpool.pool.ground.Closer;
import dev.slotpool.pool.ground.Closing;
import dev.slotpool.pool.ground.Connector;
import dev.slotpool.pool.ground.Events;
import dev.slotpool.pool.ground.HoldTime;
import dev.slotpool.pool.ground.PoolThreads;
import dev.slotpool.pool.ground.PooledConnection;
import dev.slotpool.pool.ground.SessionSetup;
import dev.slotpool.pool.ground.UserCode;
import dev.slotpool.pool.origin.DetectionRounds;
import dev.slotpool.pool.origin.FailureDetector;
import dev.slotpool.pool.origin.OriginOperations;
import dev.slotpool.pool.origin.Origins;
import dev.slotpool.pool.origin.PacedDrains;
import dev.slotpool.pool.origin.Placement;
import dev.slotpool.pool.origin.Probes;
import dev.slotpool.pool.origin.Rebalancer;
import dev.slotpool.table.EntryFilter;
import dev.slotpool.table.Parking;
import dev.slotpool.table.Slot;
import dev.slotpool.table.SlotTable;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The pool: borrow and return over the {@link SlotTable}, with the JDBC concerns the table does not know (origins,
 * validation, labels), and the pool's life from construction to close. It builds its collaborators and gives each
 * only what it needs (docs/architecture.md, "Map"): room and counts in {@link Capacity}, closes in {@link Closing},
 * creation on {@link Creator} threads, timers on the {@link Housekeeper}, origin state changes in
 * {@link OriginOperations}, detection in {@link FailureDetector}.
 */
public final class ConnectionPool {

    /**
     * A validation needs at least this much of the borrow's time left; with less, the borrow times out and the
     * connection goes back unvalidated rather than be failed (and closed) for want of time.
     */
    private static final long MIN_VALIDATION_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int OPEN = 0;
    private static final int CLOSING = 1;
    private static final int CLOSED = 2;
    private static final int FAILED = 3;

    final PoolConfig config;
    final String name;
    final Ticker ticker;
    final SlotTable<PooledConnection> table;
    final Events events;
    final Origins origins;
    final Capacity capacity;
    final Closer closer;
    final Closing closing;
    final PacedDrains drains;
    final OriginOperations operations;
    final FailureDetector detector;
    private final Validation validation;
    final Creator creator;
    final Housekeeper housekeeper;
    private final Suspension suspension;
    private final Snapshots snapshots;

    final AtomicLong timeouts = new AtomicLong();
    private volatile boolean shutdown;
    /** OPEN (or FAILED) → CLOSING by the one close() that runs (CAS); CLOSED when its steps are done, FAILED when
     * they threw, so another close() runs them again; either way the state leaves CLOSING. */
    private final AtomicInteger closeState = new AtomicInteger(OPEN);

    private final long borrowTimeoutNanos;
    private final long validateAfterIdleNanos;
    /** Wraps each borrow when configured; null (the default) costs one read. */
    private final BorrowObserver observer;
    /** Whether a borrow records its stack: an allocation and a stack walk, only when something will report it. */
    private final boolean recordStack;
    /** Passed to the table's slow path; a field so a borrow allocates no lambda. */
    private final Runnable onShortage;
    private final Returns returns;
    /** Every call into user code goes through it (docs/architecture.md, "User code"). */
    private final UserCode userCode;

    public ConnectionPool(PoolConfig config) {
        this.config = config;
        this.name = config.name();
        this.ticker = config.ticker();
        this.table = new SlotTable<>(config.maxSize(), config.turnDuration().toNanos());
        this.userCode = new UserCode(name);
        this.events = new Events(name, config.listeners(), userCode);
        this.origins = new Origins(config, events);
        this.capacity = new Capacity(config.maxSize());
        this.borrowTimeoutNanos = config.borrowTimeout().toNanos();
        this.validateAfterIdleNanos = config.validateAfterIdle().toNanos();
        this.observer = config.borrowObserver();
        this.recordStack = config.leakTracing() || !config.leakDetectionThreshold().isZero();
        this.closer = new Closer(new PoolThreads(config), (int) config.validationTimeout().toMillis());
        // These reach collaborators built after the ones they are given to; none runs before the threads start.
        Runnable wakeCreators = this::wakeCreators;
        Runnable wakeHousekeeper = this::wakeHousekeeper;
        BooleanSupplier closed = this::isShutdown;
        this.closing = new Closing(table, closer, capacity, events, this::afterClose);
        this.drains = new PacedDrains(origins, table, closing::closeReserved,
                (e, stamp) -> closing.reclaim(e, stamp, CloseReason.ORIGIN_NOT_UP));
        this.operations = new OriginOperations(config, origins, table, closing, drains,
                new Rebalancer(origins, table, config, capacity, closing, events, wakeCreators), events, wakeCreators,
                wakeHousekeeper);
        Connector connector = new Connector(config.credentialsProvider(), userCode, new SessionSetup(config));
        HoldTime holdTime = new HoldTime();
        Probes probes = new Probes(config, origins, table, capacity, closing, operations, connector, holdTime,
                wakeCreators, closed);
        this.detector = new FailureDetector(config, origins, table, operations, events, probes, wakeCreators,
                wakeHousekeeper);
        this.validation = new Validation(config, detector::validationFailed);
        this.returns = new Returns(config, table, closing, detector, events, userCode, holdTime, closed);
        Placement placement = new Placement(origins, capacity.maxSize(), detector.silenceNanos());
        Opening opening = new Opening(config, origins, table, capacity, closing, operations, detector, placement,
                events, connector, returns, closed);
        this.creator = new Creator(config, table, capacity, drains, detector, placement, opening, holdTime,
                closed);
        this.onShortage = creator::shortage;
        this.housekeeper = new Housekeeper(config, origins, table, capacity, closing, drains, operations,
                new DetectionRounds(config, origins, table, closing, detector, probes), validation, events,
                wakeCreators, closed);
        this.suspension = new Suspension(operations, this::counts, config.housekeepingPeriod());
        this.snapshots = new Snapshots(config, origins, table, capacity, closing, detector, timeouts, closed);
        ProxyConnection.prepareClasses();
        events.started(config);
        try {
            closer.start();
            creator.start();
            housekeeper.start();
        } catch (Throwable e) {
            // A pool thread that cannot start (PoolThreads) fails the pool; those already running stop.
            creator.stop();
            housekeeper.stop();
            closer.finish(System.nanoTime());
            throw e;
        }
    }

    private void wakeCreators() {
        creator.signal();
    }

    private void wakeHousekeeper() {
        housekeeper.wake();
    }

    private boolean isShutdown() {
        return shutdown;
    }

    // ---- borrow ------------------------------------------------------------------------------------------

    /** Borrows a connection, waiting up to the borrow timeout. */
    public Connection borrow() throws SQLException {
        return observer == null ? borrow(0, 0) : observed(null, 0);
    }

    /**
     * Borrows a connection on a clock started at {@code startNanos} (System.nanoTime): for a caller that asked
     * before the pool ran (a bean-style DataSource's first use, while it was being started), so that the time
     * before counts against the borrow timeout too.
     */
    public Connection borrowSince(long startNanos) throws SQLException {
        return observer == null ? borrow(startNanos, startNanos + borrowTimeoutNanos) : observed(null, startNanos);
    }

    /** A borrow wrapped by the {@link BorrowObserver}: plain ({@code labels} null, on the clock of {@code start},
     * or its own when 0) or labeled. */
    private Connection observed(Map<String, String> labels, long start) throws SQLException {
        Object started = userCode.borrowStarted(observer);
        Connection c;
        try {
            c = labels == null ? borrow(start, start == 0 ? 0 : start + borrowTimeoutNanos) : borrowLabeled(labels);
        } catch (SQLException | RuntimeException | Error ex) {
            userCode.borrowEnded(observer, started, null, -1, ex);
            throw ex;
        }
        PooledConnection e = (PooledConnection) ((ProxyConnection) c).lease();
        userCode.borrowEnded(observer, started, e.origin.name, e.lentAfterNanos, null);
        return c;
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
            closing.closeOwned(e, e.origin.isUp() ? (e.broken != null ? CloseReason.BROKEN : CloseReason.MAX_LIFETIME)
                    : CloseReason.ORIGIN_NOT_UP, false);
            return false;
        }
        if (now - e.retireAt >= 0) {
            closing.closeOwned(e, CloseReason.MAX_LIFETIME, false);
            return false;
        }
        if (idleTooLong(e, now)) {
            // A zero borrow timeout only means "do not wait for a connection": its validation gets the full time.
            long budget = borrowTimeoutNanos == 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
            if (budget < MIN_VALIDATION_NANOS) {
                table.release(e.slot);
                throw timeout(start);
            }
            if (!validation.validate(e, budget)) {
                closing.closeOwned(e, CloseReason.VALIDATION_FAILED, false);
                return false;
            }
            e.lastValidatedAt = ticker.nanoTime();
        }
        return true;
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

    /** Borrows the cheapest connection for {@code labels} (see {@link LabelingCallback}). */
    public Connection borrow(Map<String, String> labels) throws SQLException {
        return observer == null ? borrowLabeled(labels) : observed(labels, 0);
    }

    private Connection borrowLabeled(Map<String, String> labels) throws SQLException {
        LabelingCallback labeling = config.labeling();
        if (labeling == null) {
            throw new SQLException("pool '" + name + "': a labeled borrow needs a labeling callback "
                    + "(SlotPoolBuilder.labeling)");
        }
        Map<String, String> requested = Map.copyOf(labels);
        // One deadline for the whole borrow: the labeled look, its validations and the plain borrow after it.
        long start = System.nanoTime();
        long deadline = start + borrowTimeoutNanos;
        Connection c = Labels.borrowCheapest(table, this::lendIfUsable, userCode, labeling, requested, start,
                deadline);
        if (c == null) {
            c = borrow(start, deadline);
        }
        return Labels.configure(name, userCode, labeling, requested, c);
    }

    /** Takes an available slot chosen by label cost, checking it like any borrow within the borrow's deadline.
     * Null if it was unusable. */
    private Connection lendIfUsable(Slot<PooledConnection> s, long start, long deadline) throws SQLException {
        PooledConnection e = s.entry();
        long now = ticker.nanoTime();
        return usable(e, now, start, deadline) ? lend(e, now, System.nanoTime() - start) : null;
    }

    private SQLException timeout(long start) {
        timeouts.incrementAndGet();
        PoolSnapshot snap = counts();
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

    /** After a close (on the closer's thread): detection counts an eviction, a drain may end, the creators may
     * refill. */
    private void afterClose(PooledConnection e, CloseReason reason) {
        if (reason == CloseReason.BROKEN && e.broken != null && !shutdown) {
            detector.evicted(e.origin, e.broken);
        }
        operations.finishDrain(e.origin);
        if (!shutdown) {
            creator.signal();
        }
    }

    // ---- state -------------------------------------------------------------------------------------------

    public PoolSnapshot snapshot() {
        return snapshots.take();
    }

    /** The counts and states without the slots ({@link Snapshots#counts}): for a failure message or a wait. */
    private PoolSnapshot counts() {
        return snapshots.counts();
    }

    /** Whether close() has begun: borrows fail from then on. A flag read, for {@code DataSource.isClosed()}. */
    public boolean isClosed() {
        return shutdown;
    }

    /** Checkpoint and restore: see {@link Suspension}. */
    public Suspension suspension() {
        return suspension;
    }

    public OriginOperations operations() {
        return operations;
    }

    /** Waits for the first connection (see {@link FirstConnection}); closes the pool and throws if none comes. */
    public void awaitFirstConnection() {
        FirstConnection.await(config, origins, this::close);
    }

    /**
     * Closes the pool: see {@link dev.slotpool.SlotPoolDataSource#close()}. Idempotent; a second call while the
     * first runs waits for it, at most as long as a close may take ({@link Shutdown#longestNanos}). Takes at most
     * shutdownTimeout for borrowed connections and running connects together, plus a second at each of three steps
     * for pool threads still in a driver call (creators, the housekeeper and the keepalive, interrupted connects,
     * closes); those end on their own and close what they hold. A close whose steps threw leaves the pool closed
     * to borrowers, and the next close() runs the steps again (each is idempotent) rather than find the pool
     * closing for ever.
     */
    public void close() {
        long waitEnd = System.nanoTime() + Shutdown.longestNanos(config);
        while (true) {
            int s = closeState.get();
            if (s == CLOSED) {
                return;
            }
            // A single CAS decides which caller runs the steps (S4: no lock); the others wait below.
            if (s != CLOSING && closeState.compareAndSet(s, CLOSING)) {
                runShutdown();
                return;
            }
            if (s == CLOSING) {
                // The pool is already closed to borrowers (the flag is set): past the bound, or when this thread is
                // interrupted, waiting for the other close() would only hang this caller.
                if (System.nanoTime() - waitEnd >= 0 || Thread.currentThread().isInterrupted()) {
                    return;
                }
                Parking.park(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
    }

    private void runShutdown() {
        shutdown = true;
        boolean done = false;
        try {
            new Shutdown(config, table, origins, closing, drains, creator, housekeeper, closer).run();
            done = true;
        } finally {
            closeState.set(done ? CLOSED : FAILED);
        }
    }
}
