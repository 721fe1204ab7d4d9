package dev.slotpool.bench.scaling;

import com.sun.management.OperatingSystemMXBean;
import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.PoolSettings;
import dev.slotpool.bench.RunOrder;
import dev.slotpool.bench.UsageException;
import dev.slotpool.testsupport.StubDatabase;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Thread-per-request virtual threads (docs/benchmarks.md, "Virtual threads, thread per request"): as a Spring Boot server with
 * {@code spring.threads.virtual.enabled} runs each request on a new virtual thread, every borrow here is made by a
 * new virtual thread that borrows, optionally runs one statement, closes and ends. A fixed number of requests is
 * in flight: each request, as its last act, sends the next request of its <em>chain</em>. By default its own
 * virtual thread starts the next one, so no dispatcher stands between the pools and the carriers; on JDK 25 a
 * chain that never blocks can then keep a carrier while the other chains share the rest (docs/benchmarks.md,
 * "Thread per request: chains that keep a carrier"). With {@code --arrivals dispatch} it hands the chain to a
 * platform dispatcher thread, which starts the next request's virtual thread from outside the carriers, as a
 * server's poller does. The looping harness
 * ({@link ThreadScaling}) keeps each thread for the whole run and cannot show what a pool costs a thread on its
 * first borrow.
 *
 * <p>A run: fresh stub database and pool, every chain started, a warm-up, a window between two snapshots of the
 * chains' counters, process CPU time and wall time, then the chains stop and the pool closes. Pools alternate
 * within each run; the summary gives medians and each pool's ratio to the baseline (the first pool listed that is
 * not slotpool) taken run by run. See {@link PerRequestOptions#USAGE} for the command line.
 */
public final class PerRequest {

    /** How long the chains get to finish their last request with the pool still open. */
    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(10);
    private static final int PRIME_REQUESTS = 2_000;
    /** How often the window samples the chains queued at the dispatchers. */
    private static final Duration QUEUE_SAMPLE = Duration.ofMillis(10);
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    /**
     * {@code com.sun.management.ThreadMXBean.getTotalThreadAllocatedBytes()} (JDK 21+, so by reflection: the module
     * compiles for release 17); it counts what virtual threads allocate, on their carriers. Null when missing.
     */
    private static final Method TOTAL_ALLOCATED = totalAllocatedMethod();

    private PerRequest() {
    }

    public static void main(String[] args) throws IOException, InterruptedException, SQLException {
        PerRequestOptions options;
        try {
            options = PerRequestOptions.parse(args);
            if (!options.help() && !VirtualThreads.available()) {
                throw new UsageException(VirtualThreads.whyMissing()
                        + "; start the harness on JDK 21 or newer (e.g. /usr/lib/jvm/temurin-25-jdk-amd64)");
            }
        } catch (UsageException e) {
            System.err.println("PerRequest: " + e.getMessage());
            System.err.println();
            System.err.print(PerRequestOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.print(PerRequestOptions.USAGE);
            return;
        }
        run(options, System.out, System.err);
    }

    /** Runs every run and pool; writes runs.csv and summary.md; prints the summary to {@code out}. */
    static List<Result> run(PerRequestOptions options, PrintStream out, PrintStream log)
            throws IOException, InterruptedException, SQLException {
        Files.createDirectories(options.out());
        prime(options);
        List<Result> results = new ArrayList<>();
        for (int run = 1; run <= options.runs(); run++) {
            for (PoolKind pool : RunOrder.forRun(options.pools(), run)) {
                Result r = runOnce(options, pool, run);
                results.add(r);
                log.println(r.line(options.runs()));
                // Rewritten after every run: a long invocation that dies midway keeps what it measured.
                writeCsv(options.out().resolve("runs.csv"), results);
            }
        }
        String summary = summary(options, results);
        Files.writeString(options.out().resolve("summary.md"), summary);
        out.print(summary);
        return results;
    }

    /** Class loading and driver registration happen here, not in the first measured run. */
    private static void prime(PerRequestOptions options) throws SQLException {
        for (PoolKind kind : options.pools()) {
            StubDatabase database = StubDatabase.reset("per-request-prime");
            try (BenchPool pool = kind.start(
                    PoolSettings.fixed(database.url(), options.connections(), options.borrowTimeout()))) {
                for (int i = 0; i < PRIME_REQUESTS; i++) {
                    try (Connection c = pool.dataSource().getConnection(); Statement s = c.createStatement()) {
                        s.execute("SELECT 1");
                    }
                }
            }
        }
    }

    private static Result runOnce(PerRequestOptions options, PoolKind kind, int run) throws InterruptedException {
        StubDatabase database = StubDatabase.reset("per-request-" + kind.id());
        String url = options.hold().isZero() ? database.url() : database.url() + "?queryDelayMicros="
                + BigDecimal.valueOf(options.hold().toNanos(), 3).stripTrailingZeros().toPlainString();
        BenchPool pool = kind.start(PoolSettings.fixed(url, options.connections(), options.borrowTimeout()));
        Chains chains = new Chains(options, pool.dataSource());
        long startWall;
        long startCpu;
        long[] startRequests;
        long endWall;
        long endCpu;
        long[] endRequests;
        long[] startErrors;
        long[] endErrors;
        long startAllocated;
        long endAllocated;
        long stragglers;
        long startDispatchCpu;
        long endDispatchCpu;
        double queued;
        try {
            chains.startAll();
            sleep(options.warmup());
            startWall = System.nanoTime();
            startCpu = OS.getProcessCpuTime();
            startAllocated = allocatedBytes();
            startRequests = chains.tally.read(Tally.BORROWS);
            startErrors = chains.tally.read(Tally.ERRORS);
            startDispatchCpu = chains.dispatcherCpuNanos();
            queued = chains.meanQueued(options.window());
            endWall = System.nanoTime();
            endCpu = OS.getProcessCpuTime();
            endAllocated = allocatedBytes();
            endRequests = chains.tally.read(Tally.BORROWS);
            endErrors = chains.tally.read(Tally.ERRORS);
            endDispatchCpu = chains.dispatcherCpuNanos();
        } finally {
            chains.stopping = true;
            stragglers = chains.awaitEnd(DRAIN_LIMIT);
            chains.stopDispatchers();
            pool.close();
        }
        long[] perChain = minus(endRequests, startRequests);
        long requests = Arrays.stream(perChain).sum();
        double windowSeconds = (endWall - startWall) / 1e9;
        double cpuSeconds = (endCpu - startCpu) / 1e9;
        Result r = new Result(kind, run, requests, windowSeconds, requests / windowSeconds, cpuSeconds,
                requests == 0 ? Double.NaN : cpuSeconds * 1e6 / requests,
                requests == 0 || startAllocated < 0 ? Double.NaN : (double) (endAllocated - startAllocated) / requests,
                Fairness.of(perChain), options.arrivals(), options.dispatchers(),
                chains.dispatchers.length == 0 ? Double.NaN
                        : (endDispatchCpu - startDispatchCpu) / 1e9 / windowSeconds / chains.dispatchers.length,
                queued, Arrays.stream(minus(endErrors, startErrors)).sum(), stragglers, chains.firstError);
        System.gc();
        sleep(options.pause());
        return r;
    }

    /**
     * The chains of one run. A request's thread writes its chain's counters, then sends the next request (through
     * a dispatcher's queue and {@code Thread.start}, or {@code Thread.start} alone), whose thread therefore sees
     * them: one writer per chain at any time, as {@link Tally} needs.
     */
    private static final class Chains {

        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

        private final int count;
        private final DataSource dataSource;
        private final boolean statement;
        private final ThreadFactory threads = VirtualThreads.factory();
        private final CountDownLatch ended;
        /** Empty with {@code --arrivals chain}. */
        final Dispatcher[] dispatchers;
        final Tally tally;
        volatile boolean stopping;
        /** The first failure a request saw before the run stopped; written by whichever request sees one. */
        volatile String firstError;

        Chains(PerRequestOptions options, DataSource dataSource) {
            this.count = options.inFlight();
            this.dataSource = dataSource;
            this.statement = options.statement();
            this.ended = new CountDownLatch(count);
            this.tally = new Tally(count);
            this.dispatchers = new Dispatcher[options.arrivals() == PerRequestOptions.Arrivals.DISPATCH
                    ? options.dispatchers() : 0];
            for (int i = 0; i < dispatchers.length; i++) {
                dispatchers[i] = new Dispatcher("per-request-dispatcher-" + i, threads);
            }
        }

        void startAll() {
            for (Dispatcher d : dispatchers) {
                d.thread.start();
            }
            for (int i = 0; i < count; i++) {
                startRequest(i, 0, 0);
            }
        }

        private void startRequest(int chain, long served, long errors) {
            Runnable next = () -> request(chain, served, errors);
            if (dispatchers.length == 0) {
                threads.newThread(next).start();
            } else {
                dispatchers[chain % dispatchers.length].queue.offer(next);
            }
        }

        /** One request on its own new virtual thread; then the chain's next one, or the chain's end. */
        private void request(int chain, long served, long errors) {
            try {
                if (statement) {
                    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
                        s.execute("SELECT 1");
                    }
                } else {
                    dataSource.getConnection().close();
                }
                tally.set(chain, Tally.BORROWS, ++served);
            } catch (SQLException | RuntimeException e) {
                if (!stopping) {
                    tally.set(chain, Tally.ERRORS, ++errors);
                    if (firstError == null) {
                        firstError = e.toString();
                    }
                }
            }
            if (stopping) {
                ended.countDown();
            } else {
                startRequest(chain, served, errors);
            }
        }

        /**
         * Waits {@code window}; returns the mean number of chains queued at the dispatchers over it, sampled every
         * {@link #QUEUE_SAMPLE} (NaN without dispatchers). Near the chains in flight, the dispatchers are the
         * bottleneck and the run compares them, not the pools.
         */
        double meanQueued(Duration window) throws InterruptedException {
            if (dispatchers.length == 0) {
                sleep(window);
                return Double.NaN;
            }
            long end = System.nanoTime() + window.toNanos();
            long sum = 0;
            int samples = 0;
            for (long left = window.toNanos(); left > 0; left = end - System.nanoTime()) {
                TimeUnit.NANOSECONDS.sleep(Math.min(left, QUEUE_SAMPLE.toNanos()));
                for (Dispatcher d : dispatchers) {
                    sum += d.queue.size();
                }
                samples++;
            }
            return (double) sum / samples;
        }

        /** CPU time of all dispatcher threads so far (0 without dispatchers). */
        @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+; the module compiles for release 17
        long dispatcherCpuNanos() {
            long sum = 0;
            for (Dispatcher d : dispatchers) {
                sum += Math.max(0, THREADS.getThreadCpuTime(d.thread.getId()));
            }
            return sum;
        }

        /** Waits for every chain to end; returns how many did not within {@code limit}. */
        long awaitEnd(Duration limit) throws InterruptedException {
            ended.await(limit.toNanos(), TimeUnit.NANOSECONDS);
            return ended.getCount();
        }

        void stopDispatchers() throws InterruptedException {
            for (Dispatcher d : dispatchers) {
                d.thread.interrupt();
            }
            for (Dispatcher d : dispatchers) {
                d.thread.join(DRAIN_LIMIT.toMillis());
            }
        }
    }

    /**
     * A platform thread that starts each queued request on a new virtual thread, as a server's poller submits each
     * request: the start goes to the scheduler's submission queue of the dispatcher, from which every carrier
     * takes in turn, not to one of the carrier's own (docs/benchmarks.md, "Thread per request: chains that keep a
     * carrier"). The queue is lock-free: a request's end neither blocks nor parks to hand its chain over.
     */
    private static final class Dispatcher {

        final LinkedTransferQueue<Runnable> queue = new LinkedTransferQueue<>();
        final Thread thread;

        Dispatcher(String name, ThreadFactory virtualThreads) {
            this.thread = new Thread(() -> {
                List<Runnable> batch = new ArrayList<>();
                try {
                    while (true) {
                        // Drained in batches: one queue operation per batch, not per request, when the
                        // dispatcher falls behind.
                        if (queue.drainTo(batch) == 0) {
                            batch.add(queue.take());
                        }
                        for (Runnable request : batch) {
                            virtualThreads.newThread(request).start();
                        }
                        batch.clear();
                    }
                } catch (InterruptedException e) {
                    // the run is over: every chain has ended or been given up on
                }
            }, name);
            thread.setDaemon(true);
        }
    }

    /** One pool's run. */
    record Result(PoolKind pool, int run, long requests, double windowSeconds, double requestsPerSecond,
                  double cpuSeconds, double cpuMicrosPerRequest, double bytesPerRequest, Fairness chains,
                  PerRequestOptions.Arrivals arrivals, int dispatchers, double dispatcherBusy, double queuedAtDispatch,
                  long errors, long stragglers, String firstError) {

        String line(int runs) {
            StringBuilder b = new StringBuilder().append("run ").append(run).append('/').append(runs).append(", ")
                    .append(pool.id()).append(": ").append(Numbers.count(requestsPerSecond))
                    .append(" requests/s; CPU ").append(Numbers.twoDecimals(cpuSeconds)).append(" s, ")
                    .append(Numbers.significant(cpuMicrosPerRequest)).append(" µs and ")
                    .append(Numbers.count(bytesPerRequest)).append(" B allocated per request; per chain ")
                    .append(chains.min()).append(" / ").append(Numbers.perThread(chains.median())).append(" / ")
                    .append(chains.max()).append(" (busiest ").append(percent(busiestShare()))
                    .append(" of all)");
            if (dispatchers > 0 && arrivals == PerRequestOptions.Arrivals.DISPATCH) {
                b.append("; dispatchers busy ").append(percent(dispatcherBusy)).append(", ")
                        .append(Numbers.perThread(queuedAtDispatch)).append(" chains queued at them");
            }
            b.append("; errors ").append(errors);
            if (stragglers > 0) {
                b.append("; WARNING ").append(stragglers).append(" chains did not end");
            }
            if (firstError != null) {
                b.append("; first error: ").append(firstError);
            }
            return b.toString();
        }

        /**
         * The busiest chain's share of all the window's requests (1 ÷ in-flight when even): a chain that keeps a
         * carrier shows here as a share near 1 ÷ carriers.
         */
        double busiestShare() {
            return requests == 0 ? Double.NaN : (double) chains.max() / requests;
        }
    }

    private static void writeCsv(Path file, List<Result> results) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("jdk,pool,run,requests,window_s,requests_per_s,cpu_s,cpu_us_per_request,bytes_per_request,"
                + "chain_min,chain_median,chain_max,errors,stragglers,chain_busiest_share,arrivals,dispatchers,"
                + "dispatcher_busy,queued_at_dispatchers");
        String jdk = Runtime.version().toString();
        for (Result r : results) {
            lines.add(String.join(",", jdk, r.pool().id(), String.valueOf(r.run()), String.valueOf(r.requests()),
                    Numbers.csv(r.windowSeconds()), Numbers.csv(r.requestsPerSecond()), Numbers.csv(r.cpuSeconds()),
                    Numbers.csv(r.cpuMicrosPerRequest()), Numbers.csv(r.bytesPerRequest()),
                    String.valueOf(r.chains().min()),
                    Numbers.csv(r.chains().median()), String.valueOf(r.chains().max()), String.valueOf(r.errors()),
                    String.valueOf(r.stragglers()), Numbers.csv(r.busiestShare()), r.arrivals().id(),
                    String.valueOf(r.arrivals() == PerRequestOptions.Arrivals.DISPATCH ? r.dispatchers() : 0),
                    Numbers.csv(r.dispatcherBusy()), Numbers.csv(r.queuedAtDispatch())));
        }
        Files.write(file, lines);
    }

    /** Medians per pool, and each pool's requests/s ÷ the baseline's, run by run and their median. */
    static String summary(PerRequestOptions options, List<Result> results) {
        PoolKind baseline = options.pools().stream().filter(p -> p != PoolKind.SLOTPOOL).findFirst()
                .orElse(options.pools().get(0));
        boolean dispatch = options.arrivals() == PerRequestOptions.Arrivals.DISPATCH;
        StringBuilder md = new StringBuilder("## Thread per request, virtual threads: ").append(options.work())
                .append("\n\n").append(options.inFlight()).append(" requests in flight, each on a new virtual thread, ")
                .append(dispatch ? "started by " + options.dispatchers() + " platform dispatcher thread"
                        + (options.dispatchers() == 1 ? "" : "s") : "started by the previous request of its chain")
                .append("; ").append(options.connections()).append(" connections; Java ").append(Runtime.version())
                .append(", ").append(Runtime.getRuntime().availableProcessors()).append(" processors; ")
                .append(options.runs()).append(" runs (warm-up ").append(options.warmup().toMillis())
                .append(" ms, window ").append(options.window().toMillis()).append(" ms each).\n\n")
                .append("| pool | requests/s (median) | ÷ ").append(baseline.id())
                .append(" (median of runs) | per run | CPU µs per request | B allocated per request"
                        + " | chain fewest ÷ median | chain busiest ÷ median | busiest chain's share of all, median"
                        + " (highest)")
                .append(dispatch ? " | dispatchers busy | chains queued at the dispatchers" : "")
                .append(" | errors |\n")
                .append("|---|--:|--:|---|--:|--:|--:|--:|--:|--:|").append(dispatch ? "--:|--:|" : "").append("\n");
        for (PoolKind pool : options.pools()) {
            List<Result> mine = results.stream().filter(r -> r.pool() == pool).toList();
            List<Double> ratios = new ArrayList<>();
            List<String> perRun = new ArrayList<>();
            for (Result r : mine) {
                Result base = results.stream().filter(b -> b.pool() == baseline && b.run() == r.run()).findFirst()
                        .orElseThrow();
                double ratio = r.requestsPerSecond() / base.requestsPerSecond();
                ratios.add(ratio);
                perRun.add(Numbers.count(r.requestsPerSecond()) + " (" + Numbers.twoDecimals(ratio) + "×)");
            }
            md.append("| ").append(pool.id())
                    .append(" | ").append(Numbers.count(median(mine, Result::requestsPerSecond)))
                    .append(" | ").append(Numbers.twoDecimals(CellResult.median(
                            ratios.stream().mapToDouble(Double::doubleValue).toArray())))
                    .append(" | ").append(String.join("; ", perRun))
                    .append(" | ").append(Numbers.significant(median(mine, Result::cpuMicrosPerRequest)))
                    .append(" | ").append(Numbers.count(median(mine, Result::bytesPerRequest)))
                    .append(" | ").append(Numbers.twoDecimals(median(mine, r -> r.chains().ratio())))
                    .append(" | ").append(Numbers.twoDecimals(median(mine,
                            r -> r.chains().median() == 0 ? Double.NaN : r.chains().max() / r.chains().median())))
                    .append(" | ").append(percent(median(mine, Result::busiestShare))).append(" (")
                    .append(percent(mine.stream().mapToDouble(Result::busiestShare).max().orElse(Double.NaN)))
                    .append(")");
            if (dispatch) {
                md.append(" | ").append(percent(median(mine, Result::dispatcherBusy)))
                        .append(" | ").append(Numbers.perThread(median(mine, Result::queuedAtDispatch)));
            }
            md.append(" | ").append(mine.stream().mapToLong(Result::errors).sum()).append(" |\n");
        }
        md.append("\nCommand line: `").append(String.join(" ", options.args())).append("`\n");
        return md.toString();
    }

    private static double median(List<Result> results, java.util.function.ToDoubleFunction<Result> metric) {
        return CellResult.median(results.stream().mapToDouble(metric).toArray());
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.1f %%", 100 * share);
    }

    private static long allocatedBytes() {
        if (TOTAL_ALLOCATED == null) {
            return -1;
        }
        try {
            return (long) TOTAL_ALLOCATED.invoke(ManagementFactory.getThreadMXBean());
        } catch (ReflectiveOperationException e) {
            return -1;
        }
    }

    private static Method totalAllocatedMethod() {
        try {
            Method m = com.sun.management.ThreadMXBean.class.getMethod("getTotalThreadAllocatedBytes");
            return (long) m.invoke(ManagementFactory.getThreadMXBean()) >= 0 ? m : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static long[] minus(long[] end, long[] start) {
        long[] d = new long[end.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = end[i] - start[i];
        }
        return d;
    }

    private static void sleep(Duration d) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(d.toNanos());
    }
}
