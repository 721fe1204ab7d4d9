package dev.slotpool.origins;

import dev.slotpool.Balancing;
import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.Ticker;
import dev.slotpool.kernel.Events;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The pool's origins and the weighted choice among them. Two views: the configured origins, where the creator
 * opens connections, and the origins connections belong to (borrows, snapshots, operations): the configured
 * ones, except those with a discovery query, plus every origin such a query has named. The second array grows
 * by copy and CAS, never changed in place, so readers see a consistent set without a lock.
 */
public final class Origins {

    private final Ticker ticker;
    private final Events events;
    private final boolean latency;
    private final int validationTimeoutSeconds;
    private final String driverClassName;
    private final Origin[] configured;
    /** The origins connections belong to, with their borrow filters; replaced whole (copy and CAS). */
    /** Replaced whole by CAS when an origin is discovered or forgotten (identity: a borrow may keep it). */
    private final AtomicReference<Origin[]> lending;
    /** Since when (ticker time) each discovered origin has had no connection (housekeeper thread only). */
    private final Map<Origin, Long> emptySince = new HashMap<>();
    /** Discovered origins whose weight an operator's rebalance set: not split from their group's. Replaced whole
     * (copy and CAS) by a rebalance or a forget; read by {@link #splitGroupWeights}. */
    private final AtomicReference<Set<Origin>> pinned = new AtomicReference<>(Set.of());

    public Origins(PoolConfig config, Events events) {
        this.ticker = config.ticker();
        this.events = events;
        this.latency = config.balancing() == Balancing.LATENCY;
        this.validationTimeoutSeconds = (int) Math.max(1, config.validationTimeout().toSeconds());
        this.driverClassName = config.driverClassName();
        List<Origin> list = new ArrayList<>();
        List<Origin> lenders = new ArrayList<>();
        for (OriginConfig c : config.origins()) {
            Origin o = new Origin(c, Origin.driverFor(c, driverClassName), Origin.connectProperties(c), ticker.nanoTime(),
                    null);
            scaleForLatency(o);
            list.add(o);
            if (!o.discovers()) {
                lenders.add(o);
            }
        }
        this.configured = list.toArray(new Origin[0]);
        this.lending = new AtomicReference<>(lenders.toArray(new Origin[0]));
    }

    /** The origins connections belong to: the configured ones without a discovery query, and the discovered
     * ones (not the discovery sources, whose connections belong to the origin each landed on). */
    public Origin[] lending() {
        return lending.get();
    }

    /**
     * Whether the pool forgot this discovered origin ({@link #forgetEmpty}): it is no longer among the origins
     * connections belong to, and never will be again (a server found again is a new origin). A connection landing
     * on it is not lent.
     */
    public boolean forgotten(Origin o) {
        return o.parent != null && !Arrays.asList(lending()).contains(o);
    }

    /**
     * An operator's rebalance sets the origin's weight; a discovered origin named keeps it from then on, no longer
     * split from its group's ({@link #unpinAll} undoes that). Callers split the group weights after.
     */
    public void setWeight(Origin o, int w) {
        if (o.parent != null) {
            pinned.getAndUpdate(s -> Stream.concat(s.stream(), Stream.of(o)).collect(Collectors.toUnmodifiableSet()));
        }
        o.baseWeight = w;
        o.weight = latency ? w * Origin.LATENCY_SCALE : w;
    }

    /** Back to the group's split for every discovered origin a rebalance named. */
    public void unpinAll() {
        pinned.set(Set.of());
    }

    /** The configured origins, where creators open connections. */
    public Origin[] configured() {
        return configured;
    }

    /** An origin connections belong to, or a configured one with a discovery query; null if none. */
    public Origin find(String name) {
        for (Origin o : lending()) {
            if (o.name.equals(name)) {
                return o;
            }
        }
        for (Origin o : configured) {
            if (o.name.equals(name)) {
                return o;
            }
        }
        return null;
    }

    /**
     * Runs the discovery query of {@code via} on a new connection and returns the origin it landed on, adding
     * it on first sight (UP, with {@code via}'s weight). A name already taken by an origin of another group is
     * prefixed with {@code via}'s name.
     */
    public Origin landed(Origin via, Connection c) throws SQLException {
        DiscoveryQuery.Answer a = DiscoveryQuery.run(via, c, validationTimeoutSeconds);
        return discovered(via, a.name(), a.dimensions());
    }

    private Origin discovered(Origin via, String reported, String[] dims) {
        while (true) {
            Origin[] cur = lending.get();
            Origin same = named(cur, reported);
            if (same != null && same.parent == via) {
                return same;
            }
            String name = same == null && named(configured, reported) == null ? reported : via.name + "." + reported;
            Origin prefixed = named(cur, name);
            if (prefixed != null) {
                return prefixed;
            }
            OriginConfig config = via.config.discovered(name, dims[0], dims[1], dims[2], dims[3]);
            Origin found = new Origin(config, via.driver, via.connectProperties, ticker.nanoTime(), via);
            scaleForLatency(found);
            Origin[] next = Arrays.copyOf(cur, cur.length + 1);
            next[cur.length] = found;
            if (lending.compareAndSet(cur, next)) {
                events.emit(PoolEvent.Type.ORIGIN_STATE, found.name, null,
                        "discovered through origin '" + via.name + "' -> UP");
                splitGroupWeights();
                return found;
            }
        }
    }

    /**
     * Splits each discovery group's weight evenly among its UP origins that no rebalance named (at least 1 each
     * while the group's weight is not 0), so a group of n servers gets its configured share of borrows, not n
     * times it. Racy but benign: two callers compute the same split from the same state.
     */
    public void splitGroupWeights() {
        Origin[] os = lending();
        Set<Origin> pinned = this.pinned.get();
        for (Origin group : configured) {
            if (!group.discovers()) {
                continue;
            }
            int live = 0;
            for (Origin o : os) {
                if (o.parent == group && o.isUp() && !pinned.contains(o)) {
                    live++;
                }
            }
            if (live == 0) {
                continue;
            }
            int share = group.baseWeight == 0 ? 0 : Math.max(1, group.baseWeight / live);
            for (Origin o : os) {
                if (o.parent == group && !pinned.contains(o) && o.baseWeight != share) {
                    o.baseWeight = share;
                    o.weight = latency ? share * Origin.LATENCY_SCALE : share;
                }
            }
        }
    }

    /**
     * Forgets discovered origins that have had no connection for {@code afterNanos} (their server left the
     * group's URL) unless an operator holds them DOWN or DRAINING, whose decision must outlive a quiet spell.
     * Housekeeper only. A connection that lands on a forgotten origin meanwhile is closed, not lent.
     */
    public void forgetEmpty(long now, long afterNanos) {
        for (Origin o : lending()) {
            if (o.parent == null) {
                continue;
            }
            OriginStatus st = o.status();
            boolean held = st.state() == OriginState.DRAINING || (st.state() == OriginState.DOWN && !st.detected());
            if (o.occupied.get() > 0 || held) {
                emptySince.remove(o);
                continue;
            }
            Long since = emptySince.putIfAbsent(o, now);
            if (since != null && now - since >= afterNanos) {
                emptySince.remove(o); // forgotten for good: a server found again is a new origin
                forget(o, afterNanos);
            }
        }
    }

    private void forget(Origin o, long afterNanos) {
        while (true) {
            Origin[] was = lending.get();
            List<Origin> rest = new ArrayList<>(Arrays.asList(was));
            if (!rest.remove(o)) {
                return;
            }
            if (lending.compareAndSet(was, rest.toArray(new Origin[0]))) {
                pinned.getAndUpdate(s -> s.stream().filter(p -> p != o).collect(Collectors.toUnmodifiableSet()));
                events.emit(PoolEvent.Type.ORIGIN_STATE, o.name, null, o.state() + " -> forgotten: no connection "
                        + "for " + TimeUnit.NANOSECONDS.toSeconds(afterNanos) + " s");
                splitGroupWeights();
                return;
            }
        }
    }

    /** Under latency-aware balancing every weight is in hundredths of the base weight (see OriginOperations). */
    private void scaleForLatency(Origin o) {
        if (latency) {
            o.weight = o.baseWeight * Origin.LATENCY_SCALE;
        }
    }

    private static Origin named(Origin[] origins, String name) {
        for (Origin o : origins) {
            if (o.name.equals(name)) {
                return o;
            }
        }
        return null;
    }

    /** Sum of the weights of UP origins. */
    public int upWeight() {
        int total = 0;
        for (Origin o : lending()) {
            if (o.isUp()) {
                total += o.weight;
            }
        }
        return total;
    }

}
