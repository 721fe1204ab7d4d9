package dev.slotpool.table;

import java.util.concurrent.locks.LockSupport;

/**
 * The engine's only use of {@code java.util.concurrent.locks}: {@link LockSupport}'s per-thread permit, the
 * primitive a waiting thread needs to stop using CPU (and that unmounts a virtual thread without pinning its
 * carrier). It is not a lock: nothing can hold it, so no thread can block another through it (invariant S4,
 * docs/architecture.md). Kept in this one class so the exception is stated once.
 */
public final class Parking {

    private Parking() {
    }

    /** Parks the current thread for at most {@code nanos}, until unparked or interrupted. */
    public static void park(Object blocker, long nanos) {
        LockSupport.parkNanos(blocker, nanos);
    }

    /** Parks the current thread for at most {@code nanos}. */
    public static void park(long nanos) {
        LockSupport.parkNanos(nanos);
    }

    /** Gives {@code thread} its permit: it returns from its current or next park. */
    public static void unpark(Thread thread) {
        LockSupport.unpark(thread);
    }
}
