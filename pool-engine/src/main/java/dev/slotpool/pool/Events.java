package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;

import java.time.Instant;
import java.util.List;

/**
 * The one place user listeners are called: every call is guarded so a listener's exception is
 * logged and never reaches the pool, and no listener runs while a slot is half-transitioned (callers emit
 * after the transition).
 */
final class Events {

    private static final System.Logger LOG = System.getLogger("dev.slotpool");

    private final String poolName;
    private final PoolListener[] listeners;

    Events(String poolName, List<PoolListener> listeners) {
        this.poolName = poolName;
        this.listeners = listeners.toArray(new PoolListener[0]);
    }

    /** Tells every listener the pool is starting (before any thread of the pool runs). */
    void started(PoolConfig config) {
        for (PoolListener l : listeners) {
            try {
                l.onStart(config);
            } catch (RuntimeException | LinkageError | AssertionError e) {
                report(l, e);
            }
        }
    }

    /** Whether any listener is registered: the hot path checks this before building anything. */
    boolean any() {
        return listeners.length > 0;
    }

    /** Emits to listeners; origin state changes and leaks are also logged at WARNING. */
    void emit(PoolEvent.Type type, String origin, CloseReason reason, String detail) {
        boolean warn = type == PoolEvent.Type.ORIGIN_STATE || type == PoolEvent.Type.LEAK;
        emit(type, origin, reason, detail, warn ? System.Logger.Level.WARNING : null);
    }

    /** Emits to listeners and logs at {@code level} (null: not logged). */
    void emit(PoolEvent.Type type, String origin, CloseReason reason, String detail, System.Logger.Level level) {
        if (level != null) {
            LOG.log(level, () -> "[" + poolName + "] " + type + " " + origin + ": " + detail);
        }
        if (listeners.length == 0) {
            return;
        }
        PoolEvent event = new PoolEvent(type, origin, reason, detail, Instant.now());
        for (PoolListener l : listeners) {
            try {
                l.onEvent(event);
            } catch (RuntimeException | LinkageError | AssertionError e) {
                report(l, e);
            }
        }
    }

    void borrowed(String origin, long waitNanos) {
        for (PoolListener l : listeners) {
            try {
                l.onBorrow(origin, waitNanos);
            } catch (RuntimeException | LinkageError | AssertionError e) {
                report(l, e);
            }
        }
    }

    void returned(String origin, long heldNanos) {
        for (PoolListener l : listeners) {
            try {
                l.onReturn(origin, heldNanos);
            } catch (RuntimeException | LinkageError | AssertionError e) {
                report(l, e);
            }
        }
    }

    private void report(PoolListener l, Throwable e) {
        LOG.log(System.Logger.Level.WARNING, "[" + poolName + "] listener " + l.getClass().getName() + " failed", e);
    }

    /** A borrow observer threw: logged, never passed to the borrower. */
    void observerFailed(Throwable e) {
        LOG.log(System.Logger.Level.WARNING, "[" + poolName + "] borrow observer failed", e);
    }
}
