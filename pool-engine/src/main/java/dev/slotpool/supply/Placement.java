package dev.slotpool.supply;

import dev.slotpool.OriginState;
import dev.slotpool.failover.FailureDetector;
import dev.slotpool.kernel.MovingMean;
import dev.slotpool.origins.ConnectAttempt;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.OriginStatus;
import dev.slotpool.origins.Origins;

import java.util.concurrent.TimeUnit;

/**
 * Where the creators open the next connection: the UP origin with room whose live count is lowest relative to its
 * weight, skipping origins the {@link FailureDetector} doubts or backs off, and one connect at a time to an origin
 * not known to answer. Keeps the pool's mean connect time, which says when a connect under way is slow.
 */
final class Placement {

    /** Before any connect succeeded, one running this long is slow. */
    private static final long COLD_SLOW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final Origins origins;
    private final int maxSize;
    private final long silenceNanos;
    /** Written racily by the connect threads: racy but benign (a lost sample). */
    private final MovingMean connectTime = new MovingMean();

    public Placement(Origins origins, int maxSize, long silenceNanos) {
        this.origins = origins;
        this.maxSize = maxSize;
        this.silenceNanos = silenceNanos;
    }

    public void sampleConnect(long nanos) {
        connectTime.sample(nanos);
    }

    /** The pool's mean connect time (0 before the first connect). */
    public long meanConnectNanos() {
        return connectTime.nanos();
    }

    /** The UP origin with room whose occupancy is lowest relative to its weight (ties: first listed). */
    public Origin choose(long now) {
        Origin best = null;
        for (Origin o : origins.configured()) {
            if (o.state() != OriginState.UP || o.weight <= 0 || !o.hasRoom(maxSize, now)
                    || attempt(o, now) == Attempt.SKIP) {
                continue;
            }
            if (best == null || (long) o.occupied.get() * best.weight < (long) best.occupied.get() * o.weight) {
                best = o;
            }
        }
        // The connection belongs there; its origin's connect under way will tell soon (it wakes this thread).
        return best == null || attempt(best, now) == Attempt.WAIT ? null : best;
    }

    /** Whether an UP origin with a weight is below its cap (its maxConnections, or what adaptive sizing leaves
     * it): a creation could be placed, back-off and connects under way aside. Racy reads, for a wake-up only. */
    public boolean anyBelowCap() {
        for (Origin o : origins.configured()) {
            if (o.state() == OriginState.UP && o.weight > 0 && o.occupied.get() < o.cap(maxSize)) {
                return true;
            }
        }
        return false;
    }

    private enum Attempt { ACCEPT, WAIT, SKIP }

    /**
     * Whether a new connect to this origin may start now. An origin whose probe is wanted or running, or whose
     * connect under way runs slow (past 4 × the pool's mean connect time, or 100 ms before there is one), is
     * skipped: the creators go to the other origins, and a silent origin holds at most one pool thread. An
     * origin not known to answer (no connect since its last failure) with a connect under way is waited for, one
     * attempt at a time: placement by weight stays exact during a fill. One known to answer takes connects side by
     * side.
     */
    private Attempt attempt(Origin o, long now) {
        if (o.health.probeWanted()) {
            return Attempt.SKIP;
        }
        Attempt verdict = Attempt.ACCEPT;
        for (ConnectAttempt a : o.health.attempts()) {
            if (a.probe || now - a.startedAt >= slowNanos()) {
                return Attempt.SKIP;
            }
            if (o.health.meanConnectNanos() == 0) {
                verdict = Attempt.WAIT;
            }
        }
        return verdict;
    }

    /**
     * Looks again once a creation is listed, as {@link #attempt} looked before: false if a probe was claimed or
     * wanted since, or if the origin is not known to answer and another attempt was listed before this one (the
     * list's order decides between creators that chose it at once). Dekker: this reads after its own listing
     * (volatile), and {@code Probes} claims {@code o.probing} before it reads the list, another creator lists before
     * it reads: of two that race, at least one sees the other.
     */
    public boolean mayStart(Origin o, ConnectAttempt mine) {
        if (o.health.probeWanted() || o.health.probing()) {
            return false;
        }
        return o.health.meanConnectNanos() != 0 || o.health.attempts().peek() == mine;
    }

    /** A connect running longer than this is slow (see {@link #attempt}); at most silenceTimeout. */
    private long slowNanos() {
        long mean = connectTime.nanos();
        long slow = mean > 0 ? 4 * mean : COLD_SLOW_NANOS;
        return Math.min(slow, silenceNanos);
    }

    /** How long until a choice may change by itself: a back-off ends, or a connect under way turns slow (a
     * connect that ends wakes the creators sooner). Far in the future when nothing is pending. */
    public long untilChange(long now) {
        long until = OriginStatus.NEVER;
        long slow = slowNanos();
        for (Origin o : origins.configured()) {
            long backoff = o.health.nextAttemptAt() - now;
            if (backoff > 0 && (o.isUp() || o.status().detected())) {
                until = Math.min(until, backoff);
            }
            for (ConnectAttempt a : o.health.attempts()) {
                long slowIn = a.startedAt + slow - now;
                if (slowIn > 0) {
                    until = Math.min(until, slowIn);
                }
            }
        }
        return until;
    }
}
