package dev.slotpool.bench.pg;

import dev.slotpool.bench.CommandLine;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.UsageException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The command line of {@link PostgresTransactions}, checked as a whole.
 *
 * @param pools       pools compared, in this order within each run
 * @param threads     thread counts
 * @param connections pool sizes (min = max)
 * @param runs        runs per cell; the tables show medians
 * @param warmup      looping time after every thread is in its loop and before the window
 * @param window      measurement window
 * @param accounts    rows of the accounts table
 * @param synchronousCommit the server's {@code synchronous_commit}: off (the embedded server's default) makes a
 *                    commit return before its WAL reaches the disk; on makes every commit wait for it
 * @param slotpoolTurn slotpool's {@code turnDuration}, or null for the default it ships with; the other pools are
 *                    compared as they ship
 * @param out         output directory
 * @param pause       pause after each run's teardown and GC
 * @param help        print the usage and do nothing else
 * @param args        the command line as given, echoed in the summary
 */
record TransactionOptions(List<PoolKind> pools, List<Integer> threads, List<Integer> connections, int runs,
                          Duration warmup, Duration window, int accounts, boolean synchronousCommit,
                          Duration slotpoolTurn, Path out, Duration pause, boolean help, List<String> args) {

    /** Every pool's borrow timeout: long, so that a timeout means real starvation. */
    static final Duration BORROW_TIMEOUT = Duration.ofSeconds(60);

    static final String USAGE = """
            Usage: PostgresTransactions [options]
              --pools LIST         pools compared, e.g. slotpool,hikari (default slotpool,hikari,ucp; known: %s)
              --threads LIST       thread counts (10,100,1000)
              --connections LIST   pool sizes, min = max (5,10,20)
              --runs N             runs per cell, pools interleaved within each run; tables show medians (3)
              --warmup DURATION    looping before the window, once all threads loop (5s)
              --window DURATION    measurement window (10s)
              --accounts N         rows in the accounts table (100000)
              --synchronous-commit on|off
                                   the server's synchronous_commit: on makes each commit wait for its WAL to
                                   reach the disk (off, the embedded server's default)
              --slotpool-turn DURATION
                                   slotpool's turnDuration, 0 to 1s (as shipped: 250us); the other pools as
                                   they ship
              --out DIR            output directory (benchmarks/results/postgres)
              --quick              tiny run: threads 2,8, 2 connections, 1 run, warm-up 100ms, window 300ms,
                                   10000 accounts (each overridable)
              --help               this text
            Durations: 300ms, 2s, 1.5s, 1m, 250us.
            """.formatted(Arrays.stream(PoolKind.values()).map(PoolKind::id).collect(Collectors.joining(",")));

    private static final Set<String> FLAGS = Set.of("--quick", "--help");
    private static final Set<String> VALUED = Set.of("--pools", "--threads", "--connections", "--runs", "--warmup",
            "--window", "--accounts", "--synchronous-commit", "--slotpool-turn", "--out");
    /** The longest {@code turnDuration} slotpool's builder accepts. */
    private static final Duration LONGEST_TURN = Duration.ofSeconds(1);

    TransactionOptions {
        pools = List.copyOf(pools);
        threads = List.copyOf(threads);
        connections = List.copyOf(connections);
        args = List.copyOf(args);
    }

    /** Parses a command line; throws {@link dev.slotpool.bench.UsageException} naming the first bad option. */
    static TransactionOptions parse(String... args) {
        Map<String, String> given = CommandLine.collect(args, FLAGS, VALUED);
        boolean quick = given.containsKey("--quick");
        return new TransactionOptions(
                CommandLine.pools(given.getOrDefault("--pools", "slotpool,hikari,ucp"), false),
                CommandLine.positives("--threads", given.getOrDefault("--threads", quick ? "2,8" : "10,100,1000")),
                CommandLine.positives("--connections", given.getOrDefault("--connections", quick ? "2" : "5,10,20")),
                CommandLine.positive("--runs", given.getOrDefault("--runs", quick ? "1" : "3")),
                CommandLine.duration("--warmup", given.getOrDefault("--warmup", quick ? "100ms" : "5s"), true),
                CommandLine.duration("--window", given.getOrDefault("--window", quick ? "300ms" : "10s"), false),
                CommandLine.positive("--accounts", given.getOrDefault("--accounts", quick ? "10000" : "100000")),
                onOff("--synchronous-commit", given.getOrDefault("--synchronous-commit", "off")),
                given.containsKey("--slotpool-turn") ? turn(given.get("--slotpool-turn")) : null,
                Path.of(given.getOrDefault("--out", "benchmarks/results/postgres")),
                Duration.ofMillis(quick ? 50 : 250),
                given.containsKey("--help"),
                List.of(args));
    }

    private static Duration turn(String value) {
        Duration d = CommandLine.duration("--slotpool-turn", value, true);
        if (d.compareTo(LONGEST_TURN) > 0) {
            throw new UsageException("--slotpool-turn: at most 1s (slotpool's turnDuration), got '" + value + "'");
        }
        return d;
    }

    private static boolean onOff(String option, String value) {
        return switch (value.trim()) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new UsageException(option + ": expected on or off, got '" + value + "'");
        };
    }

    /** The largest pool of the grid. */
    int largestPool() {
        return connections.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }
}
