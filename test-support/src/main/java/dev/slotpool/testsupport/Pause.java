package dev.slotpool.testsupport;

import java.util.concurrent.locks.LockSupport;

/**
 * Simulated latency: parks until a deadline instead of spinning, so sub-millisecond delays cost no CPU
 * and stay interruptible.
 */
final class Pause {

    private Pause() {
    }

    /** Waits {@code nanos} (nothing if not positive); throws, with the interrupt flag cleared, if interrupted. */
    static void nanos(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    /** Waits {@code nanos} whatever interrupts arrive, as a thread blocked in a socket read does; keeps the flag. */
    static void uninterruptibly(long nanos) {
        boolean interrupted = false;
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
            interrupted |= Thread.interrupted();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
