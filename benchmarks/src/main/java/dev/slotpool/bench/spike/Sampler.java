package dev.slotpool.bench.spike;

import dev.slotpool.bench.BenchPool;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Records the pool's counts and the requests' progress on an absolute schedule (slot k at start + k·interval)
 * so that a late wake-up does not shift every later sample. A slot already missed is skipped, not made up in a
 * burst; each row carries the time it was actually taken. Rows go into arrays sized up front for the longest
 * run, so the sampler allocates nothing per sample itself ({@link BenchPool#counts()} may).
 */
final class Sampler {

    private final BenchPool pool;
    private final RequestGang gang;
    private final long intervalNanos;
    private final long[] atNanos;
    private final int[] total;
    private final int[] active;
    private final int[] idle;
    private final int[] waiting;
    private final int[] borrowing;
    private final int[] completed;
    /** Rows written; only the sampler thread writes it, read after the join. */
    private int size;
    private volatile boolean stopped;
    private final Thread thread;

    /** Allocates the rows for a run of at most {@code longest}, ahead of time; sampling begins on {@link #start}. */
    Sampler(BenchPool pool, RequestGang gang, Duration interval, Duration longest) {
        this.pool = pool;
        this.gang = gang;
        this.intervalNanos = interval.toNanos();
        int capacity = Math.toIntExact(longest.toNanos() / intervalNanos + 1);
        atNanos = new long[capacity];
        total = new int[capacity];
        active = new int[capacity];
        idle = new int[capacity];
        waiting = new int[capacity];
        borrowing = new int[capacity];
        completed = new int[capacity];
        thread = new Thread(this::sample, "spike-sampler");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Stops sampling and returns what was recorded, with times relative to {@code originNanos}. */
    Timeline stop(long originNanos) throws InterruptedException {
        stopped = true;
        thread.join();
        long[] micros = new long[size];
        for (int i = 0; i < size; i++) {
            micros[i] = Math.floorDiv(atNanos[i] - originNanos, 1_000);
        }
        return new Timeline(micros, Arrays.copyOf(total, size), Arrays.copyOf(active, size),
                Arrays.copyOf(idle, size), Arrays.copyOf(waiting, size), Arrays.copyOf(borrowing, size),
                Arrays.copyOf(completed, size));
    }

    private void sample() {
        long next = System.nanoTime();
        while (!stopped && size < atNanos.length) {
            long now = System.nanoTime();
            if (now < next) {
                LockSupport.parkNanos(next - now);
                continue;
            }
            record(now);
            next += intervalNanos;
            if (next <= now) {
                next += ((now - next) / intervalNanos + 1) * intervalNanos;
            }
        }
    }

    private void record(long now) {
        BenchPool.PoolCounts c = pool.counts();
        int i = size;
        atNanos[i] = now;
        total[i] = c.total();
        active[i] = c.active();
        idle[i] = c.idle();
        waiting[i] = c.waiting();
        borrowing[i] = gang.borrowing();
        completed[i] = gang.completed();
        size = i + 1;
    }
}
