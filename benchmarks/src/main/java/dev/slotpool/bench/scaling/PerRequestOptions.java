package dev.slotpool.bench.scaling;

import dev.slotpool.bench.CommandLine;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.UsageException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The command line of {@link PerRequest}, checked as a whole.
 *
 * @param pools         pools compared, in this order within each run
 * @param inFlight      requests in flight at any time, each on its own virtual thread
 * @param runs          runs per pool; the table shows medians
 * @param warmup        requests before the window, once every chain has started
 * @param window        measurement window
 * @param statement     each request runs one {@code SELECT 1} between borrow and close
 * @param hold          the statement's stub query delay (0: none)
 * @param arrivals      how a chain's next request reaches a carrier
 * @param dispatchers   platform threads that start the requests' virtual threads ({@link Arrivals#DISPATCH})
 * @param connections   pool size (fixed)
 * @param borrowTimeout every pool's borrow timeout: long, so that a timeout means real starvation
 * @param out           output directory
 * @param pause         pause after each run's teardown and GC
 * @param help          print the usage and do nothing else
 * @param args          the command line as given, echoed in the summary
 */
record PerRequestOptions(List<PoolKind> pools, int inFlight, int runs, Duration warmup, Duration window,
                         boolean statement, Duration hold, Arrivals arrivals, int dispatchers, int connections, Duration borrowTimeout, Path out,
                         Duration pause, boolean help, List<String> args) {

    static final String USAGE = """
            Usage: PerRequest [options]      (needs a JDK with virtual threads: 21 or newer)
              --pools LIST                e.g. slotpool,hikari (the default); the first one else is the baseline
              --in-flight N               requests in flight, each on a new virtual thread (200)
              --runs N                    runs per pool; the table shows medians (3)
              --warmup DURATION           requests before the window, once every chain has started (1s)
              --window DURATION           measurement window (3s)
              --statement                 run one SELECT 1 per request between borrow and close
              --hold DURATION             the statement's stub query delay; implies --statement (0)
              --arrivals chain|dispatch   chain: the request's own virtual thread starts the next one (the
                                          default; on JDK 25 a chain that never blocks can keep a carrier, so
                                          read its per-chain fairness with docs/benchmarks.md); dispatch: a
                                          request's end hands its chain to a platform dispatcher thread, which
                                          starts the next request's virtual thread, as a server's poller does
                                          (fair, but on 2 cores the dispatcher limits both pools)
              --dispatchers N             dispatcher threads with --arrivals dispatch; chain i goes through
                                          dispatcher i mod N (1)
              --connections N             pool size (6)
              --timeout DURATION          borrow timeout of every pool (30s)
              --out DIR                   output directory (benchmarks/results/per-request)
              --quick                     tiny run: 20 in flight, warm-up 100ms, window 300ms, 1 run
              --help                      this text
            Durations: 500us, 300ms, 2s, 1.5s, 1m.
            """;

    private static final Set<String> FLAGS = Set.of("--statement", "--quick", "--help");
    private static final Set<String> VALUED = Set.of("--pools", "--in-flight", "--runs", "--warmup", "--window",
            "--hold", "--arrivals", "--dispatchers", "--connections", "--timeout", "--out");

    PerRequestOptions {
        pools = List.copyOf(pools);
        args = List.copyOf(args);
    }

    /** Parses a command line; throws {@link UsageException} naming the first bad option. */
    static PerRequestOptions parse(String... args) {
        Map<String, String> given = CommandLine.collect(args, FLAGS, VALUED);
        boolean quick = given.containsKey("--quick");
        Duration hold = CommandLine.duration("--hold", given.getOrDefault("--hold", "0ms"), true);
        return new PerRequestOptions(
                CommandLine.pools(given.getOrDefault("--pools", "slotpool,hikari"), false),
                CommandLine.positive("--in-flight", given.getOrDefault("--in-flight", quick ? "20" : "200")),
                CommandLine.positive("--runs", given.getOrDefault("--runs", quick ? "1" : "3")),
                CommandLine.duration("--warmup", given.getOrDefault("--warmup", quick ? "100ms" : "1s"), true),
                CommandLine.duration("--window", given.getOrDefault("--window", quick ? "300ms" : "3s"), false),
                given.containsKey("--statement") || !hold.isZero(),
                hold,
                Arrivals.parse(given.getOrDefault("--arrivals", "chain")),
                CommandLine.positive("--dispatchers", given.getOrDefault("--dispatchers", "1")),
                CommandLine.positive("--connections", given.getOrDefault("--connections", "6")),
                CommandLine.duration("--timeout", given.getOrDefault("--timeout", "30s"), false),
                Path.of(given.getOrDefault("--out", "benchmarks/results/per-request")),
                Duration.ofMillis(quick ? 50 : 250),
                given.containsKey("--help"),
                List.of(args));
    }

    /** How a chain's next request reaches a carrier. */
    enum Arrivals {
        /** Through a platform dispatcher thread, from outside the carriers, as a server's poller submits requests. */
        DISPATCH,
        /** Started by the previous request's own virtual thread, as its last act. */
        CHAIN;

        static Arrivals parse(String value) {
            return switch (value) {
                case "dispatch" -> DISPATCH;
                case "chain" -> CHAIN;
                default -> throw new UsageException("--arrivals: expected dispatch or chain, got " + value);
            };
        }

        String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What one request does, for titles and CSV rows. */
    String work() {
        if (!statement) {
            return "borrow → close";
        }
        return hold.isZero() ? "borrow → SELECT 1 → close"
                : "borrow → SELECT 1 held " + hold.toNanos() / 1_000 + " µs by the stub → close";
    }
}
