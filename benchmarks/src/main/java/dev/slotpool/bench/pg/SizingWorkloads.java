package dev.slotpool.bench.pg;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.slotpool.LimitSnapshot;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.Sizing;
import dev.slotpool.SlotPoolDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntSupplier;
import java.util.function.ToDoubleFunction;
import javax.sql.DataSource;

/**
 * Adaptive sizing against fixed sizes and HikariCP on an embedded PostgreSQL (docs/benchmarks.md, "Adaptive
 * sizing"): three workloads (CPU-bound {@code generate_series} counts, latency-bound 10 ms {@code pg_sleep}, a hot
 * row updated and held 2 ms by every transaction), each against every pool with the same threads; then one
 * adaptive pool through the phases CPU, latency, lock, CPU, with its limit sampled every 250 ms; then a fleet of
 * adaptive pools, each with its fleet budget, and one of fixed pools of that size, on the latency-bound workload,
 * against a server whose {@code max_connections} is the budgets' sum.
 *
 * <p>{@code --threads N --warmup S --window S --phase S --sizes 1,2,...,64 --workloads CPU,LATENCY,LOCK
 * --rounds N --fleet POOLS --budget N --fleet-seconds S --out DIR} ({@code --phase 0}, {@code --fleet 0}: none;
 * each cell runs once per round, and the medians over the rounds are printed and written)
 */
public final class SizingWorkloads {

    /** The workloads, as one transaction each on a borrowed connection. */
    enum Workload {
        CPU {
            @Override
            void run(Connection c) throws SQLException {
                try (Statement s = c.createStatement()) {
                    s.executeQuery("SELECT count(*) FROM generate_series(1, 20000)").close();
                }
            }
        },
        LATENCY {
            @Override
            void run(Connection c) throws SQLException {
                try (Statement s = c.createStatement()) {
                    s.executeQuery("SELECT pg_sleep(0.01)").close();
                }
            }
        },
        LOCK {
            @Override
            void run(Connection c) throws SQLException {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("UPDATE hot SET n = n + 1 WHERE id = 1");
                    s.executeQuery("SELECT pg_sleep(0.002)").close();
                }
                c.commit();
            }
        };

        abstract void run(Connection c) throws SQLException;
    }

    /** A pool under test: its DataSource, its connections held and lent now, its limit (-1: none), its close. */
    record Pool(String name, DataSource ds, IntSupplier held, IntSupplier lent, IntSupplier limit,
                AutoCloseable close) {
    }

    /** One cell's numbers. */
    record Cell(String workload, String pool, double txPerSecond, double p50Millis, double p99Millis,
                double meanHeld, int maxHeld, double meanLent, double meanLimit) {

        /** The median of each measure over a cell's runs. */
        static Cell median(List<Cell> runs) {
            Cell first = runs.get(0);
            return new Cell(first.workload(), first.pool(), med(runs, Cell::txPerSecond), med(runs, Cell::p50Millis),
                    med(runs, Cell::p99Millis), med(runs, Cell::meanHeld),
                    (int) med(runs, c -> c.maxHeld()), med(runs, Cell::meanLent), med(runs, Cell::meanLimit));
        }

        private static double med(List<Cell> runs, ToDoubleFunction<Cell> f) {
            double[] v = runs.stream().mapToDouble(f).sorted().toArray();
            return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        }
    }

    /** The adaptive pools' limit changes ({@code LIMIT} events: when, the change and why), written after each cell
     * to {@code limit-events.txt}: what the controller did, beside what the cell measured. */
    private static final Queue<PoolEvent> LIMIT_CHANGES =
            new ConcurrentLinkedQueue<>();
    private static final PoolListener LIMIT_EVENTS = new PoolListener() {
        @Override
        public void onEvent(PoolEvent e) {
            if (e.type() == PoolEvent.Type.LIMIT) {
                LIMIT_CHANGES.add(e);
            }
        }
    };

    private SizingWorkloads() {
    }

    /** Appends the limit changes since the last call to {@code limit-events.txt}, under {@code heading}. */
    private static void writeLimitChanges(Path out, String heading) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("== " + heading);
        for (PoolEvent e; (e = LIMIT_CHANGES.poll()) != null; ) {
            lines.add(e.at() + " " + e.detail());
        }
        Files.write(out.resolve("limit-events.txt"), lines, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    public static void main(String[] args) throws Exception {
        int threads = intArg(args, "--threads", 64);
        Duration warmup = Duration.ofSeconds(intArg(args, "--warmup", 8));
        Duration window = Duration.ofSeconds(intArg(args, "--window", 6));
        Duration phase = Duration.ofSeconds(intArg(args, "--phase", 30));
        int[] sizes = Arrays.stream(strArg(args, "--sizes", "1,2,4,8,16,32,64").split(","))
                .mapToInt(Integer::parseInt).toArray();
        String workloads = strArg(args, "--workloads", "CPU,LATENCY,LOCK");
        Path out = Path.of(strArg(args, "--out", "benchmarks/results/sizing"));
        Files.createDirectories(out);
        int formula = 2 * Runtime.getRuntime().availableProcessors() + 1;
        try (EmbeddedPostgres server = EmbeddedPostgres.builder().setServerConfig("max_connections", "400")
                .setServerConfig("synchronous_commit", "off").start()) {
            try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE hot (id int PRIMARY KEY, n bigint NOT NULL)");
                s.execute("INSERT INTO hot VALUES (1, 0)");
            }
            String url = server.getJdbcUrl("postgres", "postgres");
            int rounds = intArg(args, "--rounds", 1);
            Map<String, List<Cell>> runs = new LinkedHashMap<>();
            try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("cells.csv")))) {
                csv.println("round,workload,pool,threads,tx_per_s,p50_ms,p99_ms,mean_held,max_held,mean_lent,"
                        + "mean_limit");
                for (int round = 1; round <= rounds; round++) {
                    for (String w : workloads.split(",")) {
                        if (w.isBlank()) {
                            continue;
                        }
                        Workload workload = Workload.valueOf(w);
                        List<String> pools = new ArrayList<>();
                        for (int size : sizes) {
                            pools.add("fixed-" + size);
                        }
                        pools.add("adaptive-64");
                        pools.add("hikari-10");
                        pools.add("hikari-" + formula);
                        for (String p : pools) {
                            Cell cell;
                            try (PoolHandle h = new PoolHandle(start(p, url))) {
                                cell = measure(workload, h.pool, threads, warmup, window);
                            }
                            runs.computeIfAbsent(cell.workload() + "," + cell.pool(), k -> new ArrayList<>()).add(cell);
                            csv.printf(Locale.ROOT, "%d,%s,%s,%d,%.1f,%.2f,%.2f,%.1f,%d,%.1f,%.1f%n", round,
                                    cell.workload(), cell.pool(), threads, cell.txPerSecond(), cell.p50Millis(),
                                    cell.p99Millis(), cell.meanHeld(), cell.maxHeld(), cell.meanLent(),
                                    cell.meanLimit());
                            csv.flush();
                            print("run " + round, cell);
                            writeLimitChanges(out, "run " + round + " " + cell.workload() + " " + cell.pool());
                        }
                    }
                }
            }
            Map<Workload, Integer> bestFixed = runs.isEmpty() ? Map.of()
                    : medians(runs, threads, out);
            if (!phase.isZero()) {
                phases(url, threads, phase, bestFixed, out);
            }
        }
        int fleet = intArg(args, "--fleet", 0);
        if (fleet > 0) {
            // A server of its own whose max_connections is the fleet's budgets and its reserved slots (3) with 3
            // spare, far below the pools' ceilings: a pool past its budget would be refused sessions.
            int budget = intArg(args, "--budget", 12);
            try (EmbeddedPostgres server = EmbeddedPostgres.builder()
                    .setServerConfig("max_connections", String.valueOf(fleet * budget + 6))
                    .setServerConfig("synchronous_commit", "off").start()) {
                try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("fleet.csv")))) {
                    csv.println("sizing,pool,threads,budget,tx_per_s,mean_limit,mean_lent,most_held");
                    for (Sizing sizing : Sizing.values()) {
                        fleet(server, server.getJdbcUrl("postgres", "postgres"), sizing, fleet, threads / fleet,
                                budget, Duration.ofSeconds(intArg(args, "--fleet-seconds", 20)), csv);
                    }
                }
            }
        }
    }

    private static void print(String what, Cell cell) {
        System.out.printf(Locale.ROOT, "%-7s %-8s %-12s %9.1f tx/s  p50 %7.2f ms  p99 %8.2f ms  held %5.1f (max %d)  "
                        + "lent %5.1f  limit %5.1f%n", what, cell.workload(), cell.pool(), cell.txPerSecond(),
                cell.p50Millis(), cell.p99Millis(), cell.meanHeld(), cell.maxHeld(), cell.meanLent(),
                cell.meanLimit());
    }

    /** Each cell's medians over its runs, and per workload adaptive against the best fixed size by median tx/s;
     * returns that size per workload. */
    private static Map<Workload, Integer> medians(Map<String, List<Cell>> runs, int threads,
                                                            Path out) throws Exception {
        Map<Workload, Integer> bestFixed = new EnumMap<>(Workload.class);
        List<Cell> medians = runs.values().stream().map(Cell::median).toList();
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("cells-median.csv")))) {
            csv.println("workload,pool,threads,runs,tx_per_s,p50_ms,p99_ms,mean_held,max_held,mean_lent,mean_limit");
            for (Cell m : medians) {
                csv.printf(Locale.ROOT, "%s,%s,%d,%d,%.1f,%.2f,%.2f,%.1f,%d,%.1f,%.1f%n", m.workload(), m.pool(),
                        threads, runs.get(m.workload() + "," + m.pool()).size(), m.txPerSecond(), m.p50Millis(),
                        m.p99Millis(), m.meanHeld(), m.maxHeld(), m.meanLent(), m.meanLimit());
                print("median", m);
            }
        }
        for (String w : medians.stream().map(Cell::workload).distinct().toList()) {
            Cell best = medians.stream().filter(m -> m.workload().equals(w) && m.pool().startsWith("fixed-"))
                    .max(Comparator.comparingDouble(Cell::txPerSecond)).orElseThrow();
            Cell adaptive = medians.stream().filter(m -> m.workload().equals(w) && m.pool().startsWith("adaptive-"))
                    .findFirst().orElseThrow();
            System.out.printf(Locale.ROOT, "%-8s best %s: adaptive tx/s %.2f of it, p99 %.2f of it%n", w,
                    best.pool(), adaptive.txPerSecond() / best.txPerSecond(), adaptive.p99Millis() / best.p99Millis());
            bestFixed.put(Workload.valueOf(w), Integer.parseInt(best.pool().substring("fixed-".length())));
        }
        return bestFixed;
    }

    /** Closes a pool however the measure ends. */
    private record PoolHandle(Pool pool) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            pool.close().close();
        }
    }

    static Pool start(String spec, String url) {
        String[] kind = spec.split("-");
        int size = Integer.parseInt(kind[1]);
        switch (kind[0]) {
            case "fixed", "adaptive" -> {
                SlotPoolDataSource ds = SlotPoolDataSource.builder().name(spec).url(url).minSize(1).maxSize(size)
                        .sizing(kind[0].equals("adaptive") ? Sizing.ADAPTIVE : Sizing.FIXED)
                        .listener(LIMIT_EVENTS).borrowTimeout(Duration.ofSeconds(60)).build();
                IntSupplier limit = kind[0].equals("adaptive")
                        ? () -> ds.limits().stream().mapToInt(LimitSnapshot::limit).sum() : () -> -1;
                return new Pool(spec, ds, () -> ds.snapshot().total(), () -> ds.snapshot().borrowed(), limit, ds::close);
            }
            case "hikari" -> {
                HikariConfig c = new HikariConfig();
                c.setPoolName(spec);
                c.setJdbcUrl(url);
                c.setMaximumPoolSize(size);
                c.setMinimumIdle(size);
                c.setConnectionTimeout(60_000);
                HikariDataSource ds = new HikariDataSource(c);
                return new Pool(spec, ds, () -> ds.getHikariPoolMXBean().getTotalConnections(),
                        () -> ds.getHikariPoolMXBean().getActiveConnections(), () -> -1, ds::close);
            }
            default -> throw new IllegalArgumentException("unknown pool " + spec);
        }
    }

    /** Warms up, then measures one window: throughput, latency from borrow to return, connections held. */
    static Cell measure(Workload workload, Pool pool, int threads, Duration warmup, Duration window)
            throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        long[][] latencies = new long[threads][];
        int[] counts = new int[threads];
        long[] measureFrom = new long[1];
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        long from = start + warmup.toNanos();
        long to = from + window.toNanos();
        for (int i = 0; i < threads; i++) {
            int me = i;
            latencies[me] = new long[1 << 16];
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    long t0 = System.nanoTime();
                    try (Connection c = pool.ds().getConnection()) {
                        workload.run(c);
                    } catch (SQLException e) {
                        failures.add(e);
                        continue;
                    }
                    long t1 = System.nanoTime();
                    if (t0 >= from && t1 <= to) {
                        if (counts[me] == latencies[me].length) {
                            latencies[me] = Arrays.copyOf(latencies[me], counts[me] * 2);
                        }
                        latencies[me][counts[me]++] = t1 - t0;
                    }
                }
            }, "sizing-" + i);
            t.start();
            workers.add(t);
        }
        long heldSum = 0;
        long lentSum = 0;
        long limitSum = 0;
        int samples = 0;
        int maxHeld = 0;
        while (System.nanoTime() < to) {
            Thread.sleep(100);
            if (System.nanoTime() >= from) {
                int h = pool.held().getAsInt();
                heldSum += h;
                maxHeld = Math.max(maxHeld, h);
                lentSum += pool.lent().getAsInt();
                limitSum += pool.limit().getAsInt();
                samples++;
            }
        }
        stop.set(true);
        for (Thread t : workers) {
            t.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException(failures.size() + " transactions failed, first: " + failures.get(0));
        }
        int n = Arrays.stream(counts).sum();
        long[] all = new long[n];
        int k = 0;
        for (int i = 0; i < threads; i++) {
            System.arraycopy(latencies[i], 0, all, k, counts[i]);
            k += counts[i];
        }
        Arrays.sort(all);
        double seconds = window.toNanos() / 1e9;
        return new Cell(workload.name(), pool.name(), n / seconds, percentile(all, 0.50) / 1e6,
                percentile(all, 0.99) / 1e6, samples == 0 ? 0 : (double) heldSum / samples, maxHeld,
                samples == 0 ? 0 : (double) lentSum / samples, samples == 0 ? 0 : (double) limitSum / samples);
    }

    /** One adaptive pool through CPU, latency, lock and CPU again: tx/s per second and the limit every 250 ms. */
    static void phases(String url, int threads, Duration phase, Map<Workload, Integer> bestFixed,
                       Path out) throws Exception {
        List<long[]> chart = new ArrayList<>();
        Workload[] order = {Workload.CPU, Workload.LATENCY, Workload.LOCK, Workload.CPU};
        Pool pool = start("adaptive-64", url);
        try (PrintWriter series = new PrintWriter(Files.newBufferedWriter(out.resolve("phases.csv")))) {
            series.println("t_ms,phase,limit,held,tx_in_last_250ms");
            Workload[] current = {order[0]};
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong done = new AtomicLong();
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Thread t = new Thread(() -> {
                    while (!stop.get()) {
                        try (Connection c = pool.ds().getConnection()) {
                            current[0].run(c);
                            done.incrementAndGet();
                        } catch (SQLException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }, "phase-" + i);
                t.start();
                workers.add(t);
            }
            long t0 = System.nanoTime();
            long last = 0;
            List<String> summary = new ArrayList<>();
            for (int p = 0; p < order.length; p++) {
                current[0] = order[p];
                long begin = t0 + p * phase.toNanos();
                long end = begin + phase.toNanos();
                List<long[]> samples = new ArrayList<>(); // {ms into the phase, limit, transactions}
                while (System.nanoTime() < end) {
                    Thread.sleep(250);
                    long d = done.get();
                    long now = System.nanoTime();
                    int limit = pool.limit().getAsInt();
                    series.printf(Locale.ROOT, "%d,%s,%d,%d,%d%n", (now - t0) / 1_000_000, order[p], limit,
                            pool.held().getAsInt(), d - last);
                    samples.add(new long[] {(now - begin) / 1_000_000, limit, d - last});
                    chart.add(new long[] {(now - t0) / 1_000_000, limit, pool.held().getAsInt()});
                    last = d;
                }
                series.flush();
                summary.add(settled(p + 1, order[p], samples, phase, Instant.now().minusMillis(
                        (System.nanoTime() - begin) / 1_000_000), out));
            }
            summary.forEach(System.out::println);
            Files.write(out.resolve("phases-summary.csv"), summary);
            SizingCharts.write(out, chart, order, phase.toMillis(), bestFixed, threads + " threads, ceiling 64, "
                    + phase.toSeconds() + " s a phase");
            stop.set(true);
            for (Thread t : workers) {
                t.join();
            }
        } finally {
            pool.close().close();
        }
    }

    /**
     * One phase's line: the limit's median over its last 10 s and range there; the time from the phase's start to
     * the last change of the limit in it other than a probe (a step up for one measured tick, and back), which is
     * when the controller last settled; and the throughput after its first 10 s. The phase's changes go to
     * {@code limit-events.txt}.
     */
    static String settled(int n, Workload w, List<long[]> samples, Duration phase, Instant begin,
                          Path out) throws IOException {
        long tail = phase.toMillis() - 10_000;
        int[] last = samples.stream().filter(x -> x[0] >= tail).mapToInt(x -> (int) x[1]).sorted().toArray();
        int median = last[last.length / 2];
        long settle = 0;
        for (PoolEvent e : LIMIT_CHANGES) {
            boolean probe = e.detail().contains(": probing ") || e.detail().endsWith("no gain, back");
            if (!probe && e.at().isAfter(begin)) {
                settle = Math.max(settle, Duration.between(begin, e.at()).toMillis());
            }
        }
        writeLimitChanges(out, "phase " + n + " " + w);
        long tx = samples.stream().filter(x -> x[0] >= 10_000).mapToLong(x -> x[2]).sum();
        double seconds = (phase.toMillis() - 10_000) / 1000.0;
        return String.format(Locale.ROOT, "phase %d %s: limit median %d (%d-%d) over the last 10 s, settled after "
                + "%.2f s, %.1f tx/s after 10 s", n, w, median, last[0], last[last.length - 1], settle / 1000.0,
                tx / seconds);
    }

    /**
     * {@code pools} pools with {@code threadsEach} threads each on the latency-bound workload: adaptive ones with a
     * ceiling of 64 and {@code budget} each, or fixed ones of {@code budget} connections; every 100 ms each pool's
     * connections held and lent, its limit, and the server's client sessions.
     */
    static void fleet(EmbeddedPostgres server, String url, Sizing sizing, int pools, int threadsEach, int budget,
                      Duration length, PrintWriter csv) throws Exception {
        List<SlotPoolDataSource> fleet = new ArrayList<>();
        for (int i = 0; i < pools; i++) {
            var b = SlotPoolDataSource.builder().name("fleet-" + i).url(url).minSize(1).sizing(sizing)
                    .borrowTimeout(Duration.ofSeconds(60));
            fleet.add((sizing == Sizing.ADAPTIVE ? b.maxSize(64).fleetBudget(budget) : b.maxSize(budget)).build());
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLongArray done = new AtomicLongArray(pools);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < pools; i++) {
            int me = i;
            for (int t = 0; t < threadsEach; t++) {
                Thread w = new Thread(() -> {
                    while (!stop.get()) {
                        try (Connection c = fleet.get(me).getConnection()) {
                            Workload.LATENCY.run(c);
                        } catch (SQLException e) {
                            throw new IllegalStateException(e);
                        }
                        done.incrementAndGet(me);
                    }
                }, "fleet-" + i + "-" + t);
                w.start();
                workers.add(w);
            }
        }
        int[] mostHeld = new int[pools];
        long[] limitSum = new long[pools];
        long[] lentSum = new long[pools];
        int samples = 0;
        int mostTotal = 0;
        int mostSessions = 0;
        long warm = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        long end = System.nanoTime() + length.toNanos();
        long[] atWarm = null;
        try (Connection admin = server.getPostgresDatabase().getConnection();
             Statement q = admin.createStatement()) {
            while (System.nanoTime() < end) {
                Thread.sleep(100);
                int total = 0;
                boolean warmed = atWarm != null;
                samples += warmed ? 1 : 0;
                for (int i = 0; i < pools; i++) {
                    var snapshot = fleet.get(i).snapshot();
                    int h = snapshot.total();
                    mostHeld[i] = Math.max(mostHeld[i], h);
                    total += h;
                    if (warmed) {
                        lentSum[i] += snapshot.borrowed();
                        limitSum[i] += fleet.get(i).limits().stream().mapToInt(LimitSnapshot::limit).sum();
                    }
                }
                mostTotal = Math.max(mostTotal, total);
                try (var rs = q.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE backend_type = "
                        + "'client backend' AND application_name = 'PostgreSQL JDBC Driver' AND pid <> "
                        + "pg_backend_pid()")) {
                    rs.next();
                    mostSessions = Math.max(mostSessions, rs.getInt(1));
                }
                if (atWarm == null && System.nanoTime() >= warm) {
                    atWarm = copy(done);
                }
            }
        }
        long[] atEnd = copy(done);
        stop.set(true);
        for (Thread w : workers) {
            w.join();
        }
        for (SlotPoolDataSource p : fleet) {
            p.close();
        }
        double seconds = (length.toNanos() - Duration.ofSeconds(5).toNanos()) / 1e9;
        String kind = sizing.name().toLowerCase(Locale.ROOT);
        for (int i = 0; i < pools; i++) {
            String line = String.format(Locale.ROOT, "%s,fleet-%d,%d,%d,%.1f,%.1f,%.1f,%d", kind, i, threadsEach,
                    budget, (atEnd[i] - atWarm[i]) / seconds, (double) limitSum[i] / Math.max(1, samples),
                    (double) lentSum[i] / Math.max(1, samples), mostHeld[i]);
            csv.println(line);
            System.out.println("fleet " + line);
        }
        csv.printf(Locale.ROOT, "%s,all,%d,%d,%.1f,,,%d%n", kind, threadsEach * pools, budget * pools,
                (Arrays.stream(atEnd).sum() - Arrays.stream(atWarm).sum()) / seconds, mostTotal);
        csv.printf(Locale.ROOT, "%s,server-sessions,,,,,,%d%n", kind, mostSessions);
        csv.flush();
    }

    private static long[] copy(AtomicLongArray a) {
        long[] c = new long[a.length()];
        for (int i = 0; i < c.length; i++) {
            c[i] = a.get(i);
        }
        return c;
    }

    private static double percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

    private static int intArg(String[] args, String name, int dflt) {
        return Integer.parseInt(strArg(args, name, String.valueOf(dflt)));
    }

    private static String strArg(String[] args, String name, String dflt) {
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return dflt;
    }
}
