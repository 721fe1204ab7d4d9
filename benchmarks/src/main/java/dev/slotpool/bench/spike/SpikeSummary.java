package dev.slotpool.bench.spike;

import dev.slotpool.bench.PoolKind;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** Every run's results: medians per pool as a Markdown table, and every run as CSV. */
final class SpikeSummary {

    static final String CSV_HEADER = "pool,run,requests,completed,connections_at_end,opened_before_spike,"
            + "created_by_spike,max_open,all_done_ms,slowest_request_ms,slowest_borrow_wait_ms,"
            + "waited_connect_time,samples,max_sample_gap_us";

    private final SpikeOptions options;
    private final List<RunResult> results;

    SpikeSummary(SpikeOptions options, List<RunResult> results) {
        this.options = options;
        this.results = results;
    }

    String markdown() {
        SpikeSetup setup = options.setup();
        long connectMillis = setup.connectDelay().toMillis();
        StringBuilder md = new StringBuilder()
                .append("# Spike demand\n\n")
                .append(setup.describe()).append(". ").append(options.warmups())
                .append(" unrecorded warm-up spike(s) per pool first. Medians over runs; every run is in")
                .append(" summary.csv.\n\n")
                .append("| pool | runs | completed (worst run) | connections at end | created by spike | most open"
                        + " | all requests done (ms) | slowest request (ms) | slowest borrow wait (ms)"
                        + " | runs with a wait ≥ ").append(connectMillis).append(" ms |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (PoolKind pool : options.pools()) {
            List<RunResult> runs = results.stream().filter(r -> r.pool() == pool).toList();
            md.append(String.format(Locale.ROOT, "| %s | %d | %d/%d | %s | %s | %s | %.1f | %.1f | %.1f | %d |%n",
                    pool.id(), runs.size(),
                    runs.stream().mapToInt(RunResult::completed).min().orElse(0), setup.requests(),
                    count(median(runs, RunResult::connectionsAtEnd)),
                    count(median(runs, RunResult::createdBySpike)),
                    count(median(runs, RunResult::maxOpen)),
                    median(runs, RunResult::allDoneMillis),
                    median(runs, RunResult::slowestRequestMillis),
                    median(runs, RunResult::slowestWaitMillis),
                    runs.stream().filter(RunResult::waitedConnectTime).count()));
        }
        return md.toString();
    }

    void writeCsv(Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file)) {
            w.write(CSV_HEADER);
            w.write('\n');
            for (RunResult r : results) {
                w.write(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f,%b,%d,%d%n",
                        r.pool().id(), r.run(), r.requests(), r.completed(), r.connectionsAtEnd(),
                        r.openedBeforeSpike(), r.createdBySpike(), r.maxOpen(), r.allDoneMillis(),
                        r.slowestRequestMillis(), r.slowestWaitMillis(), r.waitedConnectTime(),
                        r.timeline().size(), r.timeline().maxGapMicros()));
            }
        }
    }

    private static double median(List<RunResult> runs, ToDoubleFunction<RunResult> value) {
        double[] sorted = runs.stream().mapToDouble(value).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** A median of counts: whole unless an even number of runs split it. */
    private static String count(double median) {
        return median == Math.rint(median) ? Long.toString((long) median) : String.format(Locale.ROOT, "%.1f", median);
    }
}
