package dev.slotpool.bench;

import java.time.Duration;

/**
 * The settings every pool in a comparison gets, mapped onto each pool's own names by {@link PoolKind}. Anything
 * a pool does by default beyond these (e.g. DBCP2 validating on borrow) is left as the pool ships it and
 * documented in docs/benchmarks.md, never silently toggled.
 *
 * @param url           JDBC URL (the stub driver: {@code jdbc:stub:<name>?...})
 * @param minIdle       connections kept open when idle (also the initial size)
 * @param maxSize       most connections
 * @param borrowTimeout longest a borrow may wait
 */
public record PoolSettings(String url, int minIdle, int maxSize, Duration borrowTimeout) {

    /** A fixed-size pool of {@code size} connections (the thread-scaling and JMH setups). */
    public static PoolSettings fixed(String url, int size, Duration borrowTimeout) {
        return new PoolSettings(url, size, size, borrowTimeout);
    }
}
