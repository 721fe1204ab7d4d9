package dev.slotpool.kernel;

import dev.slotpool.PoolConfig;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Makes the pool's threads (creators, connect and probe attempts, the housekeeper, keepalive, the closer) with the configured
 * {@code threadFactory}, or as plain platform threads: each named {@code slotpool-<pool>-<job>} and a daemon.
 * Making or starting one can fail ({@code OutOfMemoryError: unable to create native thread} at a container's pids
 * limit, or a factory that throws or returns null); the caller gets the {@code Throwable} and releases what it
 * claimed for the thread.
 */
public final class PoolThreads {

    private static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final String poolName;
    private final ThreadFactory factory;
    private final long backoffMaxNanos;

    public PoolThreads(PoolConfig config) {
        this.poolName = config.name();
        this.factory = config.threadFactory() != null ? config.threadFactory() : Thread::new;
        this.backoffMaxNanos = config.creationBackoffMax().toNanos();
    }

    /** How long a pool thread whose loop failed {@code failures} times in a row waits before it tries again. */
    public long backoffNanos(int failures) {
        return backoffNanos(failures, backoffMaxNanos);
    }

    /** 50 ms doubling with each failure in a row, up to {@code maxNanos} (creationBackoffMax). */
    public static long backoffNanos(int failures, long maxNanos) {
        long b = FIRST_BACKOFF_NANOS << Math.min(30, Math.max(0, failures - 1));
        return Math.min(b, maxNanos);
    }

    /** A daemon thread for {@code job}, not started yet. */
    public Thread newThread(Runnable work, String job) {
        Thread t = factory.newThread(work);
        if (t == null) {
            throw new IllegalStateException("the thread factory made no thread for slotpool-" + poolName + "-" + job);
        }
        t.setName("slotpool-" + poolName + "-" + job);
        t.setDaemon(true);
        return t;
    }

    /**
     * Waits for {@code t} to end until {@code deadline} (System.nanoTime). False if the waiting thread was
     * interrupted meanwhile: it keeps its interrupt and should stop waiting for anything else.
     */
    public static boolean joinUntil(Thread t, long deadline) {
        try {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
