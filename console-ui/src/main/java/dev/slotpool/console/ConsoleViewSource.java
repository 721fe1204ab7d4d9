package dev.slotpool.console;

import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.PoolAccessPolicy;
import dev.slotpool.autoconfigure.PoolViews;
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
    private final PoolViews.Reader reader;

    private final BorrowRates rates = new BorrowRates();

    /** {@code showUrls}: whether the page's data carries origin URLs ({@link ConsoleSettings#showUrls()}). */
    public ConsoleViewSource(SlotPoolDataSource pool, WaitPercentiles waits, ConsoleEventLog events,
                             LongSupplier nanoClock, boolean showUrls) {
        this.pool = pool;
        this.waits = waits;
        this.events = events;
        this.nanoClock = nanoClock;
        this.reader = ConsoleViews.everyReader(showUrls, PoolAccessPolicy.forReaders(pool.config()));
    }

    /** The console's view of the pool now, as every reader may see it. */
    public ConsoleView view() {
        PoolSnapshot s = pool.snapshot();
        return ConsoleViews.view(System.currentTimeMillis(), s, pool.limits(), rates(s), waits, events.recent(),
                reader);
    }

    /** An event of the log as every reader may see it. */
    ConsoleViews.EventRow forReaders(ConsoleViews.EventRow e) {
        return ConsoleViews.forReaders(e, reader);
    }

    /**
     * A reader of this pool's console: the page's data has every reader's ({@code seesHolders} false); a slot's
     * detail and an action's answer are one request's.
     */
    PoolViews.Reader reader(boolean seesHolders) {
        return seesHolders ? new PoolViews.Reader(true, reader.url(), reader.forReaders()) : reader;
    }

    /** The event log the page shows (the auto-configured pool's; an empty one for the others). */
    ConsoleEventLog events() {
        return events;
    }

    /** The engine's snapshot, for a slot's detail and the event log's known origins. */
    PoolSnapshot snapshot() {
        return pool.snapshot();
    }

    private synchronized Rates rates(PoolSnapshot s) {
        return rates.update(s, nanoClock.getAsLong());
    }
}
