package dev.slotpool.sizing;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The arithmetic of one origin's adaptive limit (docs/architecture.md, "Adaptive sizing"): it looks for the fewest
 * connections that give (nearly) the most throughput, on steps that double from the floor to the ceiling. From the
 * floor it doubles the limit while each doubling raises throughput by at least {@link #GAIN}, then holds the
 * smallest limit within {@link #NEAR_BEST} of the best it measured; while holding, it probes one step up now and
 * then. A workload that changes under it (throughput or held time {@link #CHANGE} times off for {@link #CHANGE_TICKS}
 * ticks) or a released pin starts the search again from where the limit is: halving while throughput holds, then
 * doubling while it rises.
 * Pure: fed one tick's sample at a time, it keeps no clock and touches nothing shared (the {@link Sizer}'s thread
 * alone calls it).
 */
public final class LimitController {

    /** The period the samples are expected at; a sample this many periods late follows a pause of the JVM. */
    public static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    static final int PAUSE_TICKS = 4;
    /** Fewer returns than this in a tick say too little: the limit holds. */
    static final int MIN_RETURNS = 5;
    /** The least rise of throughput a doubling must bring to be kept. */
    static final double GAIN = 0.05;
    /** A limit whose throughput is within this share of the best measured is as good, and the smallest such is
     * held. */
    static final double NEAR_BEST = 0.97;
    /** A throughput or held time this many times above or below what the held limit measured is a change of
     * workload (far beyond a tick's noise on a busy machine, which moved throughput by a quarter)... */
    static final double CHANGE = 1.5;
    /** ...when it lasts this many ticks in a row. */
    static final int CHANGE_TICKS = 2;
    /** Ticks held (with borrowers waiting at the limit) between two probes one step up. */
    static final int PROBE_TICKS = 10;
    /** Held times are clipped at this many minimums ({@link Gate#returned}). */
    static final int CLIP = 10;
    /** The weight of a tick in a held limit's running throughput and held time. */
    private static final double SMOOTHING = 0.3;

    /** A tick's outcome: the limit to apply and why. */
    public record Step(int limit, String reason) {
    }

    private enum Mode {
        /** Doubling while throughput rises. */
        SEARCH,
        /** Halving while throughput holds, from where a change or a released pin found the limit. */
        DESCENT,
        /** At the chosen step, watching for a change. */
        HOLD,
        /** One step above the held one, for one measured tick. */
        PROBE
    }

    private final int floor;
    private final int ceiling;
    /** The steps: the floor doubled up to the ceiling, the ceiling last. */
    private final int[] steps;
    /** Throughput (per second) measured at each step since the search began; 0: not measured. */
    private final double[] throughput;
    /** Mean held time (ns) measured at each step since the search began. */
    private final double[] heldTime;
    private Mode mode = Mode.SEARCH;
    /** The step the limit is at; -1 while an operator's pin puts it off the steps. */
    private int at;
    /** The step held before a probe; the step a descent began at. */
    private int heldAt;
    private int limit;
    /** The highest limit now: the ceiling, or less when a fleet budget leaves less. */
    private int top;
    /** The first tick after a change of the limit measures the change, not the limit: it is skipped. */
    private boolean settling;
    private int changeTicks;
    private int sinceProbe;
    /** The lowest tick mean held time seen since the search began (0: none yet). */
    private long minHeld;

    /**
     * @param floor   the lowest limit (at least 1)
     * @param ceiling the highest limit (the origin's cap)
     */
    public LimitController(int floor, int ceiling) {
        if (floor < 1 || ceiling < floor) {
            throw new IllegalArgumentException("floor " + floor + ", ceiling " + ceiling);
        }
        this.floor = floor;
        this.ceiling = ceiling;
        int n = 1;
        for (long v = floor; v < ceiling; v *= 2) {
            n++;
        }
        this.steps = new int[n];
        long v = floor;
        for (int i = 0; i < n; i++, v *= 2) {
            steps[i] = (int) Math.min(v, ceiling);
        }
        this.throughput = new double[n];
        this.heldTime = new double[n];
        this.limit = floor;
        this.top = ceiling;
    }

    public int limit() {
        return limit;
    }

    public int floor() {
        return floor;
    }

    public int ceiling() {
        return ceiling;
    }

    /** The lowest tick mean held time seen since the search last began, in nanoseconds (0 before any). */
    public long minHeldNanos() {
        return minHeld;
    }

    /** Where held times are clipped now. */
    public long clipNanos() {
        return minHeld == 0 ? Long.MAX_VALUE : CLIP * minHeld;
    }

    /** Sets the limit (an operator's pin, clamped to the bounds); once the pin is released, the next tick starts
     * the search again from the step at or below it. */
    public void reset(int to) {
        limit = Math.max(floor, Math.min(ceiling, to));
        at = -1;
        mode = Mode.HOLD;
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
        top = Math.max(floor, Math.min(ceiling, room));
        if (at < 0) {
            return search(stepAtOrBelow(limit), "the pin released");
        }
        if (at(at) != limit) {
            return moveTo(at, mode == Mode.PROBE ? Mode.HOLD : mode, "the fleet budget leaves " + top + ": "
                    + (at(at) < limit ? "down" : "back up") + " to " + at(at));
        }
        if (intervalNanos > PAUSE_TICKS * TICK_NANOS) {
            settling = true;
            return hold("a tick " + TimeUnit.NANOSECONDS.toMillis(intervalNanos)
                    + " ms late (a pause): sample dropped, holding");
        }
        if (returns < MIN_RETURNS) {
            return hold(returns + " returns in a tick: too few to judge, holding");
        }
        long r = Math.max(1, heldNanos / returns);
        if (minHeld == 0 || r < minHeld) {
            minHeld = r;
        }
        if (settling) {
            settling = false;
            return hold("the limit just moved to " + limit + ": settling");
        }
        double x = returns * 1e9 / intervalNanos;
        boolean demand = waiting && lent >= limit;
        return switch (mode) {
            case SEARCH -> searched(x, r, demand);
            case DESCENT -> descended(x, r, demand);
            case HOLD -> holding(x, r, demand);
            case PROBE -> probed(x, r, demand);
        };
    }

    private Step searched(double x, long r, boolean demand) {
        throughput[at] = x;
        heldTime[at] = r;
        boolean gained = at == 0 || x >= throughput[at - 1] * (1 + GAIN);
        if (gained && demand && limit < top && at + 1 < steps.length) {
            return moveTo(at + 1, Mode.SEARCH, String.format(Locale.ROOT, "%s at %d: growing", tx(x), limit));
        }
        int best = smallestNearBest();
        String why = !gained ? String.format(Locale.ROOT, "%s at %d, %s at %d: no gain", tx(x), limit,
                tx(throughput[at - 1]), at(at - 1))
                : !demand ? "no borrower waiting at the limit" : limit == ceiling ? "at the ceiling" : "at the fleet budget";
        return moveTo(best, Mode.HOLD, why + "; holding " + at(best) + " (" + tx(throughput[best]) + ")");
    }

    private Step descended(double x, long r, boolean demand) {
        throughput[at] = x;
        heldTime[at] = r;
        int best = smallestNearBest();
        if (best == at && at > 0) {
            return moveTo(at - 1, Mode.DESCENT, String.format(Locale.ROOT, "%s at %d: trying %d", tx(x), limit,
                    at(at - 1)));
        }
        if (at == heldAt - 1 && best == heldAt && demand && at(heldAt) < top && heldAt + 1 < steps.length) {
            // Halving the first time cost throughput: the limit may be too low, not too high.
            return moveTo(heldAt + 1, Mode.SEARCH, String.format(Locale.ROOT, "%s at %d, %s at %d: trying %d",
                    tx(x), limit, tx(throughput[heldAt]), at(heldAt), at(heldAt + 1)));
        }
        return moveTo(best, Mode.HOLD, String.format(Locale.ROOT, "%s at %d: holding %d (%s)", tx(x), limit,
                at(best), tx(throughput[best])));
    }

    private Step holding(double x, long r, boolean demand) {
        if (throughput[at] == 0) {
            throughput[at] = x;
            heldTime[at] = r;
        }
        if (off(x, throughput[at]) || off(r, heldTime[at])) {
            if (++changeTicks >= CHANGE_TICKS) {
                return search(at, String.format(Locale.ROOT, "%s and %.1f ms held at %d, against %s and %.1f ms: the "
                        + "workload changed", tx(x), r / 1e6, limit, tx(throughput[at]), heldTime[at] / 1e6));
            }
            return hold(String.format(Locale.ROOT, "%s at %d, against %s: watching", tx(x), limit,
                    tx(throughput[at])));
        }
        changeTicks = 0;
        throughput[at] += SMOOTHING * (x - throughput[at]);
        heldTime[at] += SMOOTHING * (r - heldTime[at]);
        if (!demand) {
            return hold(String.format(Locale.ROOT, "%s at %d, no borrower waiting at the limit: holding",
                    tx(throughput[at]), limit));
        }
        if (++sinceProbe >= PROBE_TICKS && limit < top && at + 1 < steps.length) {
            heldAt = at;
            return moveTo(at + 1, Mode.PROBE, String.format(Locale.ROOT, "%s at %d: probing %d", tx(x), limit,
                    at(at + 1)));
        }
        return hold(String.format(Locale.ROOT, "%s at %d: holding", tx(throughput[at]), limit));
    }

    private Step probed(double x, long r, boolean demand) {
        throughput[at] = x;
        heldTime[at] = r;
        if (x >= throughput[heldAt] * (1 + GAIN)) {
            if (demand && limit < top && at + 1 < steps.length) {
                return moveTo(at + 1, Mode.SEARCH, String.format(Locale.ROOT, "probe: %s at %d against %s at %d: "
                        + "growing", tx(x), limit, tx(throughput[heldAt]), at(heldAt)));
            }
            return moveTo(at, Mode.HOLD, String.format(Locale.ROOT, "probe: %s at %d against %s at %d: holding %d",
                    tx(x), limit, tx(throughput[heldAt]), at(heldAt), limit));
        }
        return moveTo(heldAt, Mode.HOLD, String.format(Locale.ROOT, "probe: %s at %d against %s at %d: no gain, "
                + "back", tx(x), limit, tx(throughput[heldAt]), at(heldAt)));
    }

    /** Forgets what was measured and searches again from step {@code from}: down first while throughput holds
     * (from the floor, up). */
    private Step search(int from, String why) {
        Arrays.fill(throughput, 0);
        Arrays.fill(heldTime, 0);
        minHeld = 0;
        heldAt = from;
        return moveTo(from, from == 0 ? Mode.SEARCH : Mode.DESCENT, why + ": searching again from " + at(from));
    }

    private Step moveTo(int step, Mode next, String why) {
        int before = limit;
        at = step;
        mode = next;
        limit = at(step);
        changeTicks = 0;
        if (next != Mode.PROBE) {
            sinceProbe = 0;
        }
        settling = limit != before;
        return new Step(limit, why);
    }

    private Step hold(String why) {
        return new Step(limit, why);
    }

    /** The smallest measured step whose throughput is within {@link #NEAR_BEST} of the best measured. */
    private int smallestNearBest() {
        double best = 0;
        for (double x : throughput) {
            best = Math.max(best, x);
        }
        for (int i = 0; i < throughput.length; i++) {
            if (throughput[i] > 0 && throughput[i] >= NEAR_BEST * best) {
                return i;
            }
        }
        return at;
    }

    /** The highest step at or below {@code limit}. */
    private int stepAtOrBelow(int limit) {
        int i = 0;
        while (i + 1 < steps.length && steps[i + 1] <= limit) {
            i++;
        }
        return i;
    }

    /** The limit at a step: the step's, within the top. */
    private int at(int step) {
        return Math.min(steps[step], top);
    }

    private static boolean off(double now, double measured) {
        return measured > 0 && (now > CHANGE * measured || now * CHANGE < measured);
    }

    private static String tx(double perSecond) {
        return String.format(Locale.ROOT, "%.0f tx/s", perSecond);
    }
}
