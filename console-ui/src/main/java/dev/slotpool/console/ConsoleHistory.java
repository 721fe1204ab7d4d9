package dev.slotpool.console;

import dev.slotpool.LimitSnapshot;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.console.ConsoleViews.History;
import dev.slotpool.console.ConsoleViews.HistoryPoint;
import dev.slotpool.console.ConsoleViews.HistoryValues;
import dev.slotpool.console.ConsoleViews.Percentiles;
import dev.slotpool.console.ConsoleViews.Rates;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import static dev.slotpool.autoconfigure.PoolViews.oneDecimal;

/**
 * One pool's chart history (docs/console.md, Chart and history): the last {@link #SECONDS} seconds at one point a
 * second in a {@link HistoryRing}, shared by every page that opens. {@link #sample()} takes a snapshot and adds
 * the second's point: borrows per second since the last sample ({@link BorrowRates}), waiting borrowers, wait p99
 * ({@link WaitPercentiles}: the pool's is its slowest origin's, as the page header), connections by state and,
 * under adaptive sizing, the limit and the connections held back above it (docs/console.md, The adaptive limit),
 * for the pool and each origin. One thread samples ({@link ConsoleSampler}); any thread reads.
 */
final class ConsoleHistory {

    /** Seconds kept: 15 minutes. */
    static final int SECONDS = 900;

    static final long INTERVAL_MILLIS = 1000;

    private final Supplier<PoolSnapshot> snapshots;
    private final Supplier<List<LimitSnapshot>> limits;
    private final WaitPercentiles waits;
    private final LongSupplier nanoClock;
    private final LongSupplier wallClock;
    private final HistoryRing ring = new HistoryRing(SECONDS);
    /** Only the sampling thread uses it. */
    private final BorrowRates rates = new BorrowRates();

    /**
     * @param limits    the origins' adaptive limits ({@link dev.slotpool.SlotPoolDataSource#limits()}: empty under
     *                  fixed sizing)
     * @param nanoClock for the rates ({@link System#nanoTime()})
     * @param wallClock epoch milliseconds, for each point's second ({@link System#currentTimeMillis()})
     */
    ConsoleHistory(Supplier<PoolSnapshot> snapshots, Supplier<List<LimitSnapshot>> limits, WaitPercentiles waits,
                   LongSupplier nanoClock, LongSupplier wallClock) {
        this.snapshots = snapshots;
        this.limits = limits;
        this.waits = waits;
        this.nanoClock = nanoClock;
        this.wallClock = wallClock;
    }

    /** Takes a snapshot and records its second. Called by one thread at a time. */
    void sample() {
        PoolSnapshot s = snapshots.get();
        Map<String, LimitSnapshot> limitOf = new LinkedHashMap<>();
        limits.get().forEach(l -> limitOf.put(l.origin(), l));
        Rates r = rates.update(s, nanoClock.getAsLong());
        long second = wallClock.getAsLong() / INTERVAL_MILLIS * INTERVAL_MILLIS;
        Map<String, HistoryValues> origins = new LinkedHashMap<>();
        Double poolP99 = null;
        Integer poolLimit = null;
        Integer poolHeldBack = null;
        for (OriginSnapshot o : s.origins()) {
            Percentiles p = waits.of(s.name(), o.name());
            Double p99 = p == null ? null : p.p99Millis();
            if (p99 != null) {
                poolP99 = poolP99 == null ? p99 : Math.max(poolP99, p99);
            }
            LimitSnapshot l = limitOf.get(o.name());
            if (l != null) {
                poolLimit = (poolLimit == null ? 0 : poolLimit) + l.limit();
                poolHeldBack = (poolHeldBack == null ? 0 : poolHeldBack) + l.heldBack();
            }
            origins.put(o.name(), new HistoryValues(oneDecimal(r.of(o.name())), null, p99, o.available(),
                    o.borrowed(), o.creating(), o.closing(), l == null ? null : l.limit(),
                    l == null ? null : l.heldBack()));
        }
        HistoryValues pool = new HistoryValues(oneDecimal(r.pool()), s.waiting(), poolP99, s.available(),
                s.borrowed(), s.creating(), s.closing(), poolLimit, poolHeldBack);
        ring.put(new HistoryPoint(second, pool, Collections.unmodifiableMap(origins)));
    }

    /** The points of the last {@link #SECONDS} seconds, oldest first. */
    History history() {
        long from = wallClock.getAsLong() / INTERVAL_MILLIS * INTERVAL_MILLIS - (SECONDS - 1) * INTERVAL_MILLIS;
        return new History(INTERVAL_MILLIS, SECONDS, ring.since(from));
    }
}
