package dev.slotpool.console;

import dev.slotpool.OriginSnapshot;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.console.ConsoleViews.Rates;

import java.util.HashMap;
import java.util.Map;

/**
 * Borrows per second, the pool's and each origin's, from the borrow counts of successive snapshots. A sample is
 * kept only when at least {@link #MIN_SAMPLE_NANOS} passed since the last kept one, so two samples close together
 * (a page load between two stream ticks, a sampler catching up) do not turn the rate into noise: such a sample
 * answers the last rate. Counts that go down (an origin forgotten and seen again) count as no borrows.
 * Not thread-safe: each owner calls it from one thread or under its own lock.
 */
final class BorrowRates {

    static final long MIN_SAMPLE_NANOS = 500_000_000L;

    private long lastNanos;
    private long lastBorrows;
    private Map<String, Long> lastOriginBorrows;
    private Rates rates = Rates.NONE;

    /** The rates up to {@code s}, taken at {@code nowNanos} (a {@link System#nanoTime()} reading). */
    Rates update(PoolSnapshot s, long nowNanos) {
        Map<String, Long> originBorrows = new HashMap<>();
        for (OriginSnapshot o : s.origins()) {
            originBorrows.put(o.name(), o.borrows());
        }
        if (lastOriginBorrows == null) {
            remember(nowNanos, s.borrows(), originBorrows);
        } else if (nowNanos - lastNanos >= MIN_SAMPLE_NANOS) {
            double seconds = (nowNanos - lastNanos) / 1e9;
            Map<String, Double> perOrigin = new HashMap<>();
            originBorrows.forEach((name, count) ->
                    perOrigin.put(name, Math.max(0, count - lastOriginBorrows.getOrDefault(name, count)) / seconds));
            rates = new Rates(Math.max(0, s.borrows() - lastBorrows) / seconds, perOrigin);
            remember(nowNanos, s.borrows(), originBorrows);
        }
        return rates;
    }

    private void remember(long now, long borrows, Map<String, Long> originBorrows) {
        lastNanos = now;
        lastBorrows = borrows;
        lastOriginBorrows = originBorrows;
    }
}
