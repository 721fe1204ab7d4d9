package dev.slotpool.console;

import dev.slotpool.OriginSnapshot;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.console.ConsoleViews.ConsoleView;
import dev.slotpool.console.ConsoleViews.Rates;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Takes a {@link PoolSnapshot} and makes the console's view of it: borrow rates from the difference to the
 * previous sample (a sample is kept only when at least {@link #MIN_SAMPLE_NANOS} passed, so a page load between
 * two stream ticks does not turn the rate into noise), wait percentiles when known, and the event log.
 */
public final class ConsoleViewSource {

    static final long MIN_SAMPLE_NANOS = 500_000_000L;

    private final SlotPoolDataSource pool;
    private final WaitPercentiles waits;
    private final ConsoleEventLog events;
    private final LongSupplier nanoClock;

    private long lastNanos;
    private long lastBorrows;
    private Map<String, Long> lastOriginBorrows;
    private Rates rates = Rates.NONE;

    public ConsoleViewSource(SlotPoolDataSource pool, WaitPercentiles waits, ConsoleEventLog events,
                             LongSupplier nanoClock) {
        this.pool = pool;
        this.waits = waits;
        this.events = events;
        this.nanoClock = nanoClock;
    }

    /** The console's view of the pool now. */
    public ConsoleView view() {
        PoolSnapshot s = pool.snapshot();
        return ConsoleViews.view(s, rates(s), waits, events.recent());
    }

    /** The engine's snapshot, for a slot's detail. */
    PoolSnapshot snapshot() {
        return pool.snapshot();
    }

    private synchronized Rates rates(PoolSnapshot s) {
        long now = nanoClock.getAsLong();
        Map<String, Long> originBorrows = new HashMap<>();
        for (OriginSnapshot o : s.origins()) {
            originBorrows.put(o.name(), o.borrows());
        }
        if (lastOriginBorrows == null) {
            remember(now, s.borrows(), originBorrows);
        } else if (now - lastNanos >= MIN_SAMPLE_NANOS) {
            double seconds = (now - lastNanos) / 1e9;
            Map<String, Double> perOrigin = new HashMap<>();
            originBorrows.forEach((name, count) ->
                    perOrigin.put(name, Math.max(0, count - lastOriginBorrows.getOrDefault(name, count)) / seconds));
            rates = new Rates(Math.max(0, s.borrows() - lastBorrows) / seconds, perOrigin);
            remember(now, s.borrows(), originBorrows);
        }
        return rates;
    }

    private void remember(long now, long borrows, Map<String, Long> originBorrows) {
        lastNanos = now;
        lastBorrows = borrows;
        lastOriginBorrows = originBorrows;
    }
}
