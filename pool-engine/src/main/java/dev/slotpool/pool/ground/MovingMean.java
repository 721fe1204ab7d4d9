package dev.slotpool.pool.ground;

/**
 * An exponentially weighted mean of durations in nanoseconds (each sample weighs 1/8), 0 until the first sample.
 * Racy but benign: a sample is a volatile read and a volatile write, so two at once may lose one; a CAS here
 * would make the returning threads that feed hold times contend.
 */
public final class MovingMean {

    private volatile long nanos;

    public void sample(long sample) {
        long m = nanos;
        nanos = m == 0 ? Math.max(1, sample) : m + ((sample - m) >> 3);
    }

    /** The mean, or 0 before the first sample (or since {@link #reset}). */
    public long nanos() {
        return nanos;
    }

    public void reset() {
        nanos = 0;
    }
}
