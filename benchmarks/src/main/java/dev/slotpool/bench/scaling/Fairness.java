package dev.slotpool.bench.scaling;

import java.util.Arrays;

/**
 * How evenly the window's borrows were spread over the threads. A pool can post a huge throughput by letting
 * two threads recycle the same connection while the rest starve; these numbers expose that.
 *
 * @param min     fewest borrows of one thread
 * @param median  median borrows per thread
 * @param max     most borrows of one thread
 * @param starved threads below 25 % of the median; when the median is 0, threads with no borrow at all
 */
public record Fairness(long min, double median, long max, int starved) {

    public static Fairness of(long[] borrowsPerThread) {
        long[] sorted = borrowsPerThread.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
        int starved = 0;
        for (long b : sorted) {
            if (median == 0 ? b == 0 : b < 0.25 * median) {
                starved++;
            }
        }
        return new Fairness(sorted[0], median, sorted[n - 1], starved);
    }

    /** min ÷ median, 0 when the median is 0. */
    public double ratio() {
        return median == 0 ? 0 : min / median;
    }
}
