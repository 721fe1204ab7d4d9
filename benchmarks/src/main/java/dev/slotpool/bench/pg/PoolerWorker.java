package dev.slotpool.bench.pg;

import dev.slotpool.bench.LoopControl;
import dev.slotpool.bench.scaling.WaitHistogram;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One thread of one app instance: the ORM-like transaction on a random account until the phase is STOP. It times
 * the borrow and the whole transaction of every attempt that ends in the window, counts commits in the window and
 * failures until the pools start closing, each failure by its message with the numbers masked ({@code S_12}
 * becomes {@code S_n}). Its fields are written only by its thread and read after that thread ended.
 */
final class PoolerWorker implements Runnable {

    private final LoopControl control;
    private final DataSource pool;
    private final WaitHistogram borrowLatencies = new WaitHistogram();
    /** From before {@code getConnection()} to after {@code close()}; failed attempts too, they took that long. */
    private final WaitHistogram transactionLatencies = new WaitHistogram();
    private final Map<String, Long> failures = new TreeMap<>();
    private long committedInWindow;
    private long failedInWindow;
    private long failed;

    PoolerWorker(LoopControl control, DataSource pool) {
        this.control = control;
        this.pool = pool;
    }

    @Override
    public void run() {
        control.enteredLoop();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!control.stopping()) {
            int id = 1 + random.nextInt(OrmTransaction.ACCOUNTS);
            long amount = random.nextInt(1, 100);
            long start = System.nanoTime();
            long borrowed = -1;
            boolean committed = false;
            try (Connection c = pool.getConnection()) {
                borrowed = System.nanoTime();
                OrmTransaction.run(c, id, amount);
                committed = true;
            } catch (SQLException | RuntimeException e) {
                if (control.phase() != LoopControl.Phase.CLOSING) {
                    failed++;
                    failures.merge(mask(e), 1L, Long::sum);
                }
            }
            long end = System.nanoTime();
            if (control.phase() == LoopControl.Phase.MEASURE) {
                if (borrowed >= 0) {
                    borrowLatencies.record(borrowed - start);
                }
                transactionLatencies.record(end - start);
                if (committed) {
                    committedInWindow++;
                } else {
                    failedInWindow++;
                }
            }
        }
    }

    WaitHistogram borrowLatencies() {
        return borrowLatencies;
    }

    WaitHistogram transactionLatencies() {
        return transactionLatencies;
    }

    long committedInWindow() {
        return committedInWindow;
    }

    long failedInWindow() {
        return failedInWindow;
    }

    /** Failed transactions from the thread's start until the pools began to close. */
    long failed() {
        return failed;
    }

    /** Each failure's masked message and how often it was seen. */
    Map<String, Long> failures() {
        return failures;
    }

    /** The exception's class and first line, numbers masked, so the same failure counts as one. */
    static String mask(Throwable e) {
        String m = e.getClass().getSimpleName() + ": " + e.getMessage();
        int nl = m.indexOf('\n');
        if (nl >= 0) {
            m = m.substring(0, nl);
        }
        return m.replaceAll("\\d+", "n");
    }
}
