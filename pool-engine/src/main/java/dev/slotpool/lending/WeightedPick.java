package dev.slotpool.lending;

import dev.slotpool.origins.Origin;
import dev.slotpool.origins.Origins;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.table.EntryFilter;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Which origin a borrow prefers: an UP origin that takes writes, picked at random in proportion to its weight.
 * Weighted random needs no shared counter on the borrow path: over many borrows each origin's share of borrows
 * tends to its share of the weights, as far as it has available connections (the creator places connections by
 * the same weights).
 */
final class WeightedPick {

    private final Origins origins;
    /** The origins connections belong to and, at the same index, the filter of a borrow that prefers one: made
     * once per change of {@link Origins#lending()} (compared by identity), so a borrow allocates nothing. Racy
     * but benign: two borrowers that meet a change may both build it, and keep the same filters. */
    private volatile Filters filters;

    WeightedPick(Origins origins) {
        this.origins = origins;
    }

    /** The filter of the origin picked, or null when there is nothing to choose (one origin, or all weights zero). */
    EntryFilter<PooledConnection> pick() {
        Origin[] os = origins.lending();
        if (os.length < 2) {
            return null;
        }
        int total = 0;
        for (Origin o : os) {
            if (o.isUp() && o.takesWrites()) {
                total += o.weight;
            }
        }
        if (total <= 0) {
            return null;
        }
        int r = ThreadLocalRandom.current().nextInt(total);
        for (int i = 0; i < os.length; i++) {
            if (os[i].isUp() && os[i].takesWrites()) {
                r -= os[i].weight;
                if (r < 0) {
                    return filtersOf(os)[i];
                }
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private EntryFilter<PooledConnection>[] filtersOf(Origin[] os) {
        Filters f = filters;
        if (f == null || f.origins != os) {
            EntryFilter<PooledConnection>[] made = new EntryFilter[os.length];
            for (int i = 0; i < os.length; i++) {
                made[i] = PooledConnection.of(os[i]);
            }
            f = new Filters(os, made);
            filters = f;
        }
        return f.filters;
    }

    private record Filters(Origin[] origins, EntryFilter<PooledConnection>[] filters) {
    }
}
