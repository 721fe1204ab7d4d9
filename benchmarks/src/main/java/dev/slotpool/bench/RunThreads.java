package dev.slotpool.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/** Starting a run's worker threads behind the start barrier, and ending them around the pool's close. */
public final class RunThreads {

    /** How long threads get to end after the pool closed, and again after an interrupt. */
    private static final Duration JOIN_LIMIT = Duration.ofSeconds(5);

    private RunThreads() {
    }

    /**
     * Starts the threads and waits until all are in their loop or {@code rampLimit} has passed; returns how many
     * are looping. Threads not started by then stay unstarted.
     */
    public static int startAll(Thread[] threads, LoopControl control, Duration rampLimit)
            throws InterruptedException {
        long deadline = System.nanoTime() + rampLimit.toNanos();
        // Each start waits for the new thread's first time slice: slow when the pool's threads spin.
        for (int i = 0; i < threads.length && System.nanoTime() - deadline < 0; i++) {
            threads[i].start();
        }
        int looping;
        while ((looping = control.inLoop()) < threads.length && System.nanoTime() - deadline < 0) {
            TimeUnit.MILLISECONDS.sleep(5);
        }
        return looping;
    }

    /**
     * Stops the threads and lets them finish their iteration with the pool still open for up to {@code drainLimit}
     * (closing it under waiters strands them in some pools: HikariCP's sit out their borrow timeout), closes the
     * pool, then joins, interrupts and joins again; returns the number of threads still alive.
     */
    public static int tearDown(Thread[] threads, LoopControl control, BenchPool pool, Duration drainLimit)
            throws InterruptedException {
        return tearDown(threads, control, (Runnable) pool::close, drainLimit);
    }

    /** As {@link #tearDown(Thread[], LoopControl, BenchPool, Duration)}, closing the pools with {@code closePools}. */
    public static int tearDown(Thread[] threads, LoopControl control, Runnable closePools, Duration drainLimit)
            throws InterruptedException {
        control.set(LoopControl.Phase.STOP);
        joinAll(threads, drainLimit);
        control.set(LoopControl.Phase.CLOSING);
        try {
            closePools.run();
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
            // Null only when creating the threads failed part-way; joining an unstarted thread returns at once.
            if (t != null) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }
}
