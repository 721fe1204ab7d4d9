package dev.slotpool.pool;

import dev.slotpool.Balancing;
import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.SlotState;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Drain, mark down, mark up and rebalance (docs/failover.md), and the
 * automatic DOWN/UP detection. S7 is kept by the order of each operation: the origin's state is stored
 * (volatile) before any slot is visited, and every borrower re-reads the state after winning a slot, so no
 * borrow that starts after the call returns is lent a connection of a DRAINING or DOWN origin.
 */
public final class OriginOperations {

    private final ConnectionPool pool;
    private final OriginSelector originSelector;

    OriginOperations(ConnectionPool pool) {
        this.pool = pool;
        this.originSelector = new OriginSelector(pool.origins);
    }

    /**
     * Planned drain of the origins the selector names (see {@link #select}): no new borrows; idle connections
     * closed one by one spread over the timeout (close k of n at k ÷ (n + 1) of it), or sooner when borrowers
     * wait and the pool is full; borrowed ones closed at return; those still out at the timeout aborted. Each
     * origin turns DOWN once empty. Idempotent: an origin that is not UP is left as it is.
     */
    public void drain(String selector, Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("drain timeout must be ≥ 0 (was " + timeout + ")");
        }
        for (Origin o : originSelector.resolve(selector)) {
            long now = pool.ticker.nanoTime();
            OriginStatus st = o.status();
            // Only the call whose CAS moves the origin out of UP drains it: a concurrent drain finds it DRAINING.
            if (st.state() != OriginState.UP || !change(o, st, new OriginStatus(OriginState.DRAINING,
                    "drain requested (timeout " + timeout.toMillis() + " ms)", false, now + timeout.toNanos()))) {
                continue;
            }
            if (timeout.isZero()) {
                sweep(o);
            } else {
                queueIdle(o, now, timeout.toNanos());
            }
        }
        pool.housekeeper.wake();
    }

    /** Unplanned DOWN by an operator: idle connections closed now, borrowed ones aborted after the grace period
     * (or closed at return, see {@code abortBorrowedOnDown}). It stays DOWN until {@link #markUp}. Idempotent. */
    public void markDown(String selector) {
        for (Origin o : originSelector.resolve(selector)) {
            OriginStatus st = o.status();
            OriginStatus down = new OriginStatus(OriginState.DOWN, "marked down", false,
                    pool.ticker.nanoTime() + downAbortDelay());
            while (!(st.state() == OriginState.DOWN && !st.detected()) && !change(o, st, down)) {
                st = o.status();
            }
            sweep(o);
        }
        pool.housekeeper.wake();
    }

    /** UP again: the origins receive connections again, up to their share, a rebalance step at a time.
     * Idempotent. */
    public void markUp(String selector) {
        for (Origin o : originSelector.resolve(selector)) {
            up(o, "marked up");
        }
    }

    /**
     * The names of the origins a selector names: an origin's name (a configured origin with a discovery query
     * names itself and every origin it discovered), or dimension matches {@code key=value[,key=value...]} over
     * {@code name, service, database, instance, host} (every pair must match, case-insensitively), e.g.
     * {@code host=db3}. Throws {@link IllegalArgumentException} when nothing matches or a key is unknown.
     */
    public List<String> select(String selector) {
        List<String> names = new ArrayList<>();
        for (Origin o : originSelector.resolve(selector)) {
            names.add(o.name);
        }
        return names;
    }

    /** New target weights for the named origins (others keep theirs). All or nothing: a bad map changes nothing. */
    public void rebalance(Map<String, Integer> weights) {
        if (weights == null || weights.isEmpty()) {
            throw new IllegalArgumentException("rebalance needs at least one origin weight");
        }
        List<String> problems = new ArrayList<>();
        Map<Origin, Integer> resolved = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> w : weights.entrySet()) {
            Origin o = pool.origins.find(w.getKey());
            if (o == null) {
                problems.add("unknown origin '" + w.getKey() + "'");
            } else if (w.getValue() == null || w.getValue() < 0) {
                problems.add("weight of '" + w.getKey() + "' must be ≥ 0 (was " + w.getValue() + ")");
            } else {
                resolved.put(o, w.getValue());
            }
        }
        int total = 0;
        for (Origin o : pool.origins.all()) {
            total += resolved.getOrDefault(o, o.baseWeight);
        }
        if (problems.isEmpty() && total == 0) {
            problems.add("at least one origin needs a weight > 0");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("rebalance rejected: " + String.join("; ", problems)
                    + " (known origins: " + originSelector.known() + ")");
        }
        resolved.forEach((o, w) -> {
            o.weightPinned = o.parent != null;
            o.baseWeight = w;
            o.weight = pool.config.balancing() == Balancing.LATENCY ? w * LATENCY_SCALE : w;
        });
        pool.origins.splitGroupWeights(); // a group's new weight reaches its discovered origins
        pool.events.emit(PoolEvent.Type.REBALANCE, null, null, "weights " + weights);
        pool.creator.signal();
    }

    /** Back to the configured weights; discovered origins share their group's again. */
    public void rebalanceToConfigured() {
        Map<String, Integer> w = new LinkedHashMap<>();
        for (Origin o : pool.origins.configured()) {
            w.put(o.name, o.config.weight());
        }
        for (Origin o : pool.origins.all()) {
            o.weightPinned = false;
        }
        rebalance(w);
        pool.origins.splitGroupWeights();
    }

    // ---- called by pool threads --------------------------------------------------------------------------

    /** The pool found the origin dead ({@link FailureDetector}): DOWN unless it is no longer UP. */
    void detectedDown(Origin o, String reason, long now) {
        OriginStatus st = o.status();
        if (st.state() == OriginState.UP
                && change(o, st, new OriginStatus(OriginState.DOWN, reason, true, now + downAbortDelay()))) {
            sweep(o);
        }
    }

    /** Housekeeping: finish drains, follow latency (in that mode), and move one step toward the target shares. */
    void housekeep(long now) {
        dueWork(now);
        if (pool.config.balancing() == Balancing.LATENCY) {
            followLatency();
        }
        rebalanceStep(now);
    }

    /** A discovered origin this pool marked DOWN got a new connection: its server answers again. */
    void landedOnDetectedDown(Origin o) {
        OriginStatus st = o.status();
        if (st.detected()) {
            upIfStill(o, st, "a new connection landed on it");
        }
    }

    // ---- paced drains and deadlines (housekeeper thread, and creators under demand) -------------------------

    /** Reserves the origin's idle connections for close (no borrower can take them now) and schedules them. */
    private void queueIdle(Origin o, long now, long timeoutNanos) {
        o.drainStartAt = now;
        o.drainEndAt = now + timeoutNanos;
        o.drainClosed.set(0);
        int[] queued = {0};
        pool.table.visit((state, e) -> {
            if (e.origin != o) {
                return true;
            }
            if (state == SlotState.AVAILABLE && pool.table.tryReserveForClose(e.slot, e)) {
                o.drainQueue.add(e);
                queued[0]++;
            } else if (state == SlotState.BORROWED) {
                e.retire(CloseReason.ORIGIN_NOT_UP);
            }
            return true;
        });
        o.drainTotal = queued[0];
    }

    /** Work due before the next housekeeping visit: paced drain closes, aborts at deadlines, ended drains. */
    void dueWork(long now) {
        boolean abortDue = false;
        for (Origin o : pool.origins.all()) {
            PooledConnection e;
            while (o.drainClosed.get() < closesDue(o, now) && (e = o.drainQueue.poll()) != null) {
                o.drainClosed.incrementAndGet();
                pool.closeReserved(e, CloseReason.ORIGIN_NOT_UP);
            }
            abortDue |= !o.isUp() && o.occupied.get() > 0 && now - o.status().abortBorrowedAt() >= 0;
        }
        if (abortDue) {
            pool.table.visit((state, e) -> {
                OriginStatus st = e.origin.status();
                if (state == SlotState.BORROWED && e.lent() && st.state() != OriginState.UP
                        && now - st.abortBorrowedAt() >= 0) {
                    pool.reclaim(e, CloseReason.ORIGIN_NOT_UP);
                }
                return true;
            });
        }
        for (Origin o : pool.origins.all()) {
            finishDrain(o);
        }
        for (Origin o : pool.origins.configured()) {
            finishDrain(o);
        }
    }

    /** DRAINING → DOWN once empty, by CAS: a markUp or markDown that came first wins. Called by the
     * housekeeper, and by whoever closes or gives up a drained origin's last connection (which may come after
     * the housekeeper's last look). */
    void finishDrain(Origin o) {
        OriginStatus st = o.status();
        if (st.state() == OriginState.DRAINING && o.occupied.get() == 0) {
            change(o, st, new OriginStatus(OriginState.DOWN, "drained", false, st.abortBorrowedAt()));
        }
    }

    /** How many of a paced drain's closes are due by now: k of n at start + span × k ÷ (n + 1). */
    private static int closesDue(Origin o, long now) {
        long span = o.drainEndAt - o.drainStartAt;
        if (o.drainQueue.isEmpty() || span <= 0) {
            return o.drainClosed.get();
        }
        double part = (double) (now - o.drainStartAt) / span;
        return (int) Math.min(o.drainTotal, Math.floor(part * (o.drainTotal + 1)));
    }

    /** The next instant (ticker time) at which {@link #dueWork} has something to do, or far in the future. */
    long nextDue(long now) {
        long due = now + Creator.NEVER;
        for (Origin o : pool.origins.all()) {
            if (!o.drainQueue.isEmpty() && o.drainTotal > 0) {
                int next = o.drainClosed.get() + 1;
                long at = o.drainStartAt + (long) ((double) (o.drainEndAt - o.drainStartAt) * next / (o.drainTotal + 1));
                due = Math.min(due, at);
            }
            long abortAt = o.status().abortBorrowedAt();
            if (!o.isUp() && o.occupied.get() > 0 && abortAt - now > 0) {
                due = Math.min(due, abortAt);
            }
        }
        return due;
    }

    /** Whether a paced drain holds connections (read on a borrower's slow path only). */
    boolean drainsQueued() {
        for (Origin o : pool.origins.all()) {
            if (!o.drainQueue.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Closes one connection a paced drain still holds, so a waiting borrower can get a new one elsewhere. */
    boolean closeOneDraining() {
        for (Origin o : pool.origins.all()) {
            PooledConnection e = o.drainQueue.poll();
            if (e != null) {
                o.drainClosed.incrementAndGet();
                pool.closeReserved(e, CloseReason.ORIGIN_NOT_UP);
                return true;
            }
        }
        return false;
    }

    /** Closes every connection paced drains still hold (pool close, DOWN or UP during a drain). */
    void closeDrainQueues(CloseReason reason) {
        for (Origin o : pool.origins.all()) {
            closeQueue(o, reason);
        }
    }

    private void closeQueue(Origin o, CloseReason reason) {
        PooledConnection e;
        while ((e = o.drainQueue.poll()) != null) {
            o.drainClosed.incrementAndGet();
            pool.closeReserved(e, reason);
        }
    }

    // ---- latency-aware balancing ---------------------------------------------------------------------------

    /** Effective weights are base × this × the latency factor, so a factor of 0.37 still has two digits. */
    static final int LATENCY_SCALE = 100;

    /**
     * Scales each UP origin's weight by (fastest mean hold ÷ its mean hold) × (1 − its share of broken closes
     * since the last visit), floored at 1 so a slowed origin keeps a trickle of borrows that shows when it
     * recovers. An origin without samples yet keeps its base weight. Reports a change of 10 % or more.
     */
    private void followLatency() {
        Origin[] os = pool.origins.all();
        long fastest = Long.MAX_VALUE;
        for (Origin o : os) {
            if (o.isUp() && o.holdTime.nanos() > 0) {
                fastest = Math.min(fastest, o.holdTime.nanos());
            }
        }
        StringBuilder changed = new StringBuilder();
        for (Origin o : os) {
            long samples = o.holdSamples;
            long broken = o.brokenCloses.get();
            long newSamples = samples - o.seenSamples;
            long newBroken = broken - o.seenBroken;
            o.seenSamples = samples;
            o.seenBroken = broken;
            if (!o.isUp() || o.baseWeight == 0 || o.holdTime.nanos() == 0 || fastest == Long.MAX_VALUE) {
                o.weight = o.baseWeight * LATENCY_SCALE;
                continue;
            }
            // Samples are one return in 16 per connection; scale back to returns for the error share.
            double errorShare = (double) newBroken / Math.max(1, newSamples * 16 + newBroken);
            double factor = (double) fastest / o.holdTime.nanos() * (1 - errorShare);
            int w = (int) Math.max(1, Math.round(o.baseWeight * LATENCY_SCALE * factor));
            int old = o.weight;
            o.weight = w;
            if (Math.abs(w - old) * 10 >= Math.max(1, old)) {
                changed.append(changed.length() == 0 ? "" : ", ").append(o.name).append('=').append(w);
            }
        }
        if (changed.length() > 0) {
            pool.events.emit(PoolEvent.Type.REBALANCE, null, null, "latency-aware weights " + changed);
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
    private void rebalanceStep(long now) {
        Origin[] os = pool.origins.all();
        int[] target = targets(os);
        if (target == null || pool.replacements.get() > 0) {
            return;
        }
        int[] occ = new int[os.length];
        for (int i = 0; i < os.length; i++) {
            occ[i] = placeable(os[i]) ? os[i].occupied.get() : 0;
        }
        for (int budget = pool.config.rebalanceStep(); budget > 0; budget--) {
            int shortIdx = -1;
            int overIdx = -1;
            for (int i = 0; i < os.length; i++) {
                if (!placeable(os[i])) {
                    continue;
                }
                if (occ[i] < target[i] && os[i].hasRoom(pool.config.maxSize(), now)
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
            pool.replacements.incrementAndGet();
            if (!retireOne(os[overIdx])) {
                pool.replacements.updateAndGet(r -> Math.max(0, r - 1));
                break;
            }
            occ[overIdx]--;
            occ[shortIdx]++;
        }
        pool.creator.signal();
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
     * Retires one connection of the origin: an idle one at once, else (a saturated pool has none idle) a
     * borrowed one at its return, so the holder is never interrupted.
     */
    private boolean retireOne(Origin o) {
        PooledConnection[] borrowed = {null};
        boolean[] closed = {false};
        pool.table.visit((state, e) -> {
            if (e.origin != o) {
                return true;
            }
            if (state == SlotState.AVAILABLE && pool.closeIfIdle(e, CloseReason.REBALANCED)) {
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

    /**
     * Takes every origin out of service for a checkpoint ({@link Suspension}): DOWN as by an operator (so neither
     * the creator nor a probe opens a connection), idle connections closed now, borrowed ones closed at return and
     * aborted {@code abortAfter} from now. Returns the origins to bring back at {@link #resumeAll}: those that were
     * UP, or DOWN by the pool's own detection (an operator's DOWN or drain stays as the operator left it).
     */
    List<Origin> suspendAll(String reason, Duration abortAfter) {
        List<Origin> resume = new ArrayList<>();
        for (Origin o : pool.origins.all()) {
            OriginStatus down = new OriginStatus(OriginState.DOWN, reason, false,
                    pool.ticker.nanoTime() + abortAfter.toNanos());
            OriginStatus st = o.status();
            while (!change(o, st, down)) {
                st = o.status();
            }
            if (st.state() == OriginState.UP || st.detected()) {
                resume.add(o);
            }
            sweep(o);
        }
        pool.housekeeper.wake();
        return resume;
    }

    /** UP again after a checkpoint, each origin {@link #suspendAll} returned; the creator refills to minSize. */
    void resumeAll(List<Origin> origins, String reason) {
        for (Origin o : origins) {
            up(o, reason);
        }
    }

    /** UP by an operator: wins over any state. */
    private void up(Origin o, String reason) {
        OriginStatus st = o.status();
        while (st.state() != OriginState.UP && !change(o, st, OriginStatus.up(reason, pool.ticker.nanoTime()))) {
            st = o.status();
        }
        afterUp(o);
    }

    /** UP by the pool's own finding, only if the status is still {@code expected}: an operator's markDown or
     * drain in the meantime wins. */
    void upIfStill(Origin o, OriginStatus expected, String reason) {
        if (change(o, expected, OriginStatus.up(reason, pool.ticker.nanoTime()))) {
            afterUp(o);
        }
    }

    private void afterUp(Origin o) {
        closeQueue(o, CloseReason.ORIGIN_NOT_UP);
        o.connectFailures.set(0);
        o.brokenInARow.set(0);
        o.lastFailure = null;
        o.nextAttemptAt = pool.ticker.nanoTime();
        pool.creator.signal();
    }

    /** Closes the origin's idle connections (a paced drain's too) and marks its borrowed ones to close at
     * return. */
    private void sweep(Origin o) {
        closeQueue(o, CloseReason.ORIGIN_NOT_UP);
        pool.table.visit((state, e) -> {
            if (e.origin == o && state == SlotState.AVAILABLE) {
                pool.closeIfIdle(e, CloseReason.ORIGIN_NOT_UP);
            } else if (e.origin == o && state == SlotState.BORROWED) {
                e.retire(CloseReason.ORIGIN_NOT_UP);
            }
            return true;
        });
        pool.creator.signal();
    }

    /** One status change by CAS (volatile), reported if it won. */
    private boolean change(Origin o, OriginStatus from, OriginStatus to) {
        if (!o.changeStatus(from, to)) {
            return false;
        }
        if (o.parent != null) {
            pool.origins.splitGroupWeights(); // its group's weight is split among its UP origins
        }
        pool.events.emit(PoolEvent.Type.ORIGIN_STATE, o.name, null, from.state() + " -> " + to.state() + ": "
                + to.reason());
        return true;
    }

    private long downAbortDelay() {
        return pool.config.abortBorrowedOnDown() ? pool.config.downGracePeriod().toNanos() : Creator.NEVER;
    }
}
