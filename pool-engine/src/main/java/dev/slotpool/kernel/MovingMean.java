package dev.slotpool.kernel;

/**
 * An exponentially weighted mean of durations in nanoseconds (each sample weighs 1/8), 0 until the first sample.
 * Racy but benign: a sample is a volatile read and a volatile write, so two at once may lose one; a CAS here
 * would make the returning threads that feed hold times contend.
 *
 * <p>The mean has a cache line to itself: 64 bytes of padding fields on each side (superclass fields come first
 * in the JVM's layout, subclass fields after, so the order holds). The hold-time means are written by every 16th
 * return of each connection, from every borrowing thread; a pool object read on every return that shared their
 * line (the pool's lifecycle did, in some runs) missed in the other core's cache after each such write. JOL
 * layout and the connection cycle before and after: docs/benchmarks.md, "Cache lines: the slot, the means and the
 * entry padded".
 */
public final class MovingMean extends MovingMeanValue {

    @SuppressWarnings("unused")
    private long after0, after1, after2, after3, after4, after5, after6, after7;

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

/** {@link MovingMean}'s word, after the padding before it. */
abstract class MovingMeanValue extends MovingMeanPadding {

    volatile long nanos;
}

/** The 64 bytes before {@link MovingMean}'s word. */
abstract class MovingMeanPadding {

    @SuppressWarnings("unused")
    private long before0, before1, before2, before3, before4, before5, before6, before7;
}
