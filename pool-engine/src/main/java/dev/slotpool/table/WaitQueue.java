package dev.slotpool.table;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads waiting for a slot, oldest first (a lock-free {@link ConcurrentLinkedQueue}), with the hand-off
 * of a returned slot to the oldest waiter. When a slot goes to the queue rather than to a thread in its turn
 * is decided by {@link Turns}.
 */
final class WaitQueue {

    private final ConcurrentLinkedQueue<Waiter> queue = new ConcurrentLinkedQueue<>();
    /** Waiters in the queue. Changed only on the slow path (enqueue and leave). */
    private final AtomicInteger size = new AtomicInteger();
    /**
     * When the queue last went from empty to non-empty (System.nanoTime). Written only by the thread whose
     * enqueue took the size from 0 to 1; racy but benign: a late writer can make the backlog look slightly
     * older, which at worst lets the creator open one connection sooner.
     */
    private volatile long busySince;

    WaitQueue() {
    }

    int size() {
        return size.get();
    }

    void enqueue(Waiter w) {
        if (size.incrementAndGet() == 1) {
            busySince = w.since;
        }
        queue.offer(w);
    }

    /** How long threads have been waiting without a break (the queue non-empty), in nanoseconds; 0 if none. */
    long backlogNanos() {
        return size.get() == 0 ? 0 : Math.max(0, System.nanoTime() - busySince);
    }

    /**
     * Called by the waiter once its wait is over, whoever ended it; removes its node if a returner did not
     * already (ConcurrentLinkedQueue.remove of an absent node walks the whole queue, so it is skipped).
     */
    void leave(Waiter w) {
        if (!w.unlinked) {
            queue.remove(w);
        }
        size.decrementAndGet();
    }

    /** Removes a waiter this thread is ending the wait of; marks it so its own leave() does not search. */
    private void unlink(Waiter w) {
        if (queue.remove(w)) {
            w.unlinked = true;
        }
    }

    /** Hands an owned slot to the oldest waiter still waiting; false (the caller keeps it) when nobody waits. */
    boolean handOffToOldest(Slot<?> slot) {
        for (Waiter head; (head = queue.peek()) != null; ) {
            if (!head.done() && head.tryHandOff(slot)) {
                unlink(head);
                head.wake();
                return true;
            }
            queue.remove(head);
        }
        return false;
    }

    /**
     * Asks the oldest waiter still waiting to look at the table, unless it already polls (it will look within a
     * turn anyway): one wake per head, not one per return.
     */
    void signalHead() {
        for (Waiter head; (head = queue.peek()) != null; ) {
            if (!head.done()) {
                if (!head.polling) {
                    head.signal();
                }
                return;
            }
            queue.remove(head);
        }
    }

    /** Wakes every waiter (shutdown). */
    void signalAll() {
        for (Waiter w : queue) {
            w.signal();
        }
    }

    /** The oldest waiter's wait in nanoseconds, or 0. Racy but benign: for snapshots and the creator. */
    long oldestWaitNanos() {
        Waiter head = queue.peek();
        return head == null ? 0 : Math.max(0, System.nanoTime() - head.since);
    }
}
