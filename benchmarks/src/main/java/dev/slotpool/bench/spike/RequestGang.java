package dev.slotpool.bench.spike;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The spike: one platform thread per request, started and parked ahead of time so that thread creation is not
 * part of what is measured, then released together. Each request borrows, runs one statement and closes; its
 * times land in its own slot of preallocated arrays.
 *
 * <p>The start gate is a volatile flag plus one unpark per thread rather than a CountDownLatch: the latch wakes
 * its waiters in a chain (each woken thread wakes the next), so the last request would start only after 49
 * wake-ups in a row; here one thread makes every request runnable at once.
 */
final class RequestGang {

    private static final Duration PARK_BOUND = Duration.ofSeconds(10);

    private final DataSource dataSource;
    private final Thread[] threads;
    private final long[] beginNanos;
    private final long[] borrowedNanos;
    private final long[] endNanos;
    private volatile boolean released;
    private final CountDownLatch done;
    /** Requests inside getConnection() now: the harness's own view of waiting, the same for every pool. */
    private final AtomicInteger borrowing = new AtomicInteger();
    private final AtomicInteger completed = new AtomicInteger();
    private final AtomicReference<SQLException> firstFailure = new AtomicReference<>();

    private RequestGang(DataSource dataSource, int requests) {
        this.dataSource = dataSource;
        threads = new Thread[requests];
        beginNanos = new long[requests];
        borrowedNanos = new long[requests];
        endNanos = new long[requests];
        done = new CountDownLatch(requests);
    }

    /** Starts the request threads and returns once every one of them is parked at the start gate. */
    static RequestGang park(DataSource dataSource, int requests) {
        RequestGang gang = new RequestGang(dataSource, requests);
        for (int i = 0; i < requests; i++) {
            int slot = i;
            Thread t = new Thread(() -> gang.request(slot), "spike-request-" + i);
            t.setDaemon(true);
            gang.threads[i] = t;
            t.start();
        }
        gang.awaitAllParked();
        return gang;
    }

    private void awaitAllParked() {
        long deadline = System.nanoTime() + PARK_BOUND.toNanos();
        for (Thread t : threads) {
            while (t.getState() != Thread.State.WAITING) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(t.getName() + " did not reach the start gate within "
                            + PARK_BOUND.toSeconds() + " s");
                }
                LockSupport.parkNanos(100_000);
            }
        }
    }

    /** Opens the start gate; returns the instant it did. */
    long release() {
        long now = System.nanoTime();
        released = true;
        for (Thread t : threads) {
            LockSupport.unpark(t);
        }
        return now;
    }

    boolean awaitDone(Duration bound) throws InterruptedException {
        return done.await(bound.toNanos(), TimeUnit.NANOSECONDS);
    }

    int borrowing() {
        return borrowing.get();
    }

    int completed() {
        return completed.get();
    }

    /** The first failed request's exception, or null if none failed. */
    SQLException firstFailure() {
        return firstFailure.get();
    }

    /** Times of every request; valid once {@link #awaitDone} returned true. */
    RequestStats stats(long releaseNanos) {
        long lastEnd = releaseNanos;
        long slowest = 0;
        long slowestWait = 0;
        for (int i = 0; i < threads.length; i++) {
            lastEnd = Math.max(lastEnd, endNanos[i]);
            slowest = Math.max(slowest, endNanos[i] - beginNanos[i]);
            slowestWait = Math.max(slowestWait, borrowedNanos[i] - beginNanos[i]);
        }
        return new RequestStats(threads.length, completed.get(), lastEnd - releaseNanos, slowest, slowestWait);
    }

    private void request(int slot) {
        while (!released) {
            LockSupport.park(this);
        }
        try {
            beginNanos[slot] = System.nanoTime();
            try (Connection c = borrow(slot); Statement st = c.createStatement()) {
                st.execute("SELECT 1");
            }
            completed.incrementAndGet();
        } catch (SQLException e) {
            firstFailure.compareAndSet(null, e);
        } finally {
            // A failed request ends too: the run's duration covers it and the completed count tells it apart.
            endNanos[slot] = System.nanoTime();
            done.countDown();
        }
    }

    private Connection borrow(int slot) throws SQLException {
        borrowing.incrementAndGet();
        try {
            return dataSource.getConnection();
        } finally {
            borrowedNanos[slot] = System.nanoTime();
            borrowing.decrementAndGet();
        }
    }

    /**
     * The requests' times, in nanoseconds.
     *
     * @param requests    requests released
     * @param completed   requests that borrowed, ran their statement and closed without an error
     * @param allDone     from the release until the last request ended
     * @param slowest     longest request, from its borrow starting to its close ending
     * @param slowestWait longest borrow
     */
    record RequestStats(int requests, int completed, long allDone, long slowest, long slowestWait) {
    }
}
