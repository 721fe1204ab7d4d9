package dev.slotpool.bench.pg;

import dev.slotpool.bench.PoolKind;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * @param out         output directory
 * @param pause       pause after each run's teardown and GC
 * @param help        print the usage and do nothing else
 * @param args        the command line as given, echoed in the summary
 */
record TransactionOptions(List<PoolKind> pools, List<Integer> threads, List<Integer> connections, int runs,
                          Duration warmup, Duration window, int accounts, Path out, Duration pause, boolean help,
                          List<String> args) {

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
              --out DIR            output directory (benchmarks/results/postgres)
              --quick              tiny run: threads 2,8, 2 connections, 1 run, warm-up 100ms, window 300ms,
                                   10000 accounts (each overridable)
              --help               this text
            Durations: 300ms, 2s, 1.5s, 1m.
            """.formatted(Arrays.stream(PoolKind.values()).map(PoolKind::id).collect(Collectors.joining(",")));

    private static final Set<String> FLAGS = Set.of("--quick", "--help");
    private static final Set<String> VALUED = Set.of("--pools", "--threads", "--connections", "--runs", "--warmup",
            "--window", "--accounts", "--out");
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m)");

    TransactionOptions {
        pools = List.copyOf(pools);
        threads = List.copyOf(threads);
        connections = List.copyOf(connections);
        args = List.copyOf(args);
    }

    /** Parses a command line; throws {@link BadOptionException} naming the first bad option. */
    static TransactionOptions parse(String... args) {
        Map<String, String> given = collect(args);
        boolean quick = given.containsKey("--quick");
        return new TransactionOptions(
                pools(given.getOrDefault("--pools", "slotpool,hikari,ucp")),
                positives("--threads", given.getOrDefault("--threads", quick ? "2,8" : "10,100,1000")),
                positives("--connections", given.getOrDefault("--connections", quick ? "2" : "5,10,20")),
                positive("--runs", given.getOrDefault("--runs", quick ? "1" : "3")),
                duration("--warmup", given.getOrDefault("--warmup", quick ? "100ms" : "5s"), true),
                duration("--window", given.getOrDefault("--window", quick ? "300ms" : "10s"), false),
                positive("--accounts", given.getOrDefault("--accounts", quick ? "10000" : "100000")),
                Path.of(given.getOrDefault("--out", "benchmarks/results/postgres")),
                Duration.ofMillis(quick ? 50 : 250),
                given.containsKey("--help"),
                List.of(args));
    }

    /** The largest pool of the grid. */
    int largestPool() {
        return connections.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    private static Map<String, String> collect(String[] args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new BadOptionException("unexpected argument '" + arg + "' (options start with --)");
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            String value = eq < 0 ? null : arg.substring(eq + 1);
            if (FLAGS.contains(name)) {
                if (value != null) {
                    throw new BadOptionException(name + " takes no value");
                }
                value = "";
            } else if (VALUED.contains(name)) {
                if (value == null) {
                    if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
                        throw new BadOptionException(name + " needs a value");
                    }
                    value = args[++i];
                }
            } else {
                throw new BadOptionException("unknown option '" + name + "'");
            }
            if (given.put(name, value) != null) {
                throw new BadOptionException(name + " is given twice");
            }
        }
        return given;
    }

    private static List<PoolKind> pools(String value) {
        List<PoolKind> pools = new ArrayList<>();
        for (String name : value.split(",", -1)) {
            String id = name.trim().toLowerCase(Locale.ROOT);
            PoolKind kind = Arrays.stream(PoolKind.values()).filter(k -> k.id().equals(id)).findFirst()
                    .orElseThrow(() -> new BadOptionException("--pools: unknown pool '" + name.trim() + "' (known: "
                            + Arrays.stream(PoolKind.values()).map(PoolKind::id).collect(Collectors.joining(", "))
                            + ")"));
            if (pools.contains(kind)) {
                throw new BadOptionException("--pools: " + id + " is listed twice");
            }
            pools.add(kind);
        }
        return pools;
    }

    private static List<Integer> positives(String option, String value) {
        List<Integer> numbers = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            numbers.add(positive(option, part));
        }
        return numbers;
    }

    private static int positive(String option, String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below with the option's name
        }
        throw new BadOptionException(option + ": expected a positive whole number, got '" + value + "'");
    }

    private static Duration duration(String option, String value, boolean zeroAllowed) {
        Matcher m = DURATION.matcher(value.trim());
        if (!m.matches()) {
            throw new BadOptionException(option + ": expected a duration such as 300ms, 2s or 1m, got '" + value
                    + "'");
        }
        double millisPerUnit = switch (m.group(2)) {
            case "ms" -> 1;
            case "s" -> 1_000;
            default -> 60_000;
        };
        Duration d = Duration.ofNanos(Math.round(Double.parseDouble(m.group(1)) * millisPerUnit * 1e6));
        if (d.isZero() && !zeroAllowed) {
            throw new BadOptionException(option + ": must be more than zero, got '" + value + "'");
        }
        return d;
    }
}
