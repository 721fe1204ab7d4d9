package dev.slotpool.bench.scaling;

/**
 * Borrow waits in nanoseconds, log-linear: exact below 32 ns, then 32 buckets per power of two, so a reported
 * percentile is at most 1/32 (3.1 %) above the true value; the maximum is exact. One per held-mode thread,
 * written only by it and merged after it ended: 9 KiB each whatever the number of borrows.
 */
public final class WaitHistogram {

    private static final int SUB_BITS = 5;
    private static final int SUB_BUCKETS = 1 << SUB_BITS;
    /** Waits of 2^40 ns (18 minutes) and more share the last bucket, far beyond any borrow timeout used here. */
    private static final int MAX_EXPONENT = 40;
    static final int BUCKETS = (MAX_EXPONENT - SUB_BITS + 1) * SUB_BUCKETS;

    private final long[] counts = new long[BUCKETS];
    private long total;
    private long max;

    public void record(long nanos) {
        counts[index(nanos)]++;
        total++;
        if (nanos > max) {
            max = nanos;
        }
    }

    /** Adds another histogram's waits to this one. */
    public void add(WaitHistogram other) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += other.counts[i];
        }
        total += other.total;
        max = Math.max(max, other.max);
    }

    public long count() {
        return total;
    }

    /** The longest wait recorded, exactly; NaN when empty. */
    public double maxNanos() {
        return total == 0 ? Double.NaN : max;
    }

    /**
     * The wait that {@code quantile} (0..1) of the recorded waits do not exceed, rounded up to its bucket's top
     * (never above the maximum); NaN when empty.
     */
    public double percentileNanos(double quantile) {
        if (total == 0) {
            return Double.NaN;
        }
        long rank = Math.max(1, (long) Math.ceil(quantile * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(highestValue(i), max);
            }
        }
        return max;
    }

    static int index(long nanos) {
        if (nanos < SUB_BUCKETS) {
            return (int) Math.max(nanos, 0);
        }
        int exponent = 63 - Long.numberOfLeadingZeros(nanos);
        if (exponent >= MAX_EXPONENT) {
            return BUCKETS - 1;
        }
        int shift = exponent - SUB_BITS;
        return ((shift + 1) << SUB_BITS) + (int) ((nanos >>> shift) - SUB_BUCKETS);
    }

    /** The largest value that lands in bucket {@code index}. */
    static long highestValue(int index) {
        if (index < SUB_BUCKETS) {
            return index;
        }
        int shift = (index >>> SUB_BITS) - 1;
        long mantissa = (index & (SUB_BUCKETS - 1)) + SUB_BUCKETS;
        return ((mantissa + 1) << shift) - 1;
    }
}
