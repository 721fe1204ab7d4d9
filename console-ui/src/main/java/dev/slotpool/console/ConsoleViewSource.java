package dev.slotpool.console;

import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.console.ConsoleViews.ConsoleView;
import dev.slotpool.console.ConsoleViews.Rates;

import java.util.function.LongSupplier;

/**
 * Takes a {@link PoolSnapshot} and makes the console's view of it: borrow rates from the difference to the
 * previous sample ({@link BorrowRates}), wait percentiles when known, and the event log.
 */
public final class ConsoleViewSource {

    private final SlotPoolDataSource pool;
    private final WaitPercentiles waits;
    private final ConsoleEventLog events;
    private final LongSupplier nanoClock;

    private final BorrowRates rates = new BorrowRates();

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

    /** The event log the page shows (the auto-configured pool's; an empty one for the others). */
    ConsoleEventLog events() {
        return events;
    }

    /** The engine's snapshot, for a slot's detail. */
    PoolSnapshot snapshot() {
        return pool.snapshot();
    }

    private synchronized Rates rates(PoolSnapshot s) {
        return rates.update(s, nanoClock.getAsLong());
    }
}
