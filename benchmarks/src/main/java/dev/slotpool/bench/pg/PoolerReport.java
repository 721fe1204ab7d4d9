package dev.slotpool.bench.pg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/** The pooler benchmark's files: {@code runs.csv}, {@code medians.csv} and the Markdown of {@code summary.md}. */
final class PoolerReport {

    private PoolerReport() {
    }

    static void writeRuns(Path file, List<PoolerSample> samples, String jdk) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(header("run", false));
        for (PoolerSample s : samples) {
            lines.add(row(s.cell(), jdk, s.run(), s::get));
        }
        Files.write(file, lines);
    }

    static void writeMedians(Path file, List<PoolerSample.Combined> cells, String jdk) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(header("runs", true));
        for (PoolerSample.Combined c : cells) {
            lines.add(row(c.cell(), jdk, c.runs(), c::get));
        }
        Files.write(file, lines);
    }

    private static String header(String runColumn, boolean combined) {
        StringBuilder b = new StringBuilder("cell,").append(runColumn).append(",jdk");
        for (PoolerMeasure m : PoolerMeasure.values()) {
            b.append(',').append(m.column(combined));
        }
        return b.toString();
    }

    private static String row(PoolerCell cell, String jdk, int run, ToDoubleFunction<PoolerMeasure> value) {
        StringBuilder b = new StringBuilder().append(cell.id()).append(',').append(run).append(',').append(jdk);
        for (PoolerMeasure m : PoolerMeasure.values()) {
            b.append(',').append(Formats.csv(value.applyAsDouble(m)));
        }
        return b.toString();
    }

    /** The setup, the table of medians, the charts, and every failure by message. */
    static String markdown(PoolerOptions o, String pgbouncerVersion, String loadBefore,
                           List<PoolerSample.Combined> cells, List<String> charts) {
        StringBuilder md = new StringBuilder("# ORM-like transactions behind PgBouncer (transaction mode)\n\n");
        md.append("Java ").append(Runtime.version()).append(", ").append(Runtime.getRuntime().availableProcessors())
                .append(" CPUs; ").append(pgbouncerVersion).append(" (`pool_mode = transaction`, ")
                .append("`default_pool_size = ").append(o.serverBudget()).append("`, no reserve) in front of one ")
                .append("embedded PostgreSQL on the same machine. ").append(o.instances())
                .append(" app instances (one pool each) of ").append(o.connections()).append(" connections, ")
                .append(o.threads()).append(" platform threads each: ").append(o.instances() * o.connections())
                .append(" client connections on ").append(o.serverBudget()).append(" server connections. Each ")
                .append("transaction: `getConnection()`, auto-commit off, three prepared statements (a read, an ")
                .append("update, an insert; 1, 2 and 3 parameters), `commit()`, `close()`, on a random account. ")
                .append("Borrow timeout ").append(PoolerOptions.BORROW_TIMEOUT.toSeconds())
                .append(" s, otherwise as each pool ships; pgjdbc's defaults except where a cell says. Each run ")
                .append("starts every thread, waits until all loop, then ")
                .append(Formats.significant(o.warmup().toMillis() / 1e3)).append(" s warm-up and a ")
                .append(Formats.significant(o.window().toMillis() / 1e3)).append(" s window; cells interleave ")
                .append("within each run, and PgBouncer's server sessions are replaced (`RECONNECT`) after every ")
                .append("run; medians of ").append(o.runs()).append(o.runs() == 1 ? " run" : " runs")
                .append(" (failed transactions: total over runs). Before the first run, one unrecorded run per ")
                .append("cell warms the JVM up; each run starts one cell further along the list.\n");
        md.append("Command: `PoolerTransactions ").append(String.join(" ", o.args())).append("`\n\n");
        md.append("Latency in ms: borrow = `getConnection()`; transaction = from before `getConnection()` to ")
                .append("after `close()`, failed attempts included, of every attempt that ended in the window. ")
                .append("Ratio: committed transactions/s ÷ those of HikariCP with `prepareThreshold=0` in the ")
                .append("same run, median over runs. Failed: transactions that threw, from the threads' start ")
                .append("until the pools began to close. ")
                .append("Machine: the share of all CPUs busy during the window (everything on the machine, ")
                .append("this benchmark, PostgreSQL and PgBouncer included) and the 1-minute load average at its ")
                .append("end; before the first run: ").append(loadBefore).append(".\n\n");
        md.append("| cell | committed tx/s | ratio to HikariCP by hand | failed tx/s | failed (total) ")
                .append("| borrow p50 / p99 / p99.9 ms | transaction p50 / p99 / p99.9 ms | transaction max ms ")
                .append("| machine busy, load |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (PoolerSample.Combined c : cells) {
            md.append("| ").append(c.cell().label())
                    .append(" | ").append(Formats.count(c.get(PoolerMeasure.TX_PER_S)))
                    .append(" | ").append(Formats.twoDecimals(c.get(PoolerMeasure.RATIO_TO_HIKARI)))
                    .append(" | ").append(Formats.count(c.get(PoolerMeasure.FAILED_PER_S)))
                    .append(" | ").append(Formats.count(c.get(PoolerMeasure.FAILED)))
                    .append(" | ").append(triple(c, PoolerMeasure.BORROW_P50_MS, PoolerMeasure.BORROW_P99_MS,
                            PoolerMeasure.BORROW_P999_MS))
                    .append(" | ").append(triple(c, PoolerMeasure.TX_P50_MS, PoolerMeasure.TX_P99_MS,
                            PoolerMeasure.TX_P999_MS))
                    .append(" | ").append(Formats.significant(c.get(PoolerMeasure.TX_MAX_MS)))
                    .append(" | ").append(percent(c.get(PoolerMeasure.MACHINE_BUSY))).append(", ")
                    .append(Formats.significant(c.get(PoolerMeasure.LOAD_1M)))
                    .append(" |\n");
        }
        md.append('\n');
        if (!charts.isEmpty()) {
            md.append("Charts: ").append(charts.stream().map(c -> "`" + c + "`").collect(Collectors.joining(", ")))
                    .append(".\n\n");
        }
        List<String> stragglers = cells.stream().filter(c -> c.get(PoolerMeasure.STRAGGLERS) > 0)
                .map(c -> c.cell().id() + ": " + Formats.count(c.get(PoolerMeasure.STRAGGLERS))).toList();
        if (!stragglers.isEmpty()) {
            md.append("Threads still alive after the pools closed, a bounded join and an interrupt: ")
                    .append(String.join("; ", stragglers)).append(".\n\n");
        }
        List<PoolerSample.Combined> failing = cells.stream().filter(c -> !c.failures().isEmpty()).toList();
        if (!failing.isEmpty()) {
            md.append("What failed, over all runs (numbers in messages masked as n):\n\n");
            for (PoolerSample.Combined c : failing) {
                md.append("- ").append(c.cell().label()).append(":\n");
                c.failures().entrySet().stream()
                        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                        .forEach(e -> md.append("  - ").append(Formats.count(e.getValue())).append(" × `")
                                .append(e.getKey().replace('`', '\'')).append("`\n"));
            }
        }
        return md.toString();
    }

    private static String triple(PoolerSample.Combined c, PoolerMeasure a, PoolerMeasure b, PoolerMeasure d) {
        return Formats.significant(c.get(a)) + " / " + Formats.significant(c.get(b)) + " / "
                + Formats.significant(c.get(d));
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? Formats.significant(share) : Math.round(share * 100) + " %";
    }
}
