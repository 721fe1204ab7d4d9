package dev.slotpool.bench.pg;

import dev.slotpool.bench.CommandLine;
import dev.slotpool.bench.UsageException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The command line of {@link PoolerTransactions}, checked as a whole.
 *
 * @param cells        configurations compared, in this order within each run
 * @param instances    app instances: pools through the one PgBouncer
 * @param connections  connections of each pool (min = max)
 * @param threads      threads of each instance
 * @param serverBudget PgBouncer's server connections for the database ({@code default_pool_size})
 * @param runs         runs per cell; the tables show medians
 * @param warmup       looping time after every thread is in its loop and before the window
 * @param window       measurement window
 * @param pgbouncer    the PgBouncer binary, or null for the first installed one
 * @param out          output directory
 * @param pause        pause after each run's teardown and GC
 * @param help         print the usage and do nothing else
 * @param args         the command line as given, echoed in the summary
 */
record PoolerOptions(List<PoolerCell> cells, int instances, int connections, int threads, int serverBudget,
                     int runs, Duration warmup, Duration window, Path pgbouncer, Path out, Duration pause,
                     boolean help, List<String> args) {

    /** Every pool's borrow timeout: long, so that a timeout means real starvation. */
    static final Duration BORROW_TIMEOUT = Duration.ofSeconds(60);

    static final String USAGE = """
            Usage: PoolerTransactions [options]
              --cells LIST         configurations compared (default and known: %s)
              --instances N        app instances, one pool each, through one PgBouncer (5)
              --connections N      connections of each pool, min = max (4)
              --threads N          threads of each instance (4)
              --server-budget N    PgBouncer's server connections (default_pool_size) (4)
              --runs N             runs per cell, cells interleaved within each run; tables show medians (5)
              --warmup DURATION    looping before the window, once all threads loop (2s)
              --window DURATION    measurement window (8s)
              --pgbouncer PATH     the PgBouncer binary (the first of /usr/sbin, /usr/bin, /usr/local/bin)
              --out DIR            output directory (benchmarks/results/pooler)
              --quick              tiny run: 2 instances of 2 connections, 2 threads each, budget 2, 1 run,
                                   warm-up 200ms, window 1s (each overridable)
              --help               this text
            Durations: 300ms, 2s, 1.5s, 1m.
            """.formatted(PoolerCell.ids());

    private static final Set<String> FLAGS = Set.of("--quick", "--help");
    private static final Set<String> VALUED = Set.of("--cells", "--instances", "--connections", "--threads",
            "--server-budget", "--runs", "--warmup", "--window", "--pgbouncer", "--out");

    PoolerOptions {
        cells = List.copyOf(cells);
        args = List.copyOf(args);
    }

    /** Parses a command line; throws {@link UsageException} naming the first bad option. */
    static PoolerOptions parse(String... args) {
        Map<String, String> given = CommandLine.collect(args, FLAGS, VALUED);
        boolean quick = given.containsKey("--quick");
        return new PoolerOptions(
                cells(given.getOrDefault("--cells", PoolerCell.ids())),
                CommandLine.positive("--instances", given.getOrDefault("--instances", quick ? "2" : "5")),
                CommandLine.positive("--connections", given.getOrDefault("--connections", quick ? "2" : "4")),
                CommandLine.positive("--threads", given.getOrDefault("--threads", quick ? "2" : "4")),
                CommandLine.positive("--server-budget", given.getOrDefault("--server-budget", quick ? "2" : "4")),
                CommandLine.positive("--runs", given.getOrDefault("--runs", quick ? "1" : "5")),
                CommandLine.duration("--warmup", given.getOrDefault("--warmup", quick ? "200ms" : "2s"), true),
                CommandLine.duration("--window", given.getOrDefault("--window", quick ? "1s" : "8s"), false),
                given.containsKey("--pgbouncer") ? Path.of(given.get("--pgbouncer")) : null,
                Path.of(given.getOrDefault("--out", "benchmarks/results/pooler")),
                Duration.ofMillis(quick ? 50 : 250),
                given.containsKey("--help"),
                List.of(args));
    }

    private static List<PoolerCell> cells(String value) {
        List<PoolerCell> cells = new ArrayList<>();
        for (String name : value.split(",", -1)) {
            String id = name.trim().toLowerCase(Locale.ROOT);
            PoolerCell cell = null;
            for (PoolerCell c : PoolerCell.values()) {
                if (c.id().equals(id)) {
                    cell = c;
                }
            }
            if (cell == null) {
                throw new UsageException("--cells: unknown cell '" + name.trim() + "' (known: " + PoolerCell.ids()
                        + ")");
            }
            if (cells.contains(cell)) {
                throw new UsageException("--cells: " + id + " is listed twice");
            }
            cells.add(cell);
        }
        return cells;
    }
}
