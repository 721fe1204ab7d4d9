package dev.slotpool.kernel;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;

import java.time.Instant;
import java.util.List;

/**
 * The one place user listeners are called, each call through {@link UserCode}: whatever a listener throws is
 * logged and never reaches the pool, and no listener runs while a slot is half-transitioned (callers emit
 * after the transition). Each event is also logged, on its concern's logger ({@link Loggers}) at its severity.
 */
public final class Events {

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

    /**
     * Emits to listeners and logs at the event's usual severity: a leak at WARNING; an origin's news at INFO
     * (a change to DOWN goes through {@link #originChanged}); a connection opened or closed at DEBUG; a timeout
     * or a rebalance not at all (the borrower gets the one, the other is an operator's or the pool's plan).
     */
    public void emit(PoolEvent.Type type, String origin, CloseReason reason, String detail) {
        emit(type, origin, reason, detail, switch (type) {
            case LEAK -> System.Logger.Level.WARNING;
            case ORIGIN_STATE -> System.Logger.Level.INFO;
            case CREATED, CLOSED, CREATION_FAILED -> System.Logger.Level.DEBUG;
            case LIMIT -> System.Logger.Level.DEBUG;
            case TIMEOUT, REBALANCE -> null;
        });
    }

    /** An origin's status changed: WARNING when it went DOWN, INFO otherwise (back UP is a recovery; a drain is
     * an operator's or the pool's plan). */
    public void originChanged(String origin, OriginState from, OriginState to, String reason) {
        emit(PoolEvent.Type.ORIGIN_STATE, origin, null, from + " -> " + to + ": " + reason,
                to == OriginState.DOWN ? System.Logger.Level.WARNING : System.Logger.Level.INFO);
    }

    /** Emits to listeners and logs at {@code level} (null: not logged) on the event's concern's logger. */
    public void emit(PoolEvent.Type type, String origin, CloseReason reason, String detail, System.Logger.Level level) {
        if (level != null) {
            logger(type).log(level, () -> "[" + poolName + "] " + type + " " + (origin == null ? "" : origin + ": ")
                    + (detail == null ? "" : detail) + (reason == null ? "" : " (" + reason + ")"));
        }
        if (listeners.length == 0) {
            return;
        }
        PoolEvent event = new PoolEvent(type, origin, reason, detail, Instant.now());
        for (PoolListener l : listeners) {
            userCode.onEvent(l, event);
        }
    }

    private static System.Logger logger(PoolEvent.Type type) {
        return switch (type) {
            case ORIGIN_STATE, REBALANCE -> Loggers.ORIGIN;
            case LIMIT -> Loggers.POOL;
            case LEAK -> Loggers.LEAK;
            case CREATED, CREATION_FAILED, CLOSED -> Loggers.CONNECTION;
            case TIMEOUT -> Loggers.POOL;
        };
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
