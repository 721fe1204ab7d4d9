package dev.slotpool.bench.scaling;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/** The Markdown tables of one thread kind's medians, ready to paste into docs/benchmarks.md. */
final class SummaryTable {

    private SummaryTable() {
    }

    static String section(ThreadKind kind, List<CellResult> results, List<Sample> samples, Options options,
                          List<String> charts) {
        List<CellResult> mine = results.stream().filter(r -> r.cell().kind() == kind).toList();
        StringBuilder md = new StringBuilder();
        header(md, kind, options);
        for (Mode mode : Mode.values()) {
            List<CellResult> rows = mine.stream().filter(r -> r.cell().mode() == mode).toList();
            if (rows.isEmpty()) {
                continue;
            }
            md.append("### ").append(mode.title());
            if (mode == Mode.HELD) {
                md.append(" (hold ").append(Numbers.significant(options.hold().toNanos() / 1e6)).append(" ms)");
            }
            md.append("\n\n");
            pivot(md, rows);
            if (mode == Mode.SCALING) {
                scalingTable(md, rows);
            } else {
                heldTable(md, rows);
            }
        }
        notes(md, kind, mine, samples, charts);
        return md.toString();
    }

    /** The setup, so that a table pasted elsewhere still says how it was made. */
    private static void header(StringBuilder md, ThreadKind kind, Options options) {
        md.append("## ").append(kind == ThreadKind.PLATFORM ? "Platform" : "Virtual").append(" threads\n\n");
        md.append("Java ").append(Runtime.version()).append(", ").append(Runtime.getRuntime().availableProcessors())
                .append(" CPUs; ").append(options.connections()).append(" connections per pool, borrow timeout ")
                .append(Numbers.significant(options.borrowTimeout().toMillis() / 1e3)).append(" s. Each run starts ")
                .append("the threads looping at once (no start latch), waits until all are in their loop, then ")
                .append(Numbers.significant(options.warmup().toMillis() / 1e3)).append(" s warm-up and a ")
                .append(Numbers.significant(options.window().toMillis() / 1e3)).append(" s window; medians of ")
                .append(options.runs()).append(options.runs() == 1 ? " run" : " runs").append(".\n");
        md.append("Command: `ThreadScaling ").append(String.join(" ", options.args())).append("`\n\n");
        md.append("Per thread: one thread's borrows in the window, min / median / max. Starved: threads below ")
                .append("25 % of the median (when the median is 0, threads with none). Errors include timeouts. ")
                .append("CPU: the whole process during the window.\n\n");
    }

    /** docs/benchmarks.md's layout: a pool per row, a thread count per column; fairness beside every throughput. */
    private static void pivot(StringBuilder md, List<CellResult> rows) {
        List<Integer> counts = rows.stream().map(r -> r.cell().threads()).distinct().sorted().toList();
        Map<String, Map<Integer, CellResult>> byPool = new LinkedHashMap<>();
        for (CellResult r : rows) {
            byPool.computeIfAbsent(r.cell().pool().id(), p -> new LinkedHashMap<>()).put(r.cell().threads(), r);
        }
        md.append("Borrows per second (fewest borrows of a thread ÷ median):\n\n| pool |");
        counts.forEach(c -> md.append(' ').append(Numbers.count(c)).append(" |"));
        md.append("\n|---|").append("---:|".repeat(counts.size())).append('\n');
        byPool.forEach((pool, cells) -> {
            md.append("| ").append(pool).append(" |");
            for (int c : counts) {
                CellResult r = cells.get(c);
                boolean measured = r != null && !Double.isNaN(r.get(Metric.BORROWS_PER_S));
                md.append(' ').append(measured ? Numbers.count(r.get(Metric.BORROWS_PER_S)) + " ("
                        + Numbers.twoDecimals(r.get(Metric.FAIRNESS)) + ")" : "–").append(" |");
            }
            md.append('\n');
        });
        md.append('\n');
    }

    private static void scalingTable(StringBuilder md, List<CellResult> rows) {
        md.append("| threads | pool | borrows/s | per thread min / median / max | starved | timeouts | errors ")
                .append("| CPU s | CPU µs/borrow |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (CellResult r : sorted(rows)) {
            md.append("| ").append(Numbers.count(r.cell().threads())).append(" | ").append(r.cell().pool().id())
                    .append(" | ").append(Numbers.count(r.get(Metric.BORROWS_PER_S)))
                    .append(" | ").append(perThread(r))
                    .append(" | ").append(Numbers.perThread(r.get(Metric.STARVED)))
                    .append(" | ").append(Numbers.perThread(r.get(Metric.TIMEOUTS)))
                    .append(" | ").append(Numbers.perThread(r.get(Metric.ERRORS)))
                    .append(" | ").append(Numbers.twoDecimals(r.get(Metric.CPU_S)))
                    .append(" | ").append(Numbers.significant(r.get(Metric.CPU_US_PER_BORROW))).append(" |\n");
        }
        md.append('\n');
    }

    private static void heldTable(StringBuilder md, List<CellResult> rows) {
        md.append("| threads | pool | borrows/s | wait p50 / p99 / p99.9 / max (ms) | ideal FIFO wait (ms) ")
                .append("| per thread min / median / max | starved | timeouts | errors | CPU µs/borrow |\n")
                .append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (CellResult r : sorted(rows)) {
            md.append("| ").append(Numbers.count(r.cell().threads())).append(" | ").append(r.cell().pool().id())
                    .append(" | ").append(Numbers.count(r.get(Metric.BORROWS_PER_S)))
                    .append(" | ").append(Numbers.significant(r.get(Metric.WAIT_P50_MS)))
                    .append(" / ").append(Numbers.significant(r.get(Metric.WAIT_P99_MS)))
                    .append(" / ").append(Numbers.significant(r.get(Metric.WAIT_P999_MS)))
                    .append(" / ").append(Numbers.significant(r.get(Metric.WAIT_MAX_MS)))
                    .append(" | ").append(Numbers.significant(r.get(Metric.IDEAL_FIFO_WAIT_MS)))
                    .append(" | ").append(perThread(r))
                    .append(" | ").append(Numbers.perThread(r.get(Metric.STARVED)))
                    .append(" | ").append(Numbers.perThread(r.get(Metric.TIMEOUTS)))
                    .append(" | ").append(Numbers.perThread(r.get(Metric.ERRORS)))
                    .append(" | ").append(Numbers.significant(r.get(Metric.CPU_US_PER_BORROW))).append(" |\n");
        }
        md.append('\n');
    }

    /** Charts, threads that never ended, and the first error of each cell that had errors. */
    private static void notes(StringBuilder md, ThreadKind kind, List<CellResult> rows, List<Sample> samples,
                              List<String> charts) {
        if (!charts.isEmpty()) {
            md.append("Charts: ").append(charts.stream().map(c -> "`" + c + "`").collect(Collectors.joining(", ")))
                    .append(".\n");
        }
        List<String> stragglers = new ArrayList<>();
        for (CellResult r : rows) {
            if (r.get(Metric.STRAGGLERS) > 0) {
                stragglers.add(label(r.cell()) + ": " + Numbers.count(r.get(Metric.STRAGGLERS)));
            }
        }
        if (!stragglers.isEmpty()) {
            md.append("\nThreads still alive after the pool closed, a bounded join and an interrupt (summed over ")
                    .append("runs; they kept running during later runs): ").append(String.join("; ", stragglers))
                    .append(".\n");
        }
        Map<Cell, String> errors = new LinkedHashMap<>();
        samples.stream().filter(s -> s.cell().kind() == kind && s.firstError() != null)
                .forEach(s -> errors.putIfAbsent(s.cell(), s.firstError()));
        if (!errors.isEmpty()) {
            md.append("\nRuns not measured, or the first error of a cell:\n\n");
            errors.forEach((cell, e) -> md.append("- ").append(label(cell)).append(": `")
                    .append(Objects.toString(e).replace('`', '\'').replace('\n', ' ')).append("`\n"));
        }
    }

    private static String label(Cell cell) {
        return cell.pool().id() + " " + cell.mode().id() + " " + cell.threads() + " threads";
    }

    private static String perThread(CellResult r) {
        return Numbers.perThread(r.get(Metric.THREAD_MIN)) + " / " + Numbers.perThread(r.get(Metric.THREAD_MEDIAN))
                + " / " + Numbers.perThread(r.get(Metric.THREAD_MAX));
    }

    /** By thread count, then in the order the pools were given. */
    private static List<CellResult> sorted(List<CellResult> rows) {
        return rows.stream().sorted((a, b) -> Integer.compare(a.cell().threads(), b.cell().threads())).toList();
    }
}
