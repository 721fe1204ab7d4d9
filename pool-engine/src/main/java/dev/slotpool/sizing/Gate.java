package dev.slotpool.sizing;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * One configured origin's adaptive limit and what its returns tell the {@link Sizer} (docs/architecture.md,
 * "Adaptive sizing"). The return path writes only the two adders and, when the origin lends more than its limit,
 * takes one place of the surplus by CAS (its connection is then held back, not lent again); the {@link Sizer}'s
 * tick is the one writer of the limit, the sessions, the clip and the surplus, and the only user of the tick's
 * counts.
 */
public final class Gate {

    /** The most connections the origin may lend at once; unlimited under {@code FIXED} sizing. */
    private volatile int limit = Integer.MAX_VALUE;
    /** The most connections the origin may hold, lent, idle and held back (its cap for the creators). */
    private volatile int sessions = Integer.MAX_VALUE;
    /** Held times are clipped here (10 × the origin's minimum), so one long transaction weighs as ten. */
    private volatile long clipNanos = Long.MAX_VALUE;
    private final LongAdder returns = new LongAdder();
    private final LongAdder heldNanos = new LongAdder();
    /** Connections lent above the limit, to hold back as they come back. */
    private final AtomicInteger surplus = new AtomicInteger();

    /** The tick's count of the origin's open connections that are not held back (the tick's thread only). */
    int lendable;
    /** The tick's count of those lent now (the tick's thread only). */
    int inUse;
    /** The tick's count of its connections held back (the tick's thread only). */
    int heldBack;

    /** The most connections the origin may lend at once now. */
    public int limit() {
        return limit;
    }

    /** The most connections the origin may hold now, held back ones included: the creators' cap. */
    public int sessions() {
        return sessions;
    }

    /** A healthy return after {@code nanos} held. */
    public void returned(long nanos) {
        returns.increment();
        heldNanos.add(Math.min(nanos, clipNanos));
    }

    /** Takes one place of the surplus (CAS): true if the caller's connection is to be held back. */
    public boolean takeSurplus() {
        for (int n = surplus.get(); n > 0; n = surplus.get()) {
            if (surplus.compareAndSet(n, n - 1)) {
                return true;
            }
        }
        return false;
    }

    /** Starts the tick's count. */
    public void clearCounts() {
        lendable = 0;
        inUse = 0;
        heldBack = 0;
    }

    /** Counts one open connection of the origin ({@code lent}: borrowed now; {@code held}: held back). */
    public void count(boolean lent, boolean held) {
        if (held) {
            heldBack++;
        } else {
            lendable++;
            if (lent) {
                inUse++;
            }
        }
    }

    /** The tick's reading: returns and clipped held time since the last one, {@code [returns, heldNanos]}. */
    long[] drain() {
        return new long[] {returns.sumThenReset(), heldNanos.sumThenReset()};
    }

    /** Lowers the sessions after the tick closed held-back connections ({@link Sizer} only). */
    void lowerSessions(int by) {
        sessions -= by;
    }

    /** The tick's verdict ({@link Sizer} only): the limit, the sessions, the clip and the surplus to hold back. */
    void set(int limit, int sessions, long clipNanos, int surplus) {
        this.limit = limit;
        this.sessions = sessions;
        this.clipNanos = clipNanos;
        this.surplus.set(Math.max(0, surplus));
    }
}
