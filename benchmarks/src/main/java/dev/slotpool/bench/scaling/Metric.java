package dev.slotpool.bench.scaling;

import java.util.Locale;

/** One measured value of a run: a CSV column, and how runs of the same cell combine into its medians row. */
enum Metric {

    /** Wall seconds between the window's start and end snapshots. */
    WINDOW_S,
    /** Borrows completed by all threads in the window. */
    BORROWS,
    BORROWS_PER_S,
    /** Fewest borrows one thread completed in the window. */
    THREAD_MIN,
    THREAD_MEDIAN,
    THREAD_MAX,
    /** THREAD_MIN ÷ THREAD_MEDIAN: 1 is perfectly even; near 0, some threads starve (0 when the median is 0). */
    FAIRNESS,
    /** Threads below 25 % of the median (when the median is 0: threads with no borrow at all). */
    STARVED,
    /** Borrows that failed with a timeout, in the window. */
    TIMEOUTS,
    /** Borrows that failed for any reason, timeouts included, in the window. */
    ERRORS,
    /** Process CPU seconds in the window (all threads of the JVM). */
    CPU_S,
    CPU_US_PER_BORROW,
    /** Held mode only: waits (getConnection latency) of the borrows that ended in the window, timed-out ones too. */
    WAIT_P50_MS,
    WAIT_P99_MS,
    WAIT_P999_MS,
    WAIT_MAX_MS,
    /** Held mode only: threads ÷ connections × hold, what a perfect FIFO queue would give. */
    IDEAL_FIFO_WAIT_MS,
    /** Seconds from starting the first thread until every thread was in its loop. */
    RAMP_S,
    /** Seconds from the window's end until every thread ended or was given up on (drain, pool close, joins). */
    TEARDOWN_S,
    /** Threads still alive after the pool closed, the join bound and an interrupt: summed over runs, not a median. */
    STRAGGLERS(true);

    private final boolean summed;

    Metric() {
        this(false);
    }

    Metric(boolean summed) {
        this.summed = summed;
    }

    /** Whether the medians row holds the sum over runs instead of the median. */
    boolean summed() {
        return summed;
    }

    /** The CSV column name; in the medians CSV a summed metric is suffixed with {@code _total}. */
    String column(boolean aggregated) {
        String name = name().toLowerCase(Locale.ROOT);
        return aggregated && summed ? name + "_total" : name;
    }
}
