package dev.slotpool.bench.pg;

import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.LoopControl;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.PoolSettings;
import dev.slotpool.bench.RunThreads;
import dev.slotpool.bench.scaling.Fairness;
import dev.slotpool.bench.scaling.WaitHistogram;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One run of one cell: a fresh pool on the shared database; platform threads, each looping as soon as it
 * starts; once all loop, a warm-up and the window; then a teardown that lets every transaction finish before the
 * pool closes.
 */
final class TransactionRun {

    /** How long all threads get to be in their loop. */
    private static final Duration RAMP_LIMIT = Duration.ofSeconds(60);
    /** How long threads get to finish their last transaction with the pool open (a whole queue of them). */
    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(30);

    /** The same draws for every run, so that two runs' floors differ only by their works. */
    private static final long FLOOR_SEED = 1;

    private final TransactionOptions options;
    private final AccountsDatabase database;
    private final TransactionCell cell;

    TransactionRun(TransactionOptions options, AccountsDatabase database, TransactionCell cell) {
        this.options = options;
        this.database = database;
        this.cell = cell;
    }

    /** Runs once, closes the pool, collects garbage and pauses so the next run starts quiet. */
    TransactionSample run(int run) throws InterruptedException {
        int n = cell.threads();
        PoolSettings settings = new PoolSettings(database.url(), cell.connections(), cell.connections(),
                TransactionOptions.BORROW_TIMEOUT, AccountsDatabase.USER, AccountsDatabase.PGJDBC);
        BenchPool pool = cell.pool() == PoolKind.SLOTPOOL && options.slotpoolTurn() != null
                ? PoolKind.slotpoolWithTurn(settings, options.slotpoolTurn())
                : cell.pool().start(settings);
        LoopControl control = new LoopControl();
        TransactionWorker[] workers = new TransactionWorker[n];
        Thread[] threads = new Thread[n];
        boolean allLooping = false;
        long windowNanos = 0;
        long[] cpuBefore = null;
        long[] cpuAfter = null;
        long processNanos = -1;
        long serverSleeps = -1;
        int stragglers;
        try {
            for (int i = 0; i < n; i++) {
                workers[i] = new TransactionWorker(control, new AccountTransaction(pool.dataSource()),
                        database.accounts());
                threads[i] = new Thread(workers[i], "pg-tx-" + i);
            }
            allLooping = RunThreads.startAll(threads, control, RAMP_LIMIT) == n;
            if (allLooping) {
                sleep(options.warmup());
                cpuBefore = MachineCpu.times();
                long processBefore = MachineCpu.processNanos();
                long sleepsBefore = MachineCpu.serverSleeps();
                control.set(LoopControl.Phase.MEASURE);
                long start = System.nanoTime();
                sleep(options.window());
                control.set(LoopControl.Phase.STOP);
                windowNanos = System.nanoTime() - start;
                processNanos = processBefore < 0 ? -1 : MachineCpu.processNanos() - processBefore;
                cpuAfter = MachineCpu.times();
                serverSleeps = sleepsBefore < 0 ? -1 : MachineCpu.serverSleeps() - sleepsBefore;
            }
        } finally {
            stragglers = RunThreads.tearDown(threads, control, pool, DRAIN_LIMIT);
        }
        long committedDelta = Arrays.stream(workers).filter(Objects::nonNull)
                .mapToLong(TransactionWorker::committedDelta).sum();
        String firstError = Arrays.stream(workers).filter(Objects::nonNull).map(TransactionWorker::firstError)
                .filter(Objects::nonNull).findFirst()
                .orElse(allLooping ? null : "not measured: only some threads were in their loop after "
                        + RAMP_LIMIT.toSeconds() + " s");
        Map<Measure, Double> values = allLooping ? measure(workers, windowNanos / 1e9) : new EnumMap<>(Measure.class);
        if (allLooping) {
            values.put(Measure.MACHINE_BUSY, MachineCpu.busyShare(cpuBefore, cpuAfter));
            double transactions = values.get(Measure.TRANSACTIONS);
            values.put(Measure.CLIENT_CPU_US, processNanos < 0 || transactions == 0 ? Double.NaN
                    : processNanos / 1e3 / transactions);
            values.put(Measure.SERVER_SLEEPS, serverSleeps < 0 || transactions == 0 ? Double.NaN
                    : serverSleeps / transactions);
        }
        values.put(Measure.ERRORS, (double) Arrays.stream(workers).filter(Objects::nonNull)
                .mapToLong(TransactionWorker::errors).sum());
        values.put(Measure.STRAGGLERS, (double) stragglers);
        System.gc();
        sleep(options.pause());
        return new TransactionSample(cell, run, values, firstError, committedDelta);
    }


    private Map<Measure, Double> measure(TransactionWorker[] workers, double windowSeconds) {
        long[] perThread = Arrays.stream(workers).mapToLong(TransactionWorker::committedInWindow).toArray();
        long transactions = Arrays.stream(perThread).sum();
        WaitHistogram latencies = new WaitHistogram();
        WaitHistogram works = new WaitHistogram();
        long workNanos = 0;
        for (TransactionWorker w : workers) {
            latencies.add(w.latencies());
            works.add(w.works());
            workNanos += w.workNanos();
        }
        Fairness fairness = Fairness.of(perThread);
        double perSecond = transactions / windowSeconds;
        double idealMs = transactions == 0 ? Double.NaN : cell.threads() / perSecond * 1e3;
        double p999Ms = latencies.percentileNanos(0.999) / 1e6;
        double workMs = transactions == 0 ? Double.NaN : workNanos / 1e6 / transactions;

        Map<Measure, Double> v = new EnumMap<>(Measure.class);
        v.put(Measure.WINDOW_S, windowSeconds);
        v.put(Measure.TRANSACTIONS, (double) transactions);
        v.put(Measure.TX_PER_S, perSecond);
        v.put(Measure.P50_MS, latencies.percentileNanos(0.50) / 1e6);
        v.put(Measure.P99_MS, latencies.percentileNanos(0.99) / 1e6);
        v.put(Measure.P999_MS, p999Ms);
        v.put(Measure.MAX_MS, latencies.maxNanos() / 1e6);
        v.put(Measure.IDEAL_MS, idealMs);
        v.put(Measure.P999_OVER_IDEAL, p999Ms / idealMs);
        v.put(Measure.WORK_MS, workMs);
        v.put(Measure.BUSY_SHARE, perSecond * workMs / 1e3 / cell.connections());
        v.put(Measure.FIFO_FLOOR, FifoFloor.p999OverMean(works, cell.threads(), cell.connections(), FLOOR_SEED));
        v.put(Measure.THREAD_MIN, (double) fairness.min());
        v.put(Measure.THREAD_MEDIAN, fairness.median());
        v.put(Measure.FAIRNESS, fairness.ratio());
        return v;
    }



    private static void sleep(Duration d) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(d.toNanos());
    }
}
