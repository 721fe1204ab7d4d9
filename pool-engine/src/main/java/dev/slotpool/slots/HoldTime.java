package dev.slotpool.slots;

import dev.slotpool.kernel.MovingMean;

import java.util.concurrent.TimeUnit;

/**
 * The pool's mean borrow-to-return time: sampled by the return path (one return in 16 per connection), read by
 * the creators' elision rule and by the probes' idea of a stuck connection (docs/architecture.md, "Creation",
 * "Failure detection"). Written racily by many threads: racy but benign (a lost sample).
 */
public final class HoldTime {

    /** Borrowed this long (or {@link #STUCK_HOLDS} mean holds, if longer) without a return looks stuck. */
    private static final long STUCK_FLOOR_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int STUCK_HOLDS = 20;

    private final MovingMean mean = new MovingMean();

    public void sample(long nanos) {
        mean.sample(nanos);
    }

    /** The mean (0 before the first sample). */
    public long meanNanos() {
        return mean.nanos();
    }

    /** How long a connection may stay borrowed before it looks stuck: max(1 s, 20 mean holds). */
    public long stuckNanos() {
        return Math.max(STUCK_FLOOR_NANOS, STUCK_HOLDS * mean.nanos());
    }
}
