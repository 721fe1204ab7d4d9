package dev.slotpool.sizing;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The arithmetic of one origin's adaptive limit (docs/architecture.md, "Adaptive sizing"): a gradient on the held
 * time's rise over its minimum, a growth of √limit while borrowers wait at the limit, bounded steps, and a minimum
 * that forgets only when fewer connections did not make transactions faster. Pure: fed one tick's sample at a
 * time, it keeps no clock and touches nothing shared (the {@link Sizer}'s thread alone calls it).
 */
public final class LimitController {

    /** The period the samples are expected at; a sample this many periods late follows a pause of the JVM. */
    public static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    static final int PAUSE_TICKS = 4;
    /** A held time up to this many times its minimum counts as flat. */
    static final double TOLERANCE = 1.5;
    /** The steepest shrink the gradient asks for in one tick (it never asks less than half). */
    static final double MIN_GRADIENT = 0.5;
    /** The largest fall in one tick, as a share of the limit. */
    static final double MAX_FALL = 0.25;
    /** Fewer returns than this in a tick say too little: the limit holds. */
    static final int MIN_RETURNS = 5;
    /** Shrinking ticks in a row after which a held time that did not fall resets the minimum. */
    static final int STALE_TICKS = 4;
    /** The share of the run's first held time that a fall must reach to show the shrink helped. */
    static final double STALE_FALL = 0.8;
    /** The share of the run's first limit the limit must have come down to (or the floor) for that to count. */
    static final double STALE_SHRINK = 0.75;
    /** Held times are clipped at this many minimums ({@link Gate#returned}). */
    static final int CLIP = 10;
    /** Ticks (30 s) after which a minimum measured at more than twice the floor is probed lower down, when the
     * limit is what stops borrowers. */
    static final int PROBE_TICKS = 60;
    /** A held time within this share of the minimum confirms it at the concurrency it was seen at. */
    static final double CONFIRM = 1.1;

    /** A tick's outcome: the limit to apply and why. */
    public record Step(int limit, String reason) {
    }

    private final int floor;
    private final int ceiling;
    private double limit;
    /** The lowest tick mean held time seen (0: none yet). */
    private long minHeld;
    private int shrinkRun;
    private long heldAtRunStart;
    private double limitAtRunStart;
    /** The limit the minimum was measured (or confirmed) at. */
    private int minAt = Integer.MAX_VALUE;
    /** Ticks since {@link #minAt} was set. */
    private int sinceMin;

    /**
     * @param floor   the lowest limit (at least 1)
     * @param ceiling the highest limit (the origin's cap)
     * @param initial the limit to start from, clamped to [floor, ceiling]
     */
    public LimitController(int floor, int ceiling, int initial) {
        if (floor < 1 || ceiling < floor) {
            throw new IllegalArgumentException("floor " + floor + ", ceiling " + ceiling);
        }
        this.floor = floor;
        this.ceiling = ceiling;
        this.limit = clamp(initial, floor, ceiling);
    }

    public int limit() {
        return (int) limit;
    }

    public int floor() {
        return floor;
    }

    public int ceiling() {
        return ceiling;
    }

    /** The lowest tick mean held time seen, in nanoseconds (0 before the first sample). */
    public long minHeldNanos() {
        return minHeld;
    }

    /** Where held times are clipped now. */
    public long clipNanos() {
        return minHeld == 0 ? Long.MAX_VALUE : CLIP * minHeld;
    }

    /** Sets the limit (an operator's pin; clamped to the bounds): the controller goes on from it. */
    public void reset(int to) {
        limit = clamp(to, floor, ceiling);
        shrinkRun = 0;
        sinceMin = 0;
    }

    /**
     * One tick.
     *
     * @param intervalNanos time since the last tick
     * @param returns       healthy returns in it
     * @param heldNanos     their held times, clipped, summed
     * @param waiting       whether borrowers wait that were not handed a connection
     * @param lent          the connections the origin lends now
     * @param room          the highest limit a fleet budget leaves this origin ({@link Integer#MAX_VALUE}: none)
     */
    public Step step(long intervalNanos, long returns, long heldNanos, boolean waiting, int lent, int room) {
        if (intervalNanos > PAUSE_TICKS * TICK_NANOS) {
            shrinkRun = 0;
            return new Step(limit(), "a tick " + TimeUnit.NANOSECONDS.toMillis(intervalNanos)
                    + " ms late (a pause): sample dropped, holding");
        }
        if (returns < MIN_RETURNS) {
            return new Step(limit(), returns + " returns in a tick: too few to judge, holding");
        }
        long r = Math.max(1, heldNanos / returns);
        if (minHeld == 0 || r < minHeld) {
            minHeld = r;
            minAt = limit();
            sinceMin = 0;
        } else if (r <= CONFIRM * minHeld && limit() < minAt) {
            minAt = limit();
            sinceMin = 0;
        }
        boolean demand = waiting && lent >= limit();
        if (++sinceMin >= PROBE_TICKS && minAt > 2 * floor && demand) {
            // The minimum was only ever seen at a high concurrency (after a pin, or a reset high up): it may be a
            // queue's. A quarter of the limit for a tick measures a less contended held time (a quarter, not the
            // floor, so a probe closes few connections); the limit grows back after it if that was no lower.
            int probe = Math.max(floor, limit() / 4);
            sinceMin = 0;
            shrinkRun = 0;
            limit = probe;
            return new Step(probe, "minimum last measured at " + minAt + " connections: probing at " + probe);
        }
        double ratio = (double) r / minHeld;
        double g = clamp(TOLERANCE / ratio, MIN_GRADIENT, 1.0);
        String how = String.format(Locale.ROOT, "held time %.1f× its minimum", ratio);
        if (g < 1.0) {
            if (shrinkRun++ == 0) {
                heldAtRunStart = r;
                limitAtRunStart = limit;
            } else if (shrinkRun >= STALE_TICKS && r >= STALE_FALL * heldAtRunStart
                    && (limit <= STALE_SHRINK * limitAtRunStart || limit() == floor)) {
                // Fewer connections did not make transactions faster: the rise is not queueing but a new workload
                // (or a slower app), so the minimum it was measured against is stale.
                minHeld = r;
                minAt = limit();
                sinceMin = 0;
                shrinkRun = 0;
                return new Step(limit(), how + " and not falling as the limit fell: baseline reset, holding");
            }
        } else {
            shrinkRun = 0;
        }
        // Shrink in proportion to the rise, or grow by √limit while the held time is flat and the limit is what
        // stops borrowers; the two never add up, so the limit does not settle above the tolerated rise.
        double target = g < 1.0 ? Math.max(limit * g, limit * (1 - MAX_FALL))
                : demand ? limit + Math.max(1, Math.sqrt(limit)) : limit;
        int top = Math.max(floor, Math.min(ceiling, room));
        String why;
        if (target < limit) {
            why = how + ": shrinking";
        } else if (target > limit && limit() >= top) {
            why = how + (top < ceiling ? ", at the fleet budget" : ", at the ceiling") + ": holding";
        } else if (target > limit) {
            why = how + ", borrowers waiting at the limit: growing";
        } else {
            why = how + (demand ? ": holding" : ", no borrower waiting at the limit: holding");
        }
        limit = clamp(target, floor, top);
        return new Step(limit(), why);
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
