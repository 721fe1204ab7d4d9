package dev.slotpool.bench.scaling;

import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.PoolSettings;
import dev.slotpool.bench.RunOrder;
import dev.slotpool.bench.UsageException;
import dev.slotpool.testsupport.StubDatabase;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Thread-scaling harness (docs/benchmarks.md): every pool over the same 6 stub connections, borrowed by
 * 10 to 10,000 threads, with the fairness of the spread beside every throughput. Writes CSV, PNG charts and a
 * Markdown summary; see {@link Options#USAGE} for the command line.
 */
public final class ThreadScaling {

    private static final int PRIME_BORROWS = 2_000;

    private ThreadScaling() {
    }

    public static void main(String[] args) throws IOException, InterruptedException, SQLException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (UsageException e) {
            System.err.println("ThreadScaling: " + e.getMessage());
            System.err.println();
            System.err.print(Options.USAGE);
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.print(Options.USAGE);
            return;
        }
        run(options, System.out, System.err);
    }

    /**
     * Runs every thread kind, mode, thread count, run and pool; writes the outputs; returns the medians. The
     * Markdown tables go to {@code out}, progress to {@code log}.
     */
    static List<CellResult> run(Options options, PrintStream out, PrintStream log)
            throws IOException, InterruptedException, SQLException {
        Path dir = options.out();
        Files.createDirectories(dir);
        if (!options.kinds().contains(ThreadKind.VIRTUAL) && !ThreadKind.VIRTUAL.available()) {
            log.println("Virtual threads: not run (" + VirtualThreads.whyMissing() + "; start on JDK 21+ for them).");
        }
        int total = plannedRuns(options);
        Duration perRun = options.warmup().plus(options.window()).plus(options.pause());
        log.println(total + " runs planned: at least " + minutes(perRun.multipliedBy(total).toNanos())
                + " (warm-up + window + pause each), plus thread start-up and teardown.");

        long started = System.nanoTime();
        prime(options);
        List<CellResult> all = new ArrayList<>();
        int done = 0;
        for (ThreadKind kind : options.kinds()) {
            List<Sample> samples = new ArrayList<>();
            Path runsCsv = dir.resolve(kind.id() + "-runs.csv");
            for (Mode mode : Mode.values()) {
                if (!options.modes().contains(mode)) {
                    continue;
                }
                for (int threads : options.threadCounts(kind)) {
                    // Pools interleave within each run, each run one further along, so drift spreads over all of them.
                    for (int run = 1; run <= options.runs(); run++) {
                        for (PoolKind pool : RunOrder.forRun(options.pools(), run)) {
                            Sample sample = new Trial(options, new Cell(kind, mode, pool, threads)).run(run);
                            samples.add(sample);
                            log.println(progress(++done, total, sample, options.runs()));
                            // Rewritten after every run: a long run that dies midway keeps what it measured.
                            ResultsCsv.writeRuns(runsCsv, samples, Runtime.version().toString());
                        }
                    }
                }
            }
            all.addAll(writeResults(options, kind, samples, out));
        }
        writeSummary(dir);
        log.println("Done: " + done + " runs in " + minutes(System.nanoTime() - started) + "; results in "
                + dir.toAbsolutePath().normalize());
        return all;
    }

    /** Writes one thread kind's medians CSV, charts and Markdown section, and prints the section. */
    private static List<CellResult> writeResults(Options options, ThreadKind kind, List<Sample> samples,
                                                 PrintStream out) throws IOException {
        Path dir = options.out();
        List<CellResult> results = CellResult.combine(samples);
        ResultsCsv.writeMedians(dir.resolve(kind.id() + "-medians.csv"), results, Runtime.version().toString());
        List<String> charts = Charts.write(dir, kind, results, options);
        String section = SummaryTable.section(kind, results, samples, options, charts);
        Files.writeString(dir.resolve(kind.id() + "-summary.md"), section);
        out.print(section);
        out.println();
        return results;
    }

    /**
     * Starts each pool once and borrows on one thread: class loading and driver registration (ojdbc's is slow)
     * happen here, not in the first measured run.
     */
    private static void prime(Options options) throws SQLException {
        for (PoolKind kind : options.pools()) {
            StubDatabase database = StubDatabase.reset("scaling-prime");
            try (BenchPool pool = kind.start(
                    PoolSettings.fixed(database.url(), options.connections(), options.borrowTimeout()))) {
                for (int i = 0; i < PRIME_BORROWS; i++) {
                    try (Connection c = pool.dataSource().getConnection(); Statement s = c.createStatement()) {
                        s.execute("SELECT 1");
                    }
                }
            }
        }
    }

    /** summary.md: the platform and virtual sections found in the directory, from this or an earlier invocation. */
    private static void writeSummary(Path dir) throws IOException {
        StringBuilder md = new StringBuilder("# Thread scaling\n\n");
        for (ThreadKind kind : ThreadKind.values()) {
            Path section = dir.resolve(kind.id() + "-summary.md");
            if (Files.exists(section)) {
                md.append(Files.readString(section)).append('\n');
            }
        }
        Files.writeString(dir.resolve("summary.md"), md);
    }

    private static int plannedRuns(Options options) {
        int total = 0;
        for (ThreadKind kind : options.kinds()) {
            total += options.modes().size() * options.threadCounts(kind).size() * options.runs()
                    * options.pools().size();
        }
        return total;
    }

    private static String progress(int done, int total, Sample s, int runs) {
        Cell c = s.cell();
        StringBuilder line = new StringBuilder()
                .append('[').append(done).append('/').append(total).append("] ").append(c.kind().id()).append(' ')
                .append(c.mode().id()).append(' ').append(c.threads()).append(" threads, run ").append(s.run())
                .append('/').append(runs).append(", ").append(c.pool().id()).append(": ")
                .append(Numbers.count(s.get(Metric.BORROWS_PER_S))).append(" borrows/s; per thread ")
                .append(Numbers.perThread(s.get(Metric.THREAD_MIN))).append(" / ")
                .append(Numbers.perThread(s.get(Metric.THREAD_MEDIAN))).append(" / ")
                .append(Numbers.perThread(s.get(Metric.THREAD_MAX))).append(", starved ")
                .append(Numbers.perThread(s.get(Metric.STARVED))).append("; timeouts ")
                .append(Numbers.perThread(s.get(Metric.TIMEOUTS))).append(", errors ")
                .append(Numbers.perThread(s.get(Metric.ERRORS))).append("; CPU ")
                .append(Numbers.twoDecimals(s.get(Metric.CPU_S))).append(" s");
        if (c.mode() == Mode.HELD) {
            line.append("; wait p99.9 ").append(Numbers.significant(s.get(Metric.WAIT_P999_MS))).append(" ms");
        }
        line.append("; ramp ").append(Numbers.twoDecimals(s.get(Metric.RAMP_S))).append(" s, teardown ")
                .append(Numbers.twoDecimals(s.get(Metric.TEARDOWN_S))).append(" s");
        if (s.get(Metric.STRAGGLERS) > 0) {
            line.append("; WARNING ").append(Numbers.count(s.get(Metric.STRAGGLERS))).append(" threads did not end");
        }
        if (s.firstError() != null) {
            line.append("; first error: ").append(s.firstError());
        }
        return line.toString();
    }

    private static String minutes(long nanos) {
        long seconds = Math.round(nanos / 1e9);
        return seconds < 60 ? seconds + " s" : seconds / 60 + " min " + seconds % 60 + " s";
    }
}
