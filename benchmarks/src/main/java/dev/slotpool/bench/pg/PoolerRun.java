package dev.slotpool.bench.pg;

import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.LoopControl;
import dev.slotpool.bench.PoolSettings;
import dev.slotpool.bench.RunThreads;
import dev.slotpool.bench.scaling.WaitHistogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One run of one cell: a fresh pool per app instance, every one through the same PgBouncer; each instance's
 * platform threads loop as soon as they start; once all loop, a warm-up and the window; then a teardown that lets
 * every transaction finish before the pools close.
 */
final class PoolerRun {

    /** How long all threads get to be in their loop. */
    private static final Duration RAMP_LIMIT = Duration.ofSeconds(60);
    /** How long threads get to finish their last transaction with the pools open. */
    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(30);

    private final PoolerOptions options;
    private final String url;
    private final PoolerCell cell;

    /** A run of {@code cell} against the pooler at {@code url}. */
    PoolerRun(PoolerOptions options, String url, PoolerCell cell) {
        this.options = options;
        this.url = url;
        this.cell = cell;
    }

    /** Runs once and closes the pools. */
    PoolerSample run(int run) throws InterruptedException {
        PoolSettings settings = new PoolSettings(url, options.connections(), options.connections(),
                PoolerOptions.BORROW_TIMEOUT, AccountsDatabase.USER, AccountsDatabase.PGJDBC);
        List<BenchPool> pools = new ArrayList<>();
        LoopControl control = new LoopControl();
        int n = options.instances() * options.threads();
        PoolerWorker[] workers = new PoolerWorker[n];
        Thread[] threads = new Thread[n];
        boolean allLooping = false;
        long windowNanos = 0;
        long[] cpuBefore = null;
        long[] cpuAfter = null;
        double load = Double.NaN;
        int stragglers;
        try {
            for (int p = 0; p < options.instances(); p++) {
                BenchPool pool = cell.start(settings);
                pools.add(pool);
                for (int t = 0; t < options.threads(); t++) {
                    int i = p * options.threads() + t;
                    workers[i] = new PoolerWorker(control, pool.dataSource());
                    threads[i] = new Thread(workers[i], "pooler-" + p + "-" + t);
                }
            }
            allLooping = RunThreads.startAll(threads, control, RAMP_LIMIT) == n;
            if (allLooping) {
                sleep(options.warmup());
                cpuBefore = MachineCpu.times();
                control.set(LoopControl.Phase.MEASURE);
                long start = System.nanoTime();
                sleep(options.window());
                control.set(LoopControl.Phase.STOP);
                windowNanos = System.nanoTime() - start;
                cpuAfter = MachineCpu.times();
                load = loadAverage();
            }
        } finally {
            stragglers = RunThreads.tearDown(threads, control, () -> pools.forEach(BenchPool::close), DRAIN_LIMIT);
        }
        Map<String, Long> failures = new TreeMap<>();
        Arrays.stream(workers).filter(Objects::nonNull)
                .forEach(w -> w.failures().forEach((k, v) -> failures.merge(k, v, Long::sum)));
        if (!allLooping) {
            failures.put("not measured: only some threads were in their loop after " + RAMP_LIMIT.toSeconds()
                    + " s", 0L);
        }
        Map<PoolerMeasure, Double> values = allLooping ? measure(workers, windowNanos / 1e9)
                : new EnumMap<>(PoolerMeasure.class);
        values.put(PoolerMeasure.FAILED, (double) Arrays.stream(workers).filter(Objects::nonNull)
                .mapToLong(PoolerWorker::failed).sum());
        values.put(PoolerMeasure.STRAGGLERS, (double) stragglers);
        values.put(PoolerMeasure.MACHINE_BUSY, MachineCpu.busyShare(cpuBefore, cpuAfter));
        values.put(PoolerMeasure.LOAD_1M, load);
        return new PoolerSample(cell, run, values, failures);
    }

    private static Map<PoolerMeasure, Double> measure(PoolerWorker[] workers, double windowSeconds) {
        WaitHistogram borrow = new WaitHistogram();
        WaitHistogram transaction = new WaitHistogram();
        long committed = 0;
        long failed = 0;
        for (PoolerWorker w : workers) {
            borrow.add(w.borrowLatencies());
            transaction.add(w.transactionLatencies());
            committed += w.committedInWindow();
            failed += w.failedInWindow();
        }
        Map<PoolerMeasure, Double> v = new EnumMap<>(PoolerMeasure.class);
        v.put(PoolerMeasure.WINDOW_S, windowSeconds);
        v.put(PoolerMeasure.COMMITTED, (double) committed);
        v.put(PoolerMeasure.TX_PER_S, committed / windowSeconds);
        v.put(PoolerMeasure.FAILED_PER_S, failed / windowSeconds);
        v.put(PoolerMeasure.BORROW_P50_MS, borrow.percentileNanos(0.50) / 1e6);
        v.put(PoolerMeasure.BORROW_P99_MS, borrow.percentileNanos(0.99) / 1e6);
        v.put(PoolerMeasure.BORROW_P999_MS, borrow.percentileNanos(0.999) / 1e6);
        v.put(PoolerMeasure.TX_P50_MS, transaction.percentileNanos(0.50) / 1e6);
        v.put(PoolerMeasure.TX_P99_MS, transaction.percentileNanos(0.99) / 1e6);
        v.put(PoolerMeasure.TX_P999_MS, transaction.percentileNanos(0.999) / 1e6);
        v.put(PoolerMeasure.TX_MAX_MS, transaction.maxNanos() / 1e6);
        return v;
    }

    /** The 1-minute load average now; NaN where there is no /proc/loadavg. */
    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private static void sleep(Duration d) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(d.toNanos());
    }
}
