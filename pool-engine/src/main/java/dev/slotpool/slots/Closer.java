package dev.slotpool.slots;

import dev.slotpool.kernel.Loggers;
import dev.slotpool.kernel.PoolThreads;
import dev.slotpool.table.Parking;

import java.sql.Connection;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs physical closes and aborts on one pool thread (docs/architecture.md, "Closing"), so that no returning
 * holder, borrower, operator request or timer waits on a driver that says goodbye to a silent server. Each
 * connection gets a network timeout first ({@code validationTimeout}: the time the pool gives a server to
 * answer), which ends a close that waits for the server's reply in drivers that honour it.
 *
 * <p>The queue is lock-free; the thread parks while it is empty (S4). After {@link #finish} a submitter runs
 * its close itself: a connection published or validated after close() swept the table is still closed once.
 */
public final class Closer {

    /** Runs a driver's network-timeout task and an abort's work on the closing thread. */
    private static final Executor INLINE = Runnable::run;

    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    /** Closes submitted and not yet done, their bookkeeping included. */
    private final AtomicInteger pending = new AtomicInteger();
    private final int networkTimeoutMillis;
    private final Thread thread;
    private volatile boolean stopping;
    /** Set by the thread once it has stopped taking work; a later submitter drains the queue itself. */
    private volatile boolean stopped;

    public Closer(PoolThreads threads, int networkTimeoutMillis) {
        this.networkTimeoutMillis = networkTimeoutMillis;
        this.thread = threads.newThread(this::run, "closer");
    }

    public void start() {
        thread.start();
    }

    /**
     * Closes (or aborts) {@code physical} off the caller's thread, then runs {@code after} (the bookkeeping that
     * must follow the physical close: releasing the slot and its room, S2/S3). Whatever the driver throws, an
     * {@code Error} included, {@code after} runs.
     */
    void close(Connection physical, boolean abort, Runnable after) {
        pending.incrementAndGet();
        queue.offer(() -> {
            try {
                closeBounded(physical, abort);
            } finally {
                try {
                    after.run();
                } finally {
                    pending.decrementAndGet();
                }
            }
        });
        // Dekker with finish(): the queue's CAS precedes this read; the thread sets stopped, then drains once more.
        if (stopped) {
            drain();
        } else {
            Parking.unpark(thread);
        }
    }

    private void closeBounded(Connection physical, boolean abort) {
        try {
            physical.setNetworkTimeout(INLINE, networkTimeoutMillis);
        } catch (Throwable unsupportedOrClosed) {
            // A driver without network timeouts, or a connection already dead: close it all the same.
        }
        try {
            if (abort) {
                physical.abort(INLINE);
            } else {
                physical.close();
            }
        } catch (Throwable ex) {
            if (abort) {
                try {
                    physical.close(); // the connection is unusable either way; its slot is released after this
                } catch (Throwable ignored) {
                    // Nothing more to do for a connection the driver cannot close.
                }
            }
        }
    }

    private void run() {
        while (true) {
            drain();
            if (stopping) {
                stopped = true;
                drain();
                return;
            }
            Parking.park(this, Long.MAX_VALUE);
            Thread.interrupted(); // a stray interrupt would make every later park return at once
        }
    }

    private void drain() {
        for (Runnable r; (r = queue.poll()) != null; ) {
            try {
                r.run();
            } catch (Throwable ex) {
                Loggers.CONNECTION.log(System.Logger.Level.ERROR, "closing a connection failed", ex);
            }
        }
    }

    /**
     * Lets the thread close what is queued and stop, waiting until {@code deadline} (System.nanoTime). A close
     * still in the driver then is left to the daemon thread, which ends after it; closes submitted after this
     * run on their submitter.
     */
    public void finish(long deadline) {
        stopping = true;
        Parking.unpark(thread);
        PoolThreads.joinUntil(thread, deadline);
    }

    /** Closes submitted and not yet done: the operations that started them see their effect only after. */
    public int pending() {
        return pending.get();
    }
}
