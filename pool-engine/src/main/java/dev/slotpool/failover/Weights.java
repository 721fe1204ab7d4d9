package dev.slotpool.failover;

import dev.slotpool.OriginConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.kernel.Events;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.OriginSelector;
import dev.slotpool.origins.Origins;
import dev.slotpool.slots.Signals;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An operator's target weights: set for the named origins, or back to the configured ones. The creators and the
 * rebalancer move the connections toward them; no origin's status changes here (that is {@link OriginOperations}').
 */
public final class Weights {

    private final Origins origins;
    private final OriginSelector selector;
    private final Events events;
    private final Signals signals;

    Weights(Origins origins, Events events, Signals signals) {
        this.origins = origins;
        this.selector = new OriginSelector(origins::lending, origins::find);
        this.events = events;
        this.signals = signals;
    }

    /** New target weights for the named origins (others keep theirs). All or nothing: a bad map (one whose weights
     * would add up to more than {@link OriginConfig#MAX_TOTAL_WEIGHT} too) changes nothing. */
    public void rebalance(Map<String, Integer> weights) {
        Map<Origin, Integer> resolved = selector.weights(weights);
        long total = 0;
        for (Origin o : origins.lending()) {
            total += resolved.getOrDefault(o, o.weight);
        }
        if (total > OriginConfig.MAX_TOTAL_WEIGHT) {
            throw new IllegalArgumentException("rebalance rejected: the weights add up to " + total + ", more than "
                    + OriginConfig.MAX_TOTAL_WEIGHT);
        }
        resolved.forEach(origins::setWeight);
        origins.splitGroupWeights(); // a group's new weight reaches its discovered origins
        events.emit(PoolEvent.Type.REBALANCE, null, null, "weights " + weights);
        signals.creationWanted();
    }

    /** Back to the configured weights; discovered origins share their group's again. */
    public void rebalanceToConfigured() {
        Map<String, Integer> w = new LinkedHashMap<>();
        for (Origin o : origins.configured()) {
            w.put(o.name, o.config.weight());
        }
        origins.unpinAll();
        rebalance(w);
        origins.splitGroupWeights();
    }
}
