package dev.slotpool.bench.pg;

import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.PoolSettings;
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
    /** How long threads get to end after the pool closed, and again after an interrupt. */
    private static final Duration JOIN_LIMIT = Duration.ofSeconds(5);

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
        BenchPool pool = cell.pool().start(new PoolSettings(database.url(), cell.connections(), cell.connections(),
                TransactionOptions.BORROW_TIMEOUT, AccountsDatabase.USER, AccountsDatabase.PGJDBC));
        LoopControl control = new LoopControl();
        TransactionWorker[] workers = new TransactionWorker[n];
        Thread[] threads = new Thread[n];
        boolean allLooping = false;
        long windowNanos = 0;
        int stragglers;
        try {
            for (int i = 0; i < n; i++) {
                workers[i] = new TransactionWorker(control, new AccountTransaction(pool.dataSource()),
                        database.accounts());
                threads[i] = new Thread(workers[i], "pg-tx-" + i);
            }
            allLooping = startAll(threads, control);
            if (allLooping) {
                sleep(options.warmup());
                control.set(LoopControl.Phase.MEASURE);
                long start = System.nanoTime();
                sleep(options.window());
                control.set(LoopControl.Phase.STOP);
                windowNanos = System.nanoTime() - start;
            }
        } finally {
            stragglers = tearDown(threads, control, pool);
        }
        long committedDelta = Arrays.stream(workers).filter(Objects::nonNull)
                .mapToLong(TransactionWorker::committedDelta).sum();
        String firstError = Arrays.stream(workers).filter(Objects::nonNull).map(TransactionWorker::firstError)
                .filter(Objects::nonNull).findFirst()
                .orElse(allLooping ? null : "not measured: only some threads were in their loop after "
                        + RAMP_LIMIT.toSeconds() + " s");
        Map<Measure, Double> values = allLooping ? measure(workers, windowNanos / 1e9) : new EnumMap<>(Measure.class);
        values.put(Measure.ERRORS, (double) Arrays.stream(workers).filter(Objects::nonNull)
                .mapToLong(TransactionWorker::errors).sum());
        values.put(Measure.STRAGGLERS, (double) stragglers);
        System.gc();
        sleep(options.pause());
        return new TransactionSample(cell, run, values, firstError, committedDelta);
    }

    /** Starts the threads; true once all are in their loop, false if the ramp limit passed first. */
    private static boolean startAll(Thread[] threads, LoopControl control) throws InterruptedException {
        long deadline = System.nanoTime() + RAMP_LIMIT.toNanos();
        for (Thread t : threads) {
            t.start();
        }
        while (control.inLoop() < threads.length && System.nanoTime() - deadline < 0) {
            TimeUnit.MILLISECONDS.sleep(5);
        }
        return control.inLoop() == threads.length;
    }

    private Map<Measure, Double> measure(TransactionWorker[] workers, double windowSeconds) {
        long[] perThread = Arrays.stream(workers).mapToLong(TransactionWorker::committedInWindow).toArray();
        long transactions = Arrays.stream(perThread).sum();
        WaitHistogram latencies = new WaitHistogram();
        for (TransactionWorker w : workers) {
            latencies.add(w.latencies());
        }
        Fairness fairness = Fairness.of(perThread);
        double perSecond = transactions / windowSeconds;
        double idealMs = transactions == 0 ? Double.NaN : cell.threads() / perSecond * 1e3;
        double p999Ms = latencies.percentileNanos(0.999) / 1e6;

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
        v.put(Measure.THREAD_MIN, (double) fairness.min());
        v.put(Measure.THREAD_MEDIAN, fairness.median());
        v.put(Measure.FAIRNESS, fairness.ratio());
        return v;
    }

    /**
     * Stops the threads and lets them finish their transaction with the pool still open (closing it under
     * waiters strands them in some pools), closes the pool, then joins, interrupts and joins again; returns the
     * number of threads still alive.
     */
    private static int tearDown(Thread[] threads, LoopControl control, BenchPool pool) throws InterruptedException {
        control.set(LoopControl.Phase.STOP);
        joinAll(threads, DRAIN_LIMIT);
        control.set(LoopControl.Phase.CLOSING);
        try {
            pool.close();
        } finally {
            joinAll(threads, JOIN_LIMIT);
            for (Thread t : threads) {
                if (t != null && t.isAlive()) {
                    t.interrupt();
                }
            }
            joinAll(threads, JOIN_LIMIT);
        }
        return (int) Arrays.stream(threads).filter(t -> t != null && t.isAlive()).count();
    }

    private static void joinAll(Thread[] threads, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            // Null, or never started, only when setting up the run failed part-way.
            if (t != null && t.getState() != Thread.State.NEW) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }

    private static void sleep(Duration d) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(d.toNanos());
    }
}
