package dev.slotpool.bench.spike;

import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.RunOrder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The spike-demand harness of HikariCP's "Welcome to the Jungle" article: each pool sits idle at its
 * minimum of 5 over a database whose connects take 150 ms, then 50 requests of one 2 ms statement arrive at
 * once. Reports how many connections the spike left behind and how long the requests took, with timelines.
 *
 * <p>Run from the repository root of a fresh clone:
 * <pre>{@code
 * mvn -q -pl benchmarks -am compile exec:java \
 *     -Dexec.mainClass=dev.slotpool.bench.spike.SpikeDemand -Dexec.args="--runs 5"
 * }</pre>
 * Options: {@link SpikeOptions#USAGE}. Progress goes to stderr; the Markdown table to stdout and
 * {@code <out>/summary.md}, next to summary.csv, the first run's timeline-&lt;pool&gt;.csv/.png and
 * total-all-pools.png ({@code --out} defaults to benchmarks/results/spike).
 */
public final class SpikeDemand {

    private SpikeDemand() {
    }

    public static void main(String[] args) throws IOException, InterruptedException, SQLException {
        System.out.print(run(SpikeOptions.parse(args)).markdown());
    }

    /**
     * Runs every run of every pool and writes the reports. Runs go round-robin over the pools, so noise from
     * other work on the machine spreads over all pools instead of landing on one.
     */
    static SpikeSummary run(SpikeOptions options) throws IOException, InterruptedException, SQLException {
        Files.createDirectories(options.out());
        SpikeRun warmup = new SpikeRun(SpikeSetup.quick());
        for (int i = 1; i <= options.warmups(); i++) {
            for (PoolKind pool : options.pools()) {
                System.err.println("warm-up: " + warmup.run(pool, i).describe());
            }
        }
        SpikeRun spike = new SpikeRun(options.setup());
        List<RunResult> results = new ArrayList<>();
        for (int run = 1; run <= options.runs(); run++) {
            for (PoolKind pool : RunOrder.forRun(options.pools(), run)) {
                RunResult result = spike.run(pool, run);
                System.err.println(result.describe());
                results.add(result);
            }
        }
        SpikeSummary summary = new SpikeSummary(options, results);
        writeReports(options.out(), summary, results.stream().filter(r -> r.run() == 1).toList());
        return summary;
    }

    private static void writeReports(Path out, SpikeSummary summary, List<RunResult> firstRuns) throws IOException {
        Files.writeString(out.resolve("summary.md"), summary.markdown());
        summary.writeCsv(out.resolve("summary.csv"));
        for (RunResult r : firstRuns) {
            r.timeline().writeCsv(out.resolve("timeline-" + r.pool().id() + ".csv"));
            TimelineCharts.writePool(r, out.resolve("timeline-" + r.pool().id() + ".png"));
        }
        TimelineCharts.writeTotals(firstRuns, out.resolve("total-all-pools.png"));
    }
}
