package dev.slotpool.table;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A thread parked in the {@link WaitQueue}. Its {@code item} word decides, by CAS, who ends the wait: a returner
 * that hands it a slot ({@code null → slot}) or the waiter itself when it times out, is interrupted or finds a
 * slot on its own ({@code null → CANCELLED}). Exactly one wins, so a slot is never handed to a thread that has
 * stopped waiting (S1) and a waiter that leaves takes nothing with it.
 */
final class Waiter {

    private static final Object CANCELLED = new Object();
    private static final VarHandle ITEM;
    private static final VarHandle SIGNALLED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ITEM = lookup.findVarHandle(Waiter.class, "item", Object.class);
            SIGNALLED = lookup.findVarHandle(Waiter.class, "signalled", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Thread thread;
    /** When the thread began to wait (System.nanoTime); the queue's head is the longest waiter. */
    final long since;
    @SuppressWarnings("unused")
    private volatile Object item;
    @SuppressWarnings("unused")
    private volatile boolean signalled;
    /**
     * Set by the waiter once it has been signalled as the queue's head: from then on it polls the table once per
     * turn while it waits, so returners need not signal it again (see {@link SlotTable} and {@link Turns}).
     * Written by the waiter only; volatile so returners see it.
     */
    volatile boolean polling;
    /** Set by the waiter before it first parks; tells its own leave which end of the queue it is nearer. */
    boolean parked;

    Waiter(Thread thread, long since) {
        this.thread = thread;
        this.since = since;
    }

    /** null → slot. CAS: the returner that wins gives up its ownership of the slot to this waiter (S1). */
    boolean tryHandOff(Slot<?> slot) {
        return ITEM.compareAndSet(this, null, slot);
    }

    /** null → CANCELLED. CAS: true when the waiter left before anything was handed to it. */
    boolean cancel() {
        return ITEM.compareAndSet(this, null, CANCELLED);
    }

    /** The handed slot, or null. Acquire: sees the returner's writes before its CAS. */
    @SuppressWarnings("unchecked")
    <T> Slot<T> handed() {
        Object o = ITEM.getAcquire(this);
        return o instanceof Slot<?> s ? (Slot<T>) s : null;
    }

    /**
     * Whether the wait is over (handed or cancelled). Volatile: a returner reads it again after its signal, the
     * Dekker pair with the waiter's cancel and then its read of the flag (see {@link WaitQueue#signalHead}).
     */
    boolean done() {
        return ITEM.getVolatile(this) != null;
    }

    /**
     * Wakes the waiter to look at the table again (a slot became available). CAS on the flag so that a burst of
     * returns unparks the thread once, not once per return (no thundering herd, no wasted unparks).
     */
    void signal() {
        // Read first: under contention many returners signal the same head, and a failing CAS still takes the
        // cache line exclusively; a read shares it.
        if (!(boolean) SIGNALLED.getVolatile(this) && SIGNALLED.compareAndSet(this, false, true)) {
            Parking.unpark(thread);
        }
    }

    /** Whether a signal arrived that the waiter has not taken yet. */
    boolean signalPending() {
        return (boolean) SIGNALLED.getVolatile(this);
    }

    /** Clears the signal before the waiter looks again; volatile so a later signal is not lost. */
    boolean takeSignal() {
        return (boolean) SIGNALLED.getVolatile(this) && SIGNALLED.compareAndSet(this, true, false);
    }

    void wake() {
        Parking.unpark(thread);
    }
}
