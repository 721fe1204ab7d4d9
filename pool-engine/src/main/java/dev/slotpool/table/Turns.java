package dev.slotpool.table;

/**
 * Per-thread turns: the concurrency restriction that keeps a pool under contention both fair and fast.
 *
 * <p>While threads wait, only a thread <em>in its turn</em> may take an available slot ahead of them. A thread
 * starts a turn when the queue gives it a slot (by hand-off or after a signal); for {@code turnNanos} it then
 * borrows and returns without queueing, so a handful of threads cycle the connections at memory speed while the
 * rest stay parked in arrival order. When its turn is over, its next return hands the slot to the oldest waiter
 * (which starts a turn) and its next borrow joins the back of the queue. A context switch is paid once per turn,
 * not once per borrow, and every waiter gets a turn within (waiters ÷ active threads) × turn. A turn of zero is
 * strict FIFO: every return goes to the oldest waiter.
 *
 * <p>A virtual thread whose turn is over yields its carrier even when nobody is queued yet: with few carriers, a
 * thread that always finds a free connection would otherwise never let not-yet-started virtual threads run.
 *
 * <p>Plain per-thread state in a {@link ThreadLocal}: only its own thread reads or writes it.
 */
final class Turns {

    private static final long NONE = Long.MIN_VALUE;
    /** {@code java.lang.VirtualThread} on JDKs that have it, else null (the engine compiles for Java 17). */
    private static final Class<?> VIRTUAL_THREAD = virtualThreadClass();

    private final long turnNanos;
    private final ThreadLocal<long[]> turnEnd = ThreadLocal.withInitial(() -> new long[] {NONE});

    Turns(long turnNanos) {
        this.turnNanos = turnNanos;
    }

    /** Whether the current thread is in its turn. */
    boolean inTurn() {
        long end = turnEnd.get()[0];
        return end != NONE && System.nanoTime() - end < 0;
    }

    /** Starts the current thread's turn (it was just given a slot by the queue). */
    void begin() {
        turnEnd.get()[0] = turnNanos == 0 ? NONE : System.nanoTime() + turnNanos;
    }

    /** For a virtual thread whose turn is over: yield the carrier once, then start a new turn. */
    void yieldIfVirtualAndDue() {
        if (VIRTUAL_THREAD != null && Thread.currentThread().getClass() == VIRTUAL_THREAD && !inTurn()) {
            Thread.yield();
            begin();
        }
    }

    private static Class<?> virtualThreadClass() {
        try {
            return Class.forName("java.lang.VirtualThread");
        } catch (ClassNotFoundException e) {
            return null;
        }
    }
}
