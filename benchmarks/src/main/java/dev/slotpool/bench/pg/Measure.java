package dev.slotpool.bench.pg;

/** What one run of a cell measured; each a column of the CSV files. */
enum Measure {
    /** Length of the window. */
    WINDOW_S("window_s", Across.MEDIAN),
    /** Transactions committed in the window. */
    TRANSACTIONS("transactions", Across.MEDIAN),
    TX_PER_S("tx_per_s", Across.MEDIAN),
    /** This pool's transactions/s ÷ HikariCP's in the same run, cell size and thread count. */
    RATIO_TO_HIKARI("ratio_to_hikari", Across.MEDIAN),
    P50_MS("p50_ms", Across.MEDIAN),
    P99_MS("p99_ms", Across.MEDIAN),
    P999_MS("p999_ms", Across.MEDIAN),
    MAX_MS("max_ms", Across.MEDIAN),
    /** threads ÷ throughput (Little's law): the mean latency if every thread were served in turn. */
    IDEAL_MS("ideal_ms", Across.MEDIAN),
    P999_OVER_IDEAL("p999_over_ideal", Across.MEDIAN),
    /** Mean work of a transaction committed in the window: {@code getConnection()}'s return to commit's. */
    WORK_MS("work_ms", Across.MEDIAN),
    /**
     * TX_PER_S × WORK_MS ÷ connections: the share of the window a connection spent on transactions' work; the
     * rest went to returns, hand-offs and borrows.
     */
    BUSY_SHARE("busy_share", Across.MEDIAN),
    /** The p99.9 ÷ ideal a FIFO pool whose hand-offs cost nothing would give these works ({@link FifoFloor}). */
    FIFO_FLOOR("fifo_floor", Across.MEDIAN),
    /**
     * Share of all the machine's CPUs busy during the window (/proc/stat): this JVM and the server together. Near
     * 1, a connection that works more of the time makes each transaction's work slower.
     */
    MACHINE_BUSY("machine_busy", Across.MEDIAN),
    /** This JVM's CPU time in the window ÷ transactions in it: the pool, the driver and the threads' own work. */
    CLIENT_CPU_US("client_cpu_us_per_tx", Across.MEDIAN),
    /**
     * Times the server's processes went to sleep in the window ÷ transactions ({@link MachineCpu#serverSleeps()}):
     * a backend whose client is slow to send its next statement sleeps and is woken.
     */
    SERVER_SLEEPS("server_sleeps_per_tx", Across.MEDIAN),
    /** Fewest transactions of one thread in the window. */
    THREAD_MIN("thread_min", Across.MEDIAN),
    THREAD_MEDIAN("thread_median", Across.MEDIAN),
    /** THREAD_MIN ÷ THREAD_MEDIAN. */
    FAIRNESS("fairness", Across.MEDIAN),
    /** Failed transactions from the first thread's start until the pool started closing. */
    ERRORS("errors", Across.SUM),
    /** The table's balance sum minus the sum of the deltas the workers committed; 0 unless something is wrong. */
    BALANCE_DRIFT("balance_drift", Across.SUM),
    /** Threads still alive after the pool closed, a bounded join and an interrupt. */
    STRAGGLERS("stragglers", Across.SUM);

    /** How runs of a cell combine: errors and anomalies add up, so that no bad run hides behind a median. */
    enum Across {
        MEDIAN, SUM
    }

    private final String column;
    private final Across across;

    Measure(String column, Across across) {
        this.column = column;
        this.across = across;
    }

    Across across() {
        return across;
    }

    /** The CSV column: per run, or over runs in the medians file. */
    String column(boolean combined) {
        return combined && across == Across.SUM ? column + "_total" : column;
    }
}
