package dev.slotpool.bench.pg;

import dev.slotpool.bench.LoopControl;
import dev.slotpool.bench.scaling.WaitHistogram;

import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One benchmark thread: transactions on uniformly random accounts until the phase is STOP. It counts and times
 * the transactions that end in the window and counts every failure until the pool starts closing. Its fields
 * are written only by its thread and read after that thread ended.
 */
final class TransactionWorker implements Runnable {

    /** pgbench's delta range. */
    private static final int MAX_DELTA = 5000;

    private final LoopControl control;
    private final AccountTransaction transaction;
    private final int accounts;
    /** Latency of every attempt ending in the window, failed ones included: a failure took that long too. */
    private final WaitHistogram latencies = new WaitHistogram();
    /** How long the work of each transaction committed in the window took, borrow and return excluded. */
    private final WaitHistogram works = new WaitHistogram();
    private long workNanos;
    private long committedInWindow;
    private long errors;
    private String firstError;

    TransactionWorker(LoopControl control, AccountTransaction transaction, int accounts) {
        this.control = control;
        this.transaction = transaction;
        this.accounts = accounts;
    }

    @Override
    public void run() {
        control.enteredLoop();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!control.stopping()) {
            int aid = 1 + random.nextInt(accounts);
            int delta = random.nextInt(-MAX_DELTA, MAX_DELTA + 1);
            long start = System.nanoTime();
            long work = -1;
            try {
                work = transaction.run(aid, delta);
            } catch (SQLException | RuntimeException e) {
                if (control.phase() != LoopControl.Phase.CLOSING) {
                    errors++;
                    if (firstError == null) {
                        firstError = e.toString();
                    }
                }
            }
            long took = System.nanoTime() - start;
            if (control.phase() == LoopControl.Phase.MEASURE) {
                latencies.record(took);
                if (work >= 0) {
                    committedInWindow++;
                    works.record(work);
                    workNanos += work;
                }
            }
        }
    }

    WaitHistogram latencies() {
        return latencies;
    }

    WaitHistogram works() {
        return works;
    }

    /** The sum of {@link #works()}, exact. */
    long workNanos() {
        return workNanos;
    }

    long committedInWindow() {
        return committedInWindow;
    }

    long errors() {
        return errors;
    }

    /** The first failure, or null. */
    String firstError() {
        return firstError;
    }

    long committedDelta() {
        return transaction.committedDelta();
    }
}
