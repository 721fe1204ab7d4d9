package dev.slotpool.failover;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.SlotState;
import dev.slotpool.kernel.Events;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.Origins;
import dev.slotpool.slots.Capacity;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.slots.Signals;
import dev.slotpool.table.SlotTable;

/**
 * Moves connections toward the origins' target shares, one bounded step per housekeeping visit, and in
 * latency-aware mode first sets each origin's weight from its hold times and broken closes (docs/failover.md,
 * "What each operation guarantees", "Latency-aware balancing"). Runs on the housekeeper thread; given only the parts of the pool it reads or acts through.
 */
final class Rebalancer {

    private final Origins origins;
    private final SlotTable<PooledConnection> table;
    private final PoolConfig config;
    /** Connections retired by a step that the creator still owes to under-share origins (shared with it). */
    private final Capacity capacity;
    private final Events events;
    /** Closes an idle connection if it wins it from borrowers (entry-checked). */
    private final Closing closing;
    private final Signals signals;

    Rebalancer(Origins origins, SlotTable<PooledConnection> table, PoolConfig config, Capacity capacity,
                      Closing closing, Events events, Signals signals) {
        this.origins = origins;
        this.table = table;
        this.config = config;
        this.capacity = capacity;
        this.events = events;
        this.closing = closing;
        this.signals = signals;
    }

    /**
     * Scales each UP origin's weight by (fastest mean hold ÷ its mean hold) × (1 − its share of broken closes
     * since the last visit), floored at 1 so a slowed origin keeps a trickle of borrows that shows when it
     * recovers. An origin without samples yet keeps its base weight. Reports a change of 10 % or more.
     */
    void followLatency() {
        Origin[] os = origins.lending();
        long fastest = Long.MAX_VALUE;
        for (Origin o : os) {
            if (o.isUp() && o.load.meanHoldNanos() > 0) {
                fastest = Math.min(fastest, o.load.meanHoldNanos());
            }
        }
        StringBuilder changed = new StringBuilder();
        for (Origin o : os) {
            double errorShare = o.load.brokenShareSinceLastLook();
            if (!o.isUp() || o.baseWeight == 0 || o.load.meanHoldNanos() == 0 || fastest == Long.MAX_VALUE) {
                o.weight = o.baseWeight * Origin.LATENCY_SCALE;
                continue;
            }
            double factor = (double) fastest / o.load.meanHoldNanos() * (1 - errorShare);
            int w = (int) Math.max(1, Math.round(o.baseWeight * Origin.LATENCY_SCALE * factor));
            int old = o.weight;
            o.weight = w;
            if (Math.abs(w - old) * 10 >= Math.max(1, old)) {
                changed.append(changed.length() == 0 ? "" : ", ").append(o.name).append('=').append(w);
            }
        }
        if (changed.length() > 0) {
            events.emit(PoolEvent.Type.REBALANCE, null, null, "latency-aware weights " + changed);
        }
    }

    /**
     * One bounded step toward the target shares: integer targets by largest remainder over the UP origins'
     * connections; while an origin below its target can receive a connection now (UP, room, not backing off),
     * retire one connection of the origin furthest above its target (idle at once, else borrowed at its return)
     * and owe a replacement, which the creator places on the origin lowest relative to its weight. At most
     * {@code rebalanceStep} per visit; each retired connection is replaced, so capacity does not drop, and a
     * failing origin causes no churn while it backs off.
     */
    void step(long now) {
        Origin[] os = origins.lending();
        int[] target = targets(os);
        if (target == null || capacity.replacementsOwed() > 0) {
            return;
        }
        int[] occ = new int[os.length];
        for (int i = 0; i < os.length; i++) {
            occ[i] = placeable(os[i]) ? os[i].occupied.get() : 0;
        }
        for (int budget = config.rebalanceStep(); budget > 0; budget--) {
            int shortIdx = -1;
            int overIdx = -1;
            for (int i = 0; i < os.length; i++) {
                if (!placeable(os[i])) {
                    continue;
                }
                if (occ[i] < target[i] && os[i].hasRoom(config.maxSize(), now)
                        && (shortIdx < 0 || target[i] - occ[i] > target[shortIdx] - occ[shortIdx])) {
                    shortIdx = i;
                }
                if (occ[i] > target[i] && (overIdx < 0 || occ[i] - target[i] > occ[overIdx] - target[overIdx])) {
                    overIdx = i;
                }
            }
            if (shortIdx < 0 || overIdx < 0) {
                break;
            }
            // Owed before the retirement: an idle close wakes a creator at once, which must see the debt.
            capacity.oweReplacement();
            if (!shedOne(os[overIdx])) {
                capacity.replacementSettled();
                break;
            }
            occ[overIdx]--;
            occ[shortIdx]++;
        }
        signals.creationWanted();
    }

    /** Integer connection targets per origin (largest remainder over the UP origins' live connections). */
    private static int[] targets(Origin[] os) {
        int total = 0;
        int upWeight = 0;
        for (Origin o : os) {
            if (placeable(o)) {
                total += o.occupied.get();
                upWeight += o.weight;
            }
        }
        if (total == 0 || upWeight == 0) {
            return null;
        }
        int[] t = new int[os.length];
        double[] remainder = new double[os.length];
        int assigned = 0;
        for (int i = 0; i < os.length; i++) {
            if (placeable(os[i])) {
                double exact = (double) total * os[i].weight / upWeight;
                t[i] = (int) exact;
                remainder[i] = exact - t[i];
                assigned += t[i];
            }
        }
        for (; assigned < total; assigned++) {
            int best = -1;
            for (int i = 0; i < os.length; i++) {
                if (placeable(os[i]) && (best < 0 || remainder[i] > remainder[best])) {
                    best = i;
                }
            }
            t[best]++;
            remainder[best] = -1;
        }
        return t;
    }

    /** UP and reachable by placement: a discovered origin is not (connections land where the URL sends them). */
    private static boolean placeable(Origin o) {
        return o.isUp() && o.parent == null;
    }

    /**
     * Sheds one connection of the origin: an idle one at once, else (a saturated pool has none idle) a
     * borrowed one at its return, so the holder is never interrupted.
     */
    private boolean shedOne(Origin o) {
        PooledConnection[] borrowed = {null};
        boolean[] closed = {false};
        table.visit((state, e) -> {
            if (e.origin != o) {
                return true;
            }
            if (state == SlotState.AVAILABLE && closing.closeIfIdle(e, CloseReason.REBALANCED)) {
                closed[0] = true;
                return false;
            }
            if (state == SlotState.BORROWED && !e.retireAtReturn && borrowed[0] == null) {
                borrowed[0] = e;
            }
            return true;
        });
        if (closed[0]) {
            return true;
        }
        if (borrowed[0] != null) {
            borrowed[0].retire(CloseReason.REBALANCED);
            return true;
        }
        return false;
    }
}
