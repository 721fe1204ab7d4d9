package dev.slotpool.bench.scaling;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** Platform or virtual benchmark threads, each with the thread counts docs/benchmarks.md measures. */
enum ThreadKind {

    /**
     * Starting a platform thread waits for its first time slice from a scheduler that the threads already
     * borrowing may saturate: 10,000 took up to 3 minutes on a loaded 2-core machine; past 2 the pool is
     * reported as unable to get them all running.
     */
    PLATFORM(List.of(10, 50, 100, 500, 1000, 5000, 10000), Duration.ofMinutes(2)) {
        @Override
        Thread newThread(Runnable task, String name) {
            Thread t = new Thread(null, task, name, PLATFORM_STACK_BYTES);
            // Daemon, so a thread that never ends (reported as a straggler) cannot keep the JVM alive.
            t.setDaemon(true);
            return t;
        }

        @Override
        boolean available() {
            return true;
        }
    },

    /**
     * Starting a virtual thread takes microseconds; if they are not all looping within 15 s, the first ones are
     * spinning on the carriers and the rest will never run, so waiting longer only wastes the run.
     */
    VIRTUAL(List.of(10, 1000, 10000), Duration.ofSeconds(15)) {
        @Override
        Thread newThread(Runnable task, String name) {
            return VirtualThreads.unstarted(task, name);
        }

        @Override
        boolean available() {
            return VirtualThreads.available();
        }
    };

    /** 256 KiB instead of the default 1 MiB (8 MiB reserved on some systems): 10,000 threads stay affordable. */
    static final long PLATFORM_STACK_BYTES = 256 * 1024;

    private final List<Integer> defaultThreadCounts;
    private final Duration rampLimit;

    ThreadKind(List<Integer> defaultThreadCounts, Duration rampLimit) {
        this.defaultThreadCounts = defaultThreadCounts;
        this.rampLimit = rampLimit;
    }

    /** An unstarted thread running {@code task}. */
    abstract Thread newThread(Runnable task, String name);

    /** Whether this JVM can create such threads. */
    abstract boolean available();

    List<Integer> defaultThreadCounts() {
        return defaultThreadCounts;
    }

    /** Longest wait for all threads of a run to be in their loop; past it the run is reported, not measured. */
    Duration rampLimit() {
        return rampLimit;
    }

    /** Lower-case name for command lines, CSV rows and file names. */
    String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
