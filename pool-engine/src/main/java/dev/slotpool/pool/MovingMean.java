package dev.slotpool.pool;

/**
 * An exponentially weighted mean of durations in nanoseconds (each sample weighs 1/8), 0 until the first sample.
 * Racy but benign: a sample is a volatile read and a volatile write, so two at once may lose one; a CAS here
 * would make the returning threads that feed hold times contend.
 */
final class MovingMean {

    private volatile long nanos;

    void sample(long sample) {
        long m = nanos;
        nanos = m == 0 ? Math.max(1, sample) : m + ((sample - m) >> 3);
    }

    /** The mean, or 0 before the first sample (or since {@link #reset}). */
    long nanos() {
        return nanos;
    }

    void reset() {
        nanos = 0;
    }
}
