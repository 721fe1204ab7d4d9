package dev.slotpool.bench.scaling;

import dev.slotpool.bench.CommandLine;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.UsageException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The command line of {@link ThreadScaling}, checked as a whole.
 *
 * @param modes         what the threads do with a connection
 * @param pools         pools compared, in this order within each run
 * @param kinds         platform and/or virtual threads
 * @param threads       thread counts given with --threads; empty means each kind's default (or the quick pair)
 * @param runs          runs per cell; the tables show medians
 * @param warmup        looping time after every thread is in its loop and before the window
 * @param window        measurement window
 * @param hold          held mode: the statement's stub query delay
 * @param connections   pool size (fixed)
 * @param borrowTimeout every pool's borrow timeout: long, so that a timeout means real starvation
 * @param out           output directory
 * @param pause         pause after each run's teardown and GC
 * @param quick         the tiny run of --quick (its thread counts unless --threads is given)
 * @param help          print the usage and do nothing else
 * @param args          the command line as given, echoed in the summary
 */
record Options(Set<Mode> modes, List<PoolKind> pools, List<ThreadKind> kinds, List<Integer> threads, int runs,
               Duration warmup, Duration window, Duration hold, int connections, Duration borrowTimeout,
               Path out, Duration pause, boolean quick, boolean help, List<String> args) {

    static final String USAGE = """
            Usage: ThreadScaling [options]
              --mode scaling|held|both    borrow->close, or borrow->statement held by the stub->close (both)
              --pools all|LIST            e.g. slotpool,hikari (all: %s)
              --threads LIST              thread counts, e.g. 10,100,1000 (default: per thread kind, see below)
              --platform | --virtual      only platform / only virtual threads (default: platform, plus virtual
                                          when the JVM has them); --virtual fails on a JVM without them
              --runs N                    runs per pool and thread count; tables show medians (3)
              --warmup DURATION           looping before the window, once all threads loop (1s)
              --window DURATION           measurement window (2s)
              --hold DURATION             held mode: stub query delay per borrow (1ms)
              --connections N             pool size (6)
              --timeout DURATION          borrow timeout of every pool (30s)
              --out DIR                   output directory (benchmarks/results/scaling)
              --quick                     tiny run: threads 10,100, warm-up 100ms, window 300ms, 1 run
              --help                      this text
            Durations: 500us, 300ms, 2s, 1.5s, 1m. Default thread counts: platform %s; virtual %s.
            """.formatted(
            Arrays.stream(PoolKind.values()).map(PoolKind::id).collect(Collectors.joining(",")),
            join(ThreadKind.PLATFORM.defaultThreadCounts()), join(ThreadKind.VIRTUAL.defaultThreadCounts()));

    static final List<Integer> QUICK_THREADS = List.of(10, 100);

    private static final Set<String> FLAGS = Set.of("--quick", "--virtual", "--platform", "--help");
    private static final Set<String> VALUED = Set.of("--mode", "--pools", "--threads", "--runs", "--warmup",
            "--window", "--hold", "--connections", "--timeout", "--out");

    Options {
        modes = Set.copyOf(modes);
        pools = List.copyOf(pools);
        kinds = List.copyOf(kinds);
        threads = List.copyOf(threads);
        args = List.copyOf(args);
    }

    /** Parses a command line; throws {@link UsageException} naming the first bad option. */
    static Options parse(String... args) {
        Map<String, String> given = CommandLine.collect(args, FLAGS, VALUED);
        boolean quick = given.containsKey("--quick");
        boolean virtual = given.containsKey("--virtual");
        boolean platform = given.containsKey("--platform");
        if (virtual && platform) {
            throw new UsageException("--virtual and --platform exclude each other (give neither for both)");
        }
        if (virtual && !VirtualThreads.available()) {
            throw new UsageException("--virtual: " + VirtualThreads.whyMissing()
                    + "; start the harness on JDK 21 or newer (e.g. JAVA_HOME=<Temurin 25> mvn ...)");
        }
        List<ThreadKind> kinds = virtual ? List.of(ThreadKind.VIRTUAL)
                : platform || !ThreadKind.VIRTUAL.available() ? List.of(ThreadKind.PLATFORM)
                : List.of(ThreadKind.PLATFORM, ThreadKind.VIRTUAL);
        return new Options(
                modes(given.getOrDefault("--mode", "both")),
                CommandLine.pools(given.getOrDefault("--pools", "all"), true),
                kinds,
                given.containsKey("--threads") ? threads(given.get("--threads")) : List.of(),
                CommandLine.positive("--runs", given.getOrDefault("--runs", quick ? "1" : "3")),
                CommandLine.duration("--warmup", given.getOrDefault("--warmup", quick ? "100ms" : "1s"), true),
                CommandLine.duration("--window", given.getOrDefault("--window", quick ? "300ms" : "2s"), false),
                CommandLine.duration("--hold", given.getOrDefault("--hold", "1ms"), true),
                CommandLine.positive("--connections", given.getOrDefault("--connections", "6")),
                CommandLine.duration("--timeout", given.getOrDefault("--timeout", "30s"), false),
                Path.of(given.getOrDefault("--out", "benchmarks/results/scaling")),
                Duration.ofMillis(quick ? 50 : 250),
                quick,
                given.containsKey("--help"),
                List.of(args));
    }

    /** The thread counts to run for one kind. */
    List<Integer> threadCounts(ThreadKind kind) {
        return !threads.isEmpty() ? threads : quick ? QUICK_THREADS : kind.defaultThreadCounts();
    }

    private static Set<Mode> modes(String value) {
        return switch (value) {
            case "scaling" -> EnumSet.of(Mode.SCALING);
            case "held" -> EnumSet.of(Mode.HELD);
            case "both" -> EnumSet.allOf(Mode.class);
            default -> throw new UsageException("--mode: expected scaling, held or both, got '" + value + "'");
        };
    }

    private static List<Integer> threads(String value) {
        List<Integer> counts = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            int n;
            try {
                n = Integer.parseInt(part.trim());
            } catch (NumberFormatException e) {
                n = 0;
            }
            if (n <= 0) {
                throw new UsageException("--threads: expected positive whole numbers separated by commas, got '"
                        + value + "'");
            }
            counts.add(n);
        }
        return counts;
    }

    private static String join(List<Integer> counts) {
        return counts.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
