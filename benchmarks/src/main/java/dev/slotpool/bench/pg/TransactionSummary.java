package dev.slotpool.bench.pg;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** summary.md: the setup, one Markdown table per pool size, and what went wrong if anything did. */
final class TransactionSummary {

    private TransactionSummary() {
    }

    static String markdown(TransactionOptions options, List<CellMedians> cells, List<TransactionSample> samples,
                           List<String> charts, long committedDelta, long balanceSum) {
        StringBuilder md = new StringBuilder("# pgbench-like transactions on PostgreSQL\n\n");
        header(md, options);
        for (int size : cells.stream().map(c -> c.cell().connections()).distinct().sorted().toList()) {
            md.append("## ").append(size).append(" connections\n\n");
            table(md, cells.stream().filter(c -> c.cell().connections() == size).toList());
        }
        notes(md, samples, charts, committedDelta, balanceSum);
        return md.toString();
    }

    /** The setup, so that a table pasted elsewhere still says how it was made. */
    private static void header(StringBuilder md, TransactionOptions options) {
        md.append("Java ").append(Runtime.version()).append(", ").append(Runtime.getRuntime().availableProcessors())
                .append(" CPUs; one embedded PostgreSQL server (its defaults, with `synchronous_commit=")
                .append(options.synchronousCommit() ? "on" : "off").append("`) ")
                .append("on the same machine, `accounts` with ").append(Formats.count(options.accounts()))
                .append(" rows. Each platform thread loops `getConnection()` (autocommit off), ")
                .append("`UPDATE accounts SET abalance = abalance + ? WHERE aid = ?`, ")
                .append("`SELECT abalance FROM accounts WHERE aid = ?`, `commit()`, `close()` on a uniformly ")
                .append("random account. Fixed-size pools, borrow timeout ")
                .append(TransactionOptions.BORROW_TIMEOUT.toSeconds()).append(" s, ")
                .append(options.slotpoolTurn() == null ? ""
                        : "slotpool's `turnDuration` " + Formats.significant(options.slotpoolTurn().toNanos() / 1e3)
                                + " µs, ")
                .append("otherwise as each pool ships. ")
                .append("Each run starts every thread, waits until all loop, then ")
                .append(Formats.significant(options.warmup().toMillis() / 1e3)).append(" s warm-up and a ")
                .append(Formats.significant(options.window().toMillis() / 1e3)).append(" s window; pools ")
                .append("interleave within each run; medians of ").append(options.runs())
                .append(options.runs() == 1 ? " run" : " runs").append(" (errors: total over runs). ")
                .append("Before the first run, one unrecorded run of the first cell per pool warms the JVM up; ")
                .append("each run starts one pool further along the list.\n");
        md.append("Command: `PostgresTransactions ").append(String.join(" ", options.args())).append("`\n\n");
        md.append("Latency: from before `getConnection()` to after `close()`, of every attempt that ended in the ")
                .append("window, in ms. Ideal: threads ÷ throughput (Little's law), the mean latency if every ")
                .append("thread were served in turn. Per thread: the fewest and the median transactions of one ")
                .append("thread in the window (fewest ÷ median). Work: the mean time from `getConnection()`'s ")
                .append("return to `commit()`'s; busy: transactions/s × work ÷ connections, the share of the window ")
                .append("a connection spent on that work (the rest went to returns, hand-offs and borrows). FIFO ")
                .append("floor: the p99.9 ÷ ideal of a simulated pool that serves the same threads first come, ")
                .append("first served, and hands a connection on at no cost, each transaction's work a draw from ")
                .append("this run's: no FIFO pool gets below it with this work. Ratio: transactions/s ÷ HikariCP's ")
                .append("in the same run. Errors: failed transactions from the threads' start until the pool ")
                .append("began to close.\n\n");
    }

    private static void table(StringBuilder md, List<CellMedians> rows) {
        md.append("| threads | pool | tx/s | ratio to HikariCP | p50 ms | p99 ms | p99.9 ms | ideal ms ")
                .append("| p99.9 ÷ ideal | FIFO floor | work ms | busy | per thread fewest / median | errors |\n")
                .append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        rows.stream().sorted((a, b) -> Integer.compare(a.cell().threads(), b.cell().threads())).forEach(r -> md
                .append("| ").append(Formats.count(r.cell().threads()))
                .append(" | ").append(r.cell().pool().id())
                .append(" | ").append(Formats.count(r.get(Measure.TX_PER_S)))
                .append(" | ").append(Formats.twoDecimals(r.get(Measure.RATIO_TO_HIKARI)))
                .append(" | ").append(Formats.significant(r.get(Measure.P50_MS)))
                .append(" | ").append(Formats.significant(r.get(Measure.P99_MS)))
                .append(" | ").append(Formats.significant(r.get(Measure.P999_MS)))
                .append(" | ").append(Formats.significant(r.get(Measure.IDEAL_MS)))
                .append(" | ").append(Formats.twoDecimals(r.get(Measure.P999_OVER_IDEAL)))
                .append(" | ").append(Formats.twoDecimals(r.get(Measure.FIFO_FLOOR)))
                .append(" | ").append(Formats.significant(r.get(Measure.WORK_MS)))
                .append(" | ").append(Formats.twoDecimals(r.get(Measure.BUSY_SHARE)))
                .append(" | ").append(Formats.count(r.get(Measure.THREAD_MIN))).append(" / ")
                .append(Formats.count(r.get(Measure.THREAD_MEDIAN))).append(" (")
                .append(Formats.twoDecimals(r.get(Measure.FAIRNESS))).append(")")
                .append(" | ").append(Formats.count(r.get(Measure.ERRORS))).append(" |\n"));
        md.append('\n');
    }

    /** Charts, the balance check, threads that never ended, and the first error of each cell that had one. */
    private static void notes(StringBuilder md, List<TransactionSample> samples, List<String> charts,
                              long committedDelta, long balanceSum) {
        if (!charts.isEmpty()) {
            md.append("Charts: ").append(charts.stream().map(c -> "`" + c + "`").collect(Collectors.joining(", ")))
                    .append(".\n\n");
        }
        md.append(committedDelta == balanceSum
                ? "Balance check: the sum of all balances equals the sum of the deltas the threads committed ("
                        + Formats.count(balanceSum) + ").\n"
                : "Balance check FAILED: the sum of all balances is " + Formats.count(balanceSum)
                        + ", the threads committed deltas summing to " + Formats.count(committedDelta) + ".\n");
        List<String> drifts = samples.stream().filter(s -> s.get(Measure.BALANCE_DRIFT) != 0)
                .map(s -> label(s) + ": " + Formats.count(s.get(Measure.BALANCE_DRIFT))).toList();
        if (!drifts.isEmpty()) {
            md.append("\nRuns after which the balances moved by other than the committed deltas: ")
                    .append(String.join("; ", drifts)).append(".\n");
        }
        List<String> stragglers = samples.stream().filter(s -> s.get(Measure.STRAGGLERS) > 0)
                .map(s -> label(s) + ": " + Formats.count(s.get(Measure.STRAGGLERS))).toList();
        if (!stragglers.isEmpty()) {
            md.append("\nThreads still alive after the pool closed, a bounded join and an interrupt: ")
                    .append(String.join("; ", stragglers)).append(".\n");
        }
        Map<TransactionCell, String> errors = new LinkedHashMap<>();
        samples.stream().filter(s -> s.firstError() != null).forEach(s -> errors.putIfAbsent(s.cell(),
                label(s) + ": `" + s.firstError().replace('`', '\'').replace('\n', ' ') + "`"));
        if (!errors.isEmpty()) {
            md.append("\nFirst error of each cell that had one, or why a run was not measured:\n\n");
            errors.values().forEach(e -> md.append("- ").append(e).append('\n'));
        }
    }

    private static String label(TransactionSample s) {
        return s.cell().pool().id() + ", " + s.cell().connections() + " connections, " + s.cell().threads()
                + " threads, run " + s.run();
    }
}
