package dev.slotpool.origins;

import dev.slotpool.kernel.PoolThreads;
import dev.slotpool.table.Parking;

import java.util.Collection;
import java.util.concurrent.TimeUnit;

/**
 * One connect to an origin (a creation or a probe), run on a thread of its own so that a creator waits for it at
 * most {@code silenceTimeout}: JDBC has no portable way to bound a connect, and a server that accepts TCP and never
 * answers would otherwise hold the creator for as long as the driver waits (forever, with pgjdbc's defaults).
 * The attempt owns what was claimed for it (room, a reserved slot) until its work ends, however late that is, so
 * the counts keep covering every physical connection (S3) and a late connection is still used or closed (S2).
 *
 * <p>While it runs, the attempt is listed in its origin's {@link Origin#attempts}; the {@code FailureDetector}
 * counts one failed connect for every unanswered period that passes: {@code connectTimeout} for an origin not
 * known to answer, {@code silenceTimeout} for one that has answered before (decided when the attempt starts).
 */
public final class ConnectAttempt implements Runnable {

    /** The list of running attempts it is in while it runs (its origin's). */
    private final Collection<ConnectAttempt> listedIn;
    /** Its origin's started attempts whose thread may be alive, for close() to join ({@link #join}). */
    private final Collection<ConnectAttempt> startedIn;
    /** When it started (ticker time). */
    public final long startedAt;
    /** Whether it probes an origin the pool doubts (DOWN, or whose connections stopped answering). */
    public final boolean probe;
    /** How long it may go unanswered before the detector counts a failure, and again for each such period. */
    public final long unansweredAfterNanos;
    private final Runnable work;
    /** Runs once the attempt is no longer listed: wakes the creators, which may now plan for its origin. */
    private final Runnable ended;
    private volatile boolean finished;
    private Thread thread;
    /** The creator waiting for it, if any; unparked when it finishes. */
    private volatile Thread waiter;
    /** Unanswered periods already counted as failures (detector only). */
    public int countedPeriods;

    private ConnectAttempt(Collection<ConnectAttempt> listedIn, Collection<ConnectAttempt> startedIn, long startedAt,
                           boolean probe, long unansweredAfterNanos, Runnable work, Runnable ended) {
        this.listedIn = listedIn;
        this.startedIn = startedIn;
        this.startedAt = startedAt;
        this.probe = probe;
        this.unansweredAfterNanos = unansweredAfterNanos;
        this.work = work;
        this.ended = ended;
    }

    /**
     * Lists an attempt in its origin's {@code attempts}, not started yet: the caller may look at the list again
     * ({@code Placement.mayStart}) before it {@link #start}s the attempt or {@link #unlist}s it. Listed first, so
     * that the thread's end always finds it listed and whoever looks at the origin meanwhile sees it.
     */
    public static ConnectAttempt list(Collection<ConnectAttempt> attempts, Collection<ConnectAttempt> started, long now,
                                      boolean probe, long unansweredAfterNanos, Runnable work, Runnable ended) {
        ConnectAttempt a = new ConnectAttempt(attempts, started, now, probe, unansweredAfterNanos, work, ended);
        a.listedIn.add(a);
        return a;
    }

    /**
     * Starts the listed attempt's thread. A thread that cannot be made or started ({@link PoolThreads}) throws
     * here with the attempt unlisted and its work never run, so nothing counts it as a connect under way (an
     * origin with one gets no other attempt): the caller releases what it claimed for it. A started attempt is kept
     * in its origin's {@code startedAttempts} until a later start finds its thread ended, so close() can wait for
     * a thread whose work has ended but which has not.
     */
    public ConnectAttempt start(PoolThreads threads, String originName) {
        try {
            thread = threads.newThread(this, (probe ? "probe-" : "connect-") + originName);
            thread.start();
        } catch (Throwable e) {
            listedIn.remove(this);
            throw e;
        }
        startedIn.removeIf(a -> !a.thread.isAlive());
        startedIn.add(this);
        return this;
    }

    /** Gives up a listed attempt that was not started. */
    public void unlist() {
        listedIn.remove(this);
    }

    @Override
    public void run() {
        try {
            work.run();
        } finally {
            listedIn.remove(this);
            finished = true;
            Parking.unpark(waiter);
            ended.run();
        }
    }

    /** Waits until the attempt finished, {@code nanos} passed or {@code giveUp} says so; true if it finished. */
    public boolean await(long nanos, java.util.function.BooleanSupplier giveUp) {
        waiter = Thread.currentThread();
        long deadline = System.nanoTime() + nanos;
        // The finished flag is read after the waiter is published (both volatile): an attempt ending in between
        // sees the waiter and unparks it, or this loop sees the flag (Dekker).
        for (long left = nanos; !finished && left > 0 && !giveUp.getAsBoolean(); left = deadline - System.nanoTime()) {
            Parking.park(this, left);
        }
        waiter = null;
        return finished;
    }

    /** At pool close: a driver that honours interrupts gives the connect up. */
    public void interrupt() {
        thread.interrupt();
    }

    /** Waits up to {@code nanos} for the attempt's thread to end; false if it is still alive. */
    public boolean join(long nanos) throws InterruptedException {
        if (nanos > 0) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos)));
        }
        return !thread.isAlive();
    }

    public boolean finished() {
        return finished;
    }
}
