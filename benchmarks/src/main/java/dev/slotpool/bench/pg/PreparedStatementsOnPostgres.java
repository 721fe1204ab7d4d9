package dev.slotpool.bench.pg;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.RunOrder;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Prepared statements against a real PostgreSQL server (embedded): slotpool's statement cache off and on, next to
 * pgjdbc's own cache ({@code prepareThreshold}, {@code preparedStatementCacheQueries}) and to HikariCP as it ships
 * (which has no statement cache of its own and leaves pgjdbc's on). Every thread loops
 * {@code getConnection(); prepareStatement(one of N queries); setInt; executeQuery; read; close; close} for a
 * warm-up and then a measured window per variant. Variants run one after another on the same server: first a pass
 * over every variant for the warm-up's length twice, not counted (the JVM compiles pgjdbc's code during whichever
 * runs first: docs/benchmarks.md, "The first run of an invocation"), then {@code --runs} runs, each starting one
 * variant further along.
 *
 * <p>Run from the repository root; the table it prints goes into docs/statement-cache.md:
 * <pre>{@code
 * mvn -q -pl benchmarks -am compile exec:java \
 *     -Dexec.mainClass=dev.slotpool.bench.pg.PreparedStatementsOnPostgres \
 *     -Dexec.args="--seconds 20 --warmup 5 --threads 4 --pool-size 4 --queries 20 --cache-size 32 --runs 3"
 * }</pre>
 */
public final class PreparedStatementsOnPostgres {

    /**
     * One configuration: the pool, slotpool's cache size and pgjdbc's two settings (pgjdbc ships 5 and 256; 0 and
     * 0 turn its server-side prepare and its query cache off). HikariCP runs only with pgjdbc's defaults.
     */
    public record Variant(String name, PoolKind pool, int statementCacheSize, int prepareThreshold,
                          int cacheQueries) {
    }

    /** A variant's measured window in one run (0: the warm-up pass, not counted). */
    public record Result(Variant variant, int run, long operations, double seconds, long cacheHits,
                         long cacheMisses) {

        public double opsPerSecond() {
            return operations / seconds;
        }

        public double meanMicros(int threads) {
            return operations == 0 ? Double.NaN : threads * seconds * 1e6 / operations;
        }
    }

    /** The run's settings; {@link #parse} reads them from the command line. */
    public record Options(Duration warmup, Duration window, int threads, int poolSize, int queries, int cacheSize,
                          int runs) {

        public static Options parse(String[] args) {
            double seconds = 20;
            double warmup = 5;
            int threads = 4;
            int poolSize = 4;
            int queries = 20;
            int cacheSize = 32;
            int runs = 3;
            if (args.length % 2 != 0) {
                throw new IllegalArgumentException("option " + args[args.length - 1] + " has no value");
            }
            for (int i = 0; i + 1 < args.length; i += 2) {
                String value = args[i + 1];
                switch (args[i]) {
                    case "--seconds" -> seconds = Double.parseDouble(value);
                    case "--warmup" -> warmup = Double.parseDouble(value);
                    case "--threads" -> threads = Integer.parseInt(value);
                    case "--pool-size" -> poolSize = Integer.parseInt(value);
                    case "--queries" -> queries = Integer.parseInt(value);
                    case "--cache-size" -> cacheSize = Integer.parseInt(value);
                    case "--runs" -> runs = Integer.parseInt(value);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + " (--seconds, --warmup, --threads, --pool-size, --queries, --cache-size, --runs)");
                }
            }
            if (runs < 1) {
                throw new IllegalArgumentException("--runs: " + runs + " (at least 1)");
            }
            return new Options(Duration.ofMillis((long) (warmup * 1000)), Duration.ofMillis((long) (seconds * 1000)),
                    threads, poolSize, queries, cacheSize, runs);
        }

        List<Variant> variants() {
            return List.of(
                    new Variant("HikariCP as it ships: pgjdbc's cache (its defaults)", PoolKind.HIKARI, 0, 5, 256),
                    new Variant("no cache: slotpool off, pgjdbc off", PoolKind.SLOTPOOL, 0, 0, 0),
                    new Variant("pgjdbc's cache (its defaults), slotpool off", PoolKind.SLOTPOOL, 0, 5, 256),
                    new Variant("slotpool's cache, pgjdbc's query cache off", PoolKind.SLOTPOOL, cacheSize, 5, 0),
                    new Variant("both caches", PoolKind.SLOTPOOL, cacheSize, 5, 256));
        }
    }

    private PreparedStatementsOnPostgres() {
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        System.out.println(table(options, run(options)));
    }

    /** Starts a server, measures every variant on it (the warm-up pass first, as run 0), stops it. */
    public static List<Result> run(Options options) throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            String url = pg.getJdbcUrl("postgres", "postgres");
            try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE ps_bench (id int PRIMARY KEY, v text)");
                s.execute("INSERT INTO ps_bench SELECT g, 'v' || g FROM generate_series(1, 1000) g");
            }
            List<Result> results = new ArrayList<>();
            for (Variant v : options.variants()) {
                results.add(measure(url, v, options, 0, options.warmup()));
            }
            for (int run = 1; run <= options.runs(); run++) {
                for (Variant v : RunOrder.forRun(options.variants(), run)) {
                    results.add(measure(url, v, options, run, options.window()));
                }
            }
            return results;
        }
    }

    /** The variant's pool, fixed at the run's size. */
    private static DataSource open(String url, Variant v, Options o) {
        if (v.pool() == PoolKind.HIKARI) {
            HikariConfig c = new HikariConfig();
            c.setPoolName("pg-statements");
            c.setJdbcUrl(url);
            c.setMinimumIdle(o.poolSize());
            c.setMaximumPoolSize(o.poolSize());
            return new HikariDataSource(c);
        }
        return SlotPoolDataSource.builder().name("pg-statements").url(url)
                .username("postgres").minSize(o.poolSize()).maxSize(o.poolSize())
                .statementCacheSize(v.statementCacheSize())
                .connectionProperty("prepareThreshold", String.valueOf(v.prepareThreshold()))
                .connectionProperty("preparedStatementCacheQueries", String.valueOf(v.cacheQueries()))
                .build();
    }

    /** slotpool's statement cache counters now; zeros for HikariCP, which has no cache of its own. */
    private static long[] cacheCounts(DataSource ds) {
        if (ds instanceof SlotPoolDataSource slotpool) {
            OriginSnapshot o = slotpool.snapshot().origins().get(0);
            return new long[] {o.statementCacheHits(), o.statementCacheMisses()};
        }
        return new long[] {0, 0};
    }

    private static Result measure(String url, Variant v, Options o, int run, Duration window) throws Exception {
        String[] sqls = new String[o.queries()];
        for (int i = 0; i < sqls.length; i++) {
            sqls[i] = "SELECT v FROM ps_bench WHERE id = ? AND " + i + " = " + i;
        }
        DataSource ds = open(url, v, o);
        try (AutoCloseable pool = (AutoCloseable) ds) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicBoolean counting = new AtomicBoolean();
            AtomicLong operations = new AtomicLong();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < o.threads(); t++) {
                int first = t;
                Thread thread = new Thread(() -> {
                    long mine = 0;
                    int i = first;
                    try {
                        while (!stop.get()) {
                            try (Connection c = ds.getConnection();
                                 PreparedStatement ps = c.prepareStatement(sqls[i % sqls.length])) {
                                ps.setInt(1, 1 + i % 1000);
                                try (ResultSet rs = ps.executeQuery()) {
                                    rs.next();
                                }
                            }
                            i++;
                            if (counting.get()) {
                                mine++;
                            }
                        }
                    } catch (SQLException | RuntimeException e) {
                        failures.add(e);
                    }
                    operations.addAndGet(mine);
                }, "pg-statements-" + t);
                threads.add(thread);
                thread.start();
            }
            Thread.sleep(o.warmup().toMillis());
            long[] before = cacheCounts(ds);
            long start = System.nanoTime();
            counting.set(true);
            Thread.sleep(window.toMillis());
            counting.set(false);
            double seconds = (System.nanoTime() - start) / 1e9;
            long[] after = cacheCounts(ds);
            stop.set(true);
            for (Thread thread : threads) {
                thread.join();
            }
            if (!failures.isEmpty()) {
                throw new IllegalStateException(v.name() + " failed", failures.get(0));
            }
            return new Result(v, run, operations.get(), seconds, after[0] - before[0], after[1] - before[1]);
        }
    }

    /**
     * The counted runs as a markdown table, headed by the settings that produced them: per variant, the medians of
     * its runs, and its ops/s ÷ HikariCP's taken run by run.
     */
    public static String table(Options o, List<Result> results) {
        List<Result> counted = results.stream().filter(r -> r.run() > 0).toList();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%d threads, %d connections, %d distinct queries, cache size %d, "
                + "%.1f s window after %.1f s warm-up, %d runs after a pass over every variant that is not "
                + "counted; each run starts one variant further along%n%n", o.threads(), o.poolSize(), o.queries(),
                o.cacheSize(), o.window().toMillis() / 1000.0, o.warmup().toMillis() / 1000.0, o.runs()));
        sb.append("| variant | statementCacheSize | prepareThreshold | preparedStatementCacheQueries | ops/s "
                + "| ÷ HikariCP, median of runs (each run) | mean µs/op | slotpool cache hit % |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (Variant v : o.variants()) {
            List<Result> mine = counted.stream().filter(r -> r.variant().equals(v)).toList();
            List<Double> ratios = new ArrayList<>();
            for (Result r : mine) {
                counted.stream().filter(h -> h.run() == r.run() && h.variant().pool() == PoolKind.HIKARI).findFirst()
                        .ifPresent(h -> ratios.add(r.opsPerSecond() / h.opsPerSecond()));
            }
            long hits = mine.stream().mapToLong(Result::cacheHits).sum();
            long lookups = hits + mine.stream().mapToLong(Result::cacheMisses).sum();
            sb.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %,.0f | %s | %.1f | %s |%n", v.name(),
                    v.statementCacheSize(), v.prepareThreshold(), v.cacheQueries(),
                    CellMedians.median(mine.stream().mapToDouble(Result::opsPerSecond).toArray()),
                    ratios.isEmpty() ? "—" : String.format(Locale.ROOT, "%.2f (%s)",
                            CellMedians.median(ratios.stream().mapToDouble(Double::doubleValue).toArray()),
                            String.join(", ", ratios.stream().map(x -> String.format(Locale.ROOT, "%.2f", x))
                                    .toList())),
                    CellMedians.median(mine.stream().mapToDouble(r -> r.meanMicros(o.threads())).toArray()),
                    lookups == 0 ? "—" : String.format(Locale.ROOT, "%.1f", 100.0 * hits / lookups)));
        }
        return sb.toString();
    }
}
