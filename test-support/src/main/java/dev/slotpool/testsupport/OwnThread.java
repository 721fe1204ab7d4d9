package dev.slotpool.testsupport;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a test's blocking task on a thread of its own. {@code CompletableFuture.supplyAsync} without an executor
 * runs on the common fork-join pool, whose parallelism is one on a two-core machine from JDK 25 on: a second
 * task that blocks (a borrower waiting, a server stopping) would then never start. A thread per task has no such
 * limit and no shared state between tests.
 */
public final class OwnThread {

    private static final AtomicInteger STARTED = new AtomicInteger();

    private OwnThread() {
    }

    /** Starts {@code task} on a new daemon thread; the future completes with its result or what it threw. */
    public static <T> CompletableFuture<T> supply(Callable<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                result.complete(task.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, "test-own-thread-" + STARTED.incrementAndGet());
        thread.setDaemon(true);
        thread.start();
        return result;
    }

    /** A task that returns nothing and may throw. */
    @FunctionalInterface
    public interface Task {
        void run() throws Exception;
    }

    /** Starts {@code task} on a new daemon thread; the future completes when it ends, exceptionally if it threw. */
    public static CompletableFuture<Void> run(Task task) {
        return supply(() -> {
            task.run();
            return null;
        });
    }
}
