package dev.slotpool;

import java.util.Map;

/**
 * {@link SlotPoolBuilder#build()} could not open a first connection on any origin within
 * {@code initializationFailTimeout}; the pool it started is closed again. The message names each origin with its
 * URL (credentials redacted) and its last failure (secrets redacted); the newest failure is chained.
 */
public final class PoolInitializationException extends RuntimeException {

    private final transient Map<String, String> lastFailures;

    /**
     * An exception for a pool that got no first connection in time.
     *
     * @param message      what failed
     * @param lastFailures each origin's name and its last failure (redacted), or what kept it from failing in time
     * @param cause        the last failure, or null
     */
    public PoolInitializationException(String message, Map<String, String> lastFailures, Throwable cause) {
        super(message, cause);
        this.lastFailures = Map.copyOf(lastFailures);
    }

    /** {@return each origin's name and its last failure (redacted), or what kept it from failing in time} */
    public Map<String, String> lastFailures() {
        return lastFailures;
    }
}
