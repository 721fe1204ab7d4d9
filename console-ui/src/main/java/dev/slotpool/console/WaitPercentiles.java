package dev.slotpool.console;

import dev.slotpool.console.ConsoleViews.Percentiles;

/**
 * Where the console reads borrow-wait percentiles: the {@code slotpool.borrow.wait} timer when Micrometer and a
 * MeterRegistry are present ({@link MeterWaitPercentiles}), else {@link #NONE} and the page omits them.
 */
@FunctionalInterface
public interface WaitPercentiles {

    /** No percentiles known. */
    WaitPercentiles NONE = (pool, origin) -> null;

    /** The origin's p50 and p99, or null when unknown. */
    Percentiles of(String pool, String origin);
}
