package dev.slotpool.bench.scaling;

import com.sun.management.OperatingSystemMXBean;
import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.LoopControl;
import dev.slotpool.bench.PoolSettings;
import dev.slotpool.bench.RunThreads;
import dev.slotpool.testsupport.StubDatabase;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One run of one cell: a fresh stub database and pool; the threads, each looping as soon as it starts; once all
 * loop, a warm-up and the measured window; then a teardown that reports threads which did not end.
 */
final class Trial {

    /** How long threads get to finish their last borrow with the pool still open (10,000 held ones need ~2 s). */
    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(10);
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final Options options;
    private final Cell cell;

    Trial(Options options, Cell cell) {
        this.options = options;
        this.cell = cell;
    }

    /** Runs once, then closes everything, collects garbage and pauses so the next run starts quiet. */
    Sample run(int run) throws InterruptedException {
        int n = cell.threads();
        StubDatabase database = StubDatabase.reset("scaling-" + cell.pool().id());
        BenchPool pool = cell.pool().start(
                PoolSettings.fixed(url(database), options.connections(), options.borrowTimeout()));
        LoopControl control = new LoopControl();
        Tally tally = new Tally(n);
        Worker[] workers = new Worker[n];
        Thread[] threads = new Thread[n];
        Ramp ramp;
        Window window = null;
        Teardown teardown;
        try {
            for (int i = 0; i < n; i++) {
                workers[i] = Worker.create(cell.mode(), i, pool.dataSource(), tally, control);
                threads[i] = cell.kind().newThread(workers[i], "scaling-" + i);
            }
            ramp = startAll(threads, control);
            if (ramp.looping() == n) {
                window = measureWindow(control, tally);
            }
        } finally {
            teardown = tearDown(threads, control, pool);
        }
        Sample sample = window != null
                ? new Sample(cell, run, measure(window, workers, ramp, teardown), firstError(workers))
                : new Sample(cell, run, Map.of(Metric.RAMP_S, ramp.seconds(), Metric.TEARDOWN_S, teardown.seconds(),
                        Metric.STRAGGLERS, (double) teardown.stragglers()),
                        "not measured: only " + ramp.looping() + " of " + n + " threads were in their loop after "
                                + cell.kind().rampLimit().toSeconds() + " s");
        System.gc();
        sleep(options.pause());
        return sample;
    }

    private String url(StubDatabase database) {
        if (cell.mode() != Mode.HELD) {
            return database.url();
        }
        // The hold happens inside the stub (a parked query delay), as a real database round trip would.
        return database.url() + "?queryDelayMicros="
                + BigDecimal.valueOf(options.hold().toNanos(), 3).stripTrailingZeros().toPlainString();
    }

    /** Starts the threads and waits until all are in their loop, or until the kind's ramp limit. */
    private Ramp startAll(Thread[] threads, LoopControl control) throws InterruptedException {
        long start = System.nanoTime();
        int looping = RunThreads.startAll(threads, control, cell.kind().rampLimit());
        return new Ramp(looping, seconds(System.nanoTime() - start));
    }

    /** Warm-up, then the window between two snapshots. */
    private Window measureWindow(LoopControl control, Tally tally) throws InterruptedException {
        sleep(options.warmup());
        control.set(LoopControl.Phase.MEASURE);
        Snapshot start = Snapshot.take(tally);
        sleep(options.window());
        return new Window(start, Snapshot.take(tally));
    }

    /** Ends the threads around the pool's close; times it and counts the threads still alive. */
    private static Teardown tearDown(Thread[] threads, LoopControl control, BenchPool pool)
            throws InterruptedException {
        long start = System.nanoTime();
        int stragglers = RunThreads.tearDown(threads, control, pool, DRAIN_LIMIT);
        return new Teardown(seconds(System.nanoTime() - start), stragglers);
    }

    private Map<Metric, Double> measure(Window window, Worker[] workers, Ramp ramp, Teardown teardown) {
        Snapshot start = window.start();
        Snapshot end = window.end();
        long[] perThread = minus(end.borrows(), start.borrows());
        long borrows = Arrays.stream(perThread).sum();
        double windowSeconds = seconds(end.wallNanos() - start.wallNanos());
        double cpuSeconds = start.cpuNanos() < 0 ? Double.NaN : seconds(end.cpuNanos() - start.cpuNanos());
        Fairness fairness = Fairness.of(perThread);

        Map<Metric, Double> v = new EnumMap<>(Metric.class);
        v.put(Metric.WINDOW_S, windowSeconds);
        v.put(Metric.BORROWS, (double) borrows);
        v.put(Metric.BORROWS_PER_S, borrows / windowSeconds);
        v.put(Metric.THREAD_MIN, (double) fairness.min());
        v.put(Metric.THREAD_MEDIAN, fairness.median());
        v.put(Metric.THREAD_MAX, (double) fairness.max());
        v.put(Metric.FAIRNESS, fairness.ratio());
        v.put(Metric.STARVED, (double) fairness.starved());
        v.put(Metric.TIMEOUTS, (double) Arrays.stream(minus(end.timeouts(), start.timeouts())).sum());
        v.put(Metric.ERRORS, (double) Arrays.stream(minus(end.errors(), start.errors())).sum());
        v.put(Metric.CPU_S, cpuSeconds);
        v.put(Metric.CPU_US_PER_BORROW, borrows == 0 ? Double.NaN : cpuSeconds * 1e6 / borrows);
        v.put(Metric.RAMP_S, ramp.seconds());
        v.put(Metric.TEARDOWN_S, teardown.seconds());
        v.put(Metric.STRAGGLERS, (double) teardown.stragglers());
        if (cell.mode() == Mode.HELD) {
            WaitHistogram waits = new WaitHistogram();
            for (Worker w : workers) {
                waits.add(w.waits());
            }
            v.put(Metric.WAIT_P50_MS, waits.percentileNanos(0.50) / 1e6);
            v.put(Metric.WAIT_P99_MS, waits.percentileNanos(0.99) / 1e6);
            v.put(Metric.WAIT_P999_MS, waits.percentileNanos(0.999) / 1e6);
            v.put(Metric.WAIT_MAX_MS, waits.maxNanos() / 1e6);
            v.put(Metric.IDEAL_FIFO_WAIT_MS, (double) cell.threads() / options.connections()
                    * options.hold().toNanos() / 1e6);
        }
        return v;
    }


    private static String firstError(Worker[] workers) {
        return Arrays.stream(workers).map(Worker::firstError).filter(Objects::nonNull).findFirst().orElse(null);
    }

    private static long[] minus(long[] end, long[] start) {
        long[] d = new long[end.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = end[i] - start[i];
        }
        return d;
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static void sleep(Duration d) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(d.toNanos());
    }

    /** How many threads were in their loop when the ramp ended, and how long it took. */
    private record Ramp(int looping, double seconds) {
    }

    /** The measurement window: counters and clocks at its start and end. */
    private record Window(Snapshot start, Snapshot end) {
    }

    /** How long teardown took and how many threads outlived it. */
    private record Teardown(double seconds, int stragglers) {
    }

    /** Wall clock, process CPU time and every thread's counters at one instant (the window's start or end). */
    private record Snapshot(long wallNanos, long cpuNanos, long[] borrows, long[] timeouts, long[] errors) {

        static Snapshot take(Tally tally) {
            return new Snapshot(System.nanoTime(), OS.getProcessCpuTime(), tally.read(Tally.BORROWS),
                    tally.read(Tally.TIMEOUTS), tally.read(Tally.ERRORS));
        }
    }
}
