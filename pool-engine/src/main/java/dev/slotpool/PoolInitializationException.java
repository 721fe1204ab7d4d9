package dev.slotpool;

import java.util.Map;

/**
 * {@link SlotPoolBuilder#build()} could not open a first connection on any origin within
 * {@code initializationFailTimeout}; the pool it started is closed again. The message names each origin with its
 * URL (credentials redacted) and its last failure (secrets redacted); the newest failure is chained.
 */
public final class PoolInitializationException extends RuntimeException {

    private final transient Map<String, String> lastFailures;

    public PoolInitializationException(String message, Map<String, String> lastFailures, Throwable cause) {
        super(message, cause);
        this.lastFailures = Map.copyOf(lastFailures);
    }

    /** Each origin's name and its last failure (redacted), or what kept it from failing in time. */
    public Map<String, String> lastFailures() {
        return lastFailures;
    }
}
