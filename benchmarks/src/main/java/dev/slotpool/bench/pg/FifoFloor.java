package dev.slotpool.bench.pg;

import dev.slotpool.bench.scaling.WaitHistogram;

import java.util.SplittableRandom;

/**
 * The tail a perfectly fair pool would give a run's transactions, by simulation: {@code threads} that ask again
 * the moment they finish, served first come, first served by {@code connections} that pass from one transaction to
 * the next at no cost, each transaction holding its connection for an independent draw from the measured holds
 * (the run's work times). Its p99.9 latency ÷ its mean latency is the p99.9 ÷ ideal below which no FIFO pool can
 * go with these holds: with a queue, a latency is the sum of the holds ahead of it, so their spread alone puts the
 * ratio above 1. The draws are independent; real holds that lengthen together (a checkpoint) would raise it.
 */
final class FifoFloor {

    /** Transactions simulated after the warm-up: a p99.9 over 1,000 of them beyond it. */
    static final int TRANSACTIONS = 1_000_000;
    /** Holds are drawn from this many evenly spaced quantiles of the measured ones. */
    private static final int QUANTILES = 10_000;
    /** Completions skipped per thread before latencies count: all threads start queued at time 0. */
    private static final int WARMUP_PER_THREAD = 10;

    private FifoFloor() {
    }

    /** p99.9 ÷ mean latency of the simulated queue; NaN without holds. */
    static double p999OverMean(WaitHistogram holds, int threads, int connections, long seed) {
        if (holds.count() == 0) {
            return Double.NaN;
        }
        long[] quantiles = new long[QUANTILES];
        for (int i = 0; i < QUANTILES; i++) {
            quantiles[i] = (long) holds.percentileNanos((i + 0.5) / QUANTILES);
        }
        SplittableRandom random = new SplittableRandom(seed);
        int servers = Math.min(threads, connections);
        long[] finish = new long[servers];
        long[] arrival = new long[servers];
        for (int s = 0; s < servers; s++) {
            finish[s] = quantiles[random.nextInt(QUANTILES)];
        }
        // The threads waiting, oldest first, by the time each asked: a ring that never holds more than all of them.
        long[] queue = new long[threads];
        int head = 0;
        int size = threads - servers;
        WaitHistogram latencies = new WaitHistogram();
        double latencySum = 0;
        long skip = (long) WARMUP_PER_THREAD * threads;
        for (long done = 0; done < skip + TRANSACTIONS; done++) {
            int s = 0;
            for (int i = 1; i < servers; i++) {
                if (finish[i] < finish[s]) {
                    s = i;
                }
            }
            long now = finish[s];
            if (done >= skip) {
                latencies.record(now - arrival[s]);
                latencySum += now - arrival[s];
            }
            // The thread that finished asks again at once, behind everyone waiting; the oldest waiter gets it.
            queue[(head + size) % threads] = now;
            arrival[s] = queue[head];
            head = (head + 1) % threads;
            finish[s] = now + quantiles[random.nextInt(QUANTILES)];
        }
        return latencies.percentileNanos(0.999) / (latencySum / TRANSACTIONS);
    }
}
