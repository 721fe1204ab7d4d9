package dev.slotpool;

import dev.slotpool.pool.ConnectionPool;
import dev.slotpool.table.Parking;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A {@link SlotPoolDataSource}'s start and close: configuring (its settings still change), starting (one caller
 * builds the pool, the others wait), running, or closed before its first use. The start is won by CAS and the
 * others park meanwhile (a per-thread permit, not a lock: S4).
 */
final class DataSourceLifecycle {

    /** The state while one caller starts the pool. */
    private static final Object STARTING = new Object();
    /** The state when it was closed before its first use. */
    private static final Object CLOSED = new Object();
    private static final VarHandle STATE;
    /** How often a first use looks again while another thread starts the pool (builds it: no connect waited for). */
    private static final long START_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(DataSourceLifecycle.class, "state", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The settings: changed by the setters until the start, fixed from then on (a built pool's: its builder's
     * at build time). */
    private final SlotPoolBuilder settings;
    /** Whether {@link SlotPoolDataSource#builder()} made it: its setters say so when they refuse. */
    private final boolean built;
    /** null (configuring), {@link #STARTING}, the running {@code ConnectionPool}, or {@link #CLOSED}. */
    private volatile Object state;

    /** A pool that {@link SlotPoolBuilder#build()} started. */
    DataSourceLifecycle(SlotPoolBuilder settings, ConnectionPool started) {
        this.settings = settings;
        this.built = true;
        this.state = started;
    }

    /** An unstarted pool, configured by {@code settings} until its first use. */
    DataSourceLifecycle(SlotPoolBuilder settings) {
        this.settings = settings;
        this.built = false;
    }

    /** The running pool; null while not started, or when closed before its first use. Never starts it. */
    ConnectionPool running() {
        return state instanceof ConnectionPool pool ? pool : null;
    }

    /** A borrow from the pool, started if need be: a first use's wait for the start counts against its borrow
     * timeout. */
    Connection borrow() throws SQLException {
        if (state instanceof ConnectionPool pool) {
            return pool.borrow();
        }
        long start = settings.settings().ticker.nanoTime();
        return startedToBorrow().borrowSince(start);
    }

    /** The running pool's snapshot; before the start (or after a close before it), its name and sizes, no
     * connection and no origin. Never starts it. */
    PoolSnapshot snapshot() {
        Object s = state;
        if (s instanceof ConnectionPool pool) {
            return pool.snapshot();
        }
        return new PoolSnapshot(settings.written(Setting.NAME), s == CLOSED, settings.written(Setting.MIN_SIZE),
                settings.written(Setting.MAX_SIZE), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Optional.empty(), List.of());
    }

    /** The settings, while they may still change. */
    SlotPoolBuilder settingsBeforeStart(String property) {
        if (built) {
            throw new IllegalStateException("pool '" + settings.written(Setting.NAME) + "' was built by SlotPoolDataSource.builder(): "
                    + property + " cannot change");
        }
        if (state != null) {
            throw new IllegalStateException("pool '" + settings.written(Setting.NAME) + "' has been used (or closed): " + property
                    + " cannot change after the first getConnection");
        }
        return settings;
    }

    /** The pool for a borrow, started if need be. */
    ConnectionPool startedToBorrow() throws SQLException {
        ConnectionPool pool = start();
        if (pool == null) {
            throw new SQLException("pool '" + settings.written(Setting.NAME) + "' is closed");
        }
        return pool;
    }

    /** The pool for an operation other than a borrow, started if need be. */
    ConnectionPool started() {
        ConnectionPool pool = start();
        if (pool == null) {
            throw new IllegalStateException("pool '" + settings.written(Setting.NAME) + "' was closed before its first use");
        }
        return pool;
    }

    /** The pool for an operation with a timeout, started if need be once the timeout is checked: not negative, and
     * within the bound of the timer settings (its deadline cannot overflow; docs/configuration.md). */
    ConnectionPool started(String operation, Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.compareTo(SettingsCheck.MAX_TIMER) > 0) {
            throw new IllegalArgumentException(operation + " timeout must be between 0 and " + SettingsCheck.MAX_TIMER
                    + " (was " + timeout + ")");
        }
        return started();
    }

    /**
     * The running pool, started by the first caller to win the CAS from "configuring"; null if it was closed before
     * its first use. The start builds the pool and returns without waiting for a first connection (a Boot app's
     * DataSource is used as HikariCP's is: the pool fills in the background and each borrow waits up to its own
     * borrow timeout), so one pool serves every caller even while the database does not answer. A start that fails
     * (invalid settings) leaves it configuring, so a later call reports the same violations or, once fixed by the
     * setters, starts it.
     */
    private ConnectionPool start() {
        for (;;) {
            Object s = state;
            if (s instanceof ConnectionPool pool) {
                return pool;
            }
            if (s == CLOSED) {
                return null;
            }
            if (s == null && STATE.compareAndSet(this, null, STARTING)) {
                try {
                    ConnectionPool pool = new ConnectionPool(settings.config());
                    state = pool;
                    return pool;
                } catch (RuntimeException | Error e) {
                    state = null;
                    throw e;
                }
            }
            awaitStart();
        }
    }

    /** Closes the running pool; one not started yet is closed for good, one starting is closed once it runs. */
    void close() {
        for (;;) {
            Object s = state;
            if (s instanceof ConnectionPool pool) {
                pool.close();
                return;
            }
            if (s == CLOSED || (s == null && STATE.compareAndSet(this, null, CLOSED))) {
                return;
            }
            awaitStart(); // another thread is starting the pool: close it once it runs
        }
    }

    /** Whether the running pool's close has begun, or it was closed before its first use. */
    boolean isClosed() {
        Object s = state;
        return s == CLOSED || (s instanceof ConnectionPool pool && pool.isClosed());
    }

    /** A short park while another thread starts the pool (it builds the pool, a few milliseconds): a per-thread
     * permit, not a lock (S4). */
    private static void awaitStart() {
        Parking.park(STARTING, START_POLL_NANOS);
    }
}
