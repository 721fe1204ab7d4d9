package dev.slotpool.bench.pg;

/** What one run of a {@link PoolerCell} measured; each a column of the pooler benchmark's CSV files. */
enum PoolerMeasure {
    /** Length of the window. */
    WINDOW_S("window_s", Measure.Across.MEDIAN),
    /** Transactions committed in the window, every instance together. */
    COMMITTED("committed", Measure.Across.MEDIAN),
    TX_PER_S("tx_per_s", Measure.Across.MEDIAN),
    /**
     * This cell's committed transactions/s ÷ those of HikariCP configured by hand ({@code prepareThreshold=0}, the
     * HikariCP setup that works behind the pooler) in the same run.
     */
    RATIO_TO_HIKARI("ratio_to_hikari_by_hand", Measure.Across.MEDIAN),
    /** Transactions that failed in the window, per second. */
    FAILED_PER_S("failed_per_s", Measure.Across.MEDIAN),
    /** Failed transactions from the first thread's start until the pools started closing. */
    FAILED("failed", Measure.Across.SUM),
    /** {@code getConnection()}, of every attempt that ended in the window, in ms. */
    BORROW_P50_MS("borrow_p50_ms", Measure.Across.MEDIAN),
    BORROW_P99_MS("borrow_p99_ms", Measure.Across.MEDIAN),
    BORROW_P999_MS("borrow_p999_ms", Measure.Across.MEDIAN),
    /** From before {@code getConnection()} to after {@code close()}, failed attempts included, in ms. */
    TX_P50_MS("tx_p50_ms", Measure.Across.MEDIAN),
    TX_P99_MS("tx_p99_ms", Measure.Across.MEDIAN),
    TX_P999_MS("tx_p999_ms", Measure.Across.MEDIAN),
    TX_MAX_MS("tx_max_ms", Measure.Across.MEDIAN),
    /**
     * Share of all the machine's CPUs busy during the window (/proc/stat): this run, PostgreSQL, PgBouncer and
     * anything else on the machine.
     */
    MACHINE_BUSY("machine_busy", Measure.Across.MEDIAN),
    /** The machine's 1-minute load average at the end of the window (/proc/loadavg). */
    LOAD_1M("load_1m", Measure.Across.MEDIAN),
    /** Threads still alive after the pools closed, a bounded join and an interrupt. */
    STRAGGLERS("stragglers", Measure.Across.SUM);

    private final String column;
    private final Measure.Across across;

    PoolerMeasure(String column, Measure.Across across) {
        this.column = column;
        this.across = across;
    }

    Measure.Across across() {
        return across;
    }

    /** The CSV column: per run, or over runs in the medians file. */
    String column(boolean combined) {
        return combined && across == Measure.Across.SUM ? column + "_total" : column;
    }
}
