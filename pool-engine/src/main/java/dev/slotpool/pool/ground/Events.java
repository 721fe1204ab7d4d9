package dev.slotpool.pool.ground;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;

import java.time.Instant;
import java.util.List;

/**
 * The one place user listeners are called, each call through {@link UserCode}: whatever a listener throws is
 * logged and never reaches the pool, and no listener runs while a slot is half-transitioned (callers emit
 * after the transition).
 */
public final class Events {

    private static final System.Logger LOG = System.getLogger("dev.slotpool");

    private final String poolName;
    private final PoolListener[] listeners;
    private final UserCode userCode;

    public Events(String poolName, List<PoolListener> listeners, UserCode userCode) {
        this.poolName = poolName;
        this.listeners = listeners.toArray(new PoolListener[0]);
        this.userCode = userCode;
    }

    /** Tells every listener the pool is starting (before any thread of the pool runs). */
    public void started(PoolConfig config) {
        for (PoolListener l : listeners) {
            userCode.onStart(l, config);
        }
    }

    /** Whether any listener is registered: the hot path checks this before building anything. */
    public boolean any() {
        return listeners.length > 0;
    }

    /** Emits to listeners; origin state changes and leaks are also logged at WARNING. */
    public void emit(PoolEvent.Type type, String origin, CloseReason reason, String detail) {
        boolean warn = type == PoolEvent.Type.ORIGIN_STATE || type == PoolEvent.Type.LEAK;
        emit(type, origin, reason, detail, warn ? System.Logger.Level.WARNING : null);
    }

    /** Emits to listeners and logs at {@code level} (null: not logged). */
    public void emit(PoolEvent.Type type, String origin, CloseReason reason, String detail, System.Logger.Level level) {
        if (level != null) {
            LOG.log(level, () -> "[" + poolName + "] " + type + " " + origin + ": " + detail);
        }
        if (listeners.length == 0) {
            return;
        }
        PoolEvent event = new PoolEvent(type, origin, reason, detail, Instant.now());
        for (PoolListener l : listeners) {
            userCode.onEvent(l, event);
        }
    }

    public void borrowed(String origin, long waitNanos) {
        for (PoolListener l : listeners) {
            userCode.onBorrow(l, origin, waitNanos);
        }
    }

    public void returned(String origin, long heldNanos) {
        for (PoolListener l : listeners) {
            userCode.onReturn(l, origin, heldNanos);
        }
    }
}
