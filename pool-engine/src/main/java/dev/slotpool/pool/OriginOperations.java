package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.SlotState;
import dev.slotpool.table.Slot;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Drain, mark down, mark up and rebalance (design §2.4, seed 000's failover and rebalance operations), and the
 * automatic DOWN/UP detection. S7 is kept by the order of each operation: the origin's state is stored
 * (volatile) before any slot is visited, and every borrower re-reads the state after winning a slot, so no
 * borrow that starts after the call returns is lent a connection of a DRAINING or DOWN origin.
 */
public final class OriginOperations {

    private final ConnectionPool pool;

    OriginOperations(ConnectionPool pool) {
        this.pool = pool;
    }

    /** Planned drain: no new borrows, idle closed now, borrowed closed at return, the rest aborted at the
     * deadline; the origin turns DOWN once empty. Idempotent. */
    public void drain(String origin, Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("drain timeout must be ≥ 0 (was " + timeout + ")");
        }
        Origin o = require(origin);
        if (o.state() != OriginState.UP) {
            return;
        }
        o.abortBorrowedAt = pool.ticker.nanoTime() + timeout.toNanos();
        change(o, OriginState.DRAINING, "drain requested (timeout " + timeout.toMillis() + " ms)", false);
        sweep(o);
    }

    /** Unplanned DOWN by an operator: idle closed now, borrowed closed at return or aborted after the grace
     * period. It stays DOWN until {@link #markUp}. Idempotent. */
    public void markDown(String origin) {
        Origin o = require(origin);
        if (o.state() == OriginState.DOWN && !o.detectedDown) {
            return;
        }
        o.abortBorrowedAt = pool.ticker.nanoTime() + pool.config.downGracePeriod().toNanos();
        change(o, OriginState.DOWN, "marked down", false);
        sweep(o);
    }

    /** UP again: the origin receives connections again, up to its weight's share. Idempotent. */
    public void markUp(String origin) {
        up(require(origin), "marked up");
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
            total += resolved.getOrDefault(o, o.weight);
        }
        if (problems.isEmpty() && total == 0) {
            problems.add("at least one origin needs a weight > 0");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("rebalance rejected: " + String.join("; ", problems)
                    + " (known origins: " + known() + ")");
        }
        resolved.forEach((o, w) -> o.weight = w);
        pool.events.emit(PoolEvent.Type.REBALANCE, null, null, "weights " + weights);
        pool.creator.signal();
    }

    /** Back to the configured weights. */
    public void rebalanceToConfigured() {
        Map<String, Integer> w = new LinkedHashMap<>();
        for (Origin o : pool.origins.all()) {
            w.put(o.name, o.config.weight());
        }
        rebalance(w);
    }

    // ---- called by pool threads --------------------------------------------------------------------------

    /** A connection attempt failed: back off, remember it for timeout messages, maybe mark the origin DOWN. */
    void connectFailed(Origin o, SQLException sanitized, long now) {
        pool.lastCreationFailure = sanitized;
        int failures = o.consecutiveFailures.incrementAndGet();
        o.nextAttemptAt = now + pool.creator.backoffNanos(failures);
        // The first failure of a run is worth a warning; repeats (back-off retries, probes) only at DEBUG.
        pool.events.emit(PoolEvent.Type.CREATION_FAILED, o.name, null, sanitized.getMessage(),
                failures == 1 ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG);
        detect(o, failures, sanitized, now);
    }

    /** A validation failed on this origin: counts toward detection like a failed connect, without back-off
     * (the replacement should be attempted at once). */
    void validationFailed(Origin o, SQLException cause) {
        SQLException sanitized = Secrets.sanitize(cause, o.config, "validation failed");
        detect(o, o.consecutiveFailures.incrementAndGet(), sanitized, pool.ticker.nanoTime());
    }

    /** Marks an UP origin DOWN after {@code downAfterFailures} failures in a row (0 disables detection). */
    private void detect(Origin o, int failures, SQLException last, long now) {
        int threshold = pool.config.downAfterFailures();
        if (threshold > 0 && failures >= threshold && o.state() == OriginState.UP) {
            o.abortBorrowedAt = now + pool.config.downGracePeriod().toNanos();
            o.nextAttemptAt = now + pool.creator.backoffNanos(failures);
            change(o, OriginState.DOWN, failures + " consecutive connection failures; last: " + last.getMessage(),
                    true);
            sweep(o);
        }
    }

    /** Probes origins this pool marked DOWN by itself, on their back-off; a good probe marks them UP. */
    void probeDetectedDown(long now) {
        for (Origin o : pool.origins.all()) {
            if (!o.detectedDown || o.state() != OriginState.DOWN || now - o.nextAttemptAt < 0) {
                continue;
            }
            try (Connection c = pool.connect(o)) {
                pool.opened.incrementAndGet();
                pool.closed.incrementAndGet();
                if (c.isValid((int) Math.max(1, pool.config.validationTimeout().toSeconds()))) {
                    up(o, "probe succeeded");
                    continue;
                }
                connectFailed(o, new SQLException("origin '" + o.name + "': probe connection is not valid", "08006"),
                        pool.ticker.nanoTime());
            } catch (SQLException | RuntimeException e) {
                connectFailed(o, Secrets.sanitize(e, o.config, "probe failed"), pool.ticker.nanoTime());
            }
        }
    }

    /** Housekeeping: finish drains, and move one step toward the target shares. */
    void housekeep(long now) {
        for (Origin o : pool.origins.all()) {
            if (o.state() == OriginState.DRAINING && o.occupied.get() == 0) {
                change(o, OriginState.DOWN, "drained", false);
            }
        }
        rebalanceStep(now);
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
            occ[i] = os[i].isUp() ? os[i].occupied.get() : 0;
        }
        for (int budget = pool.config.rebalanceStep(); budget > 0; budget--) {
            int shortIdx = -1;
            int overIdx = -1;
            for (int i = 0; i < os.length; i++) {
                if (!os[i].isUp()) {
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
            if (shortIdx < 0 || overIdx < 0 || !retireOne(os[overIdx])) {
                break;
            }
            pool.replacements.incrementAndGet();
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
            if (o.isUp()) {
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
            if (os[i].isUp()) {
                double exact = (double) total * os[i].weight / upWeight;
                t[i] = (int) exact;
                remainder[i] = exact - t[i];
                assigned += t[i];
            }
        }
        for (; assigned < total; assigned++) {
            int best = -1;
            for (int i = 0; i < os.length; i++) {
                if (os[i].isUp() && (best < 0 || remainder[i] > remainder[best])) {
                    best = i;
                }
            }
            t[best]++;
            remainder[best] = -1;
        }
        return t;
    }

    /**
     * Retires one connection of the origin: an idle one at once, else (a saturated pool has none idle) a
     * borrowed one at its return, so the holder is never interrupted.
     */
    private boolean retireOne(Origin o) {
        PooledConnection borrowed = null;
        for (int i = 0, hw = pool.table.highWater(); i < hw; i++) {
            Slot<PooledConnection> s = pool.table.slot(i);
            PooledConnection e = s.entry();
            if (e == null || e.origin != o) {
                continue;
            }
            SlotState state = s.state();
            if (state == SlotState.AVAILABLE && pool.closeIfIdle(e, CloseReason.REBALANCED)) {
                return true;
            }
            if (state == SlotState.BORROWED && !e.retireAtReturn && borrowed == null) {
                borrowed = e;
            }
        }
        if (borrowed != null) {
            borrowed.retire(CloseReason.REBALANCED);
            return true;
        }
        return false;
    }

    private void up(Origin o, String reason) {
        o.detectedDown = false;
        o.consecutiveFailures.set(0);
        long now = pool.ticker.nanoTime();
        o.nextAttemptAt = now;
        o.abortBorrowedAt = now + Creator.NEVER;
        if (o.state() != OriginState.UP) {
            change(o, OriginState.UP, reason, false);
        }
        pool.creator.signal();
    }

    /** Closes the origin's idle connections and marks its borrowed ones to close at return. */
    private void sweep(Origin o) {
        for (int i = 0, hw = pool.table.highWater(); i < hw; i++) {
            Slot<PooledConnection> s = pool.table.slot(i);
            PooledConnection e = s.entry();
            if (e == null || e.origin != o) {
                continue;
            }
            if (s.state() == SlotState.AVAILABLE) {
                pool.closeIfIdle(e, CloseReason.ORIGIN_NOT_UP);
            } else if (s.state() == SlotState.BORROWED) {
                e.retire(CloseReason.ORIGIN_NOT_UP);
            }
        }
        pool.creator.signal();
    }

    private void change(Origin o, OriginState to, String reason, boolean detected) {
        OriginState from = o.state();
        o.detectedDown = detected;
        o.state(to, reason);
        pool.events.emit(PoolEvent.Type.ORIGIN_STATE, o.name, null, from + " -> " + to + ": " + reason);
    }

    private Origin require(String name) {
        Origin o = name == null ? null : pool.origins.find(name);
        if (o == null) {
            throw new IllegalArgumentException("unknown origin '" + name + "' (known origins: " + known() + ")");
        }
        return o;
    }

    private String known() {
        List<String> names = new ArrayList<>();
        for (Origin o : pool.origins.all()) {
            names.add(o.name);
        }
        return String.join(", ", names);
    }
}
