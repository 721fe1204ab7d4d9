package dev.slotpool.table;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads waiting for a slot, oldest first (a lock-free {@link ConcurrentLinkedDeque}), with the hand-off
 * of a returned slot to the oldest waiter. When a slot goes to the queue rather than to a thread in its turn
 * is decided by {@link Turns}.
 *
 * <p>Each node is unlinked exactly once, by whoever ended its wait (the waiter's item CAS decides): the returner
 * that handed it a slot, right after the hand-off, while the node is at the head; or the waiter itself when it
 * cancelled, searching from the end it is nearest. Nobody else removes a node, so no removal ever searches for
 * a node that is already gone (a walk of the whole queue, thousands of nodes with thousands of waiters).
 */
final class WaitQueue {

    private final ConcurrentLinkedDeque<Waiter> queue = new ConcurrentLinkedDeque<>();
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
        queue.offerLast(w);
    }

    /**
     * Whether more than {@code n} threads still wait for a slot: a waiter handed one (or cancelled) counts in
     * {@link #size()} until it wakes and leaves, not here. Racy but benign: a waiter that ends during the walk may
     * be counted. Walks at most the queue, and only when {@link #size()} exceeds {@code n}.
     */
    boolean moreWaitingThan(int n) {
        if (size.get() <= n) {
            return false;
        }
        int left = n;
        for (Waiter w : queue) {
            if (!w.done() && --left < 0) {
                return true;
            }
        }
        return false;
    }

    /** How long threads have been waiting without a break (the queue non-empty), in nanoseconds; 0 if none. */
    long backlogNanos() {
        return size.get() == 0 ? 0 : Math.max(0, System.nanoTime() - busySince);
    }

    /**
     * Called by the waiter once its wait is over (it was handed a slot or it cancelled). A handed waiter's node
     * was unlinked by its returner. A cancelled one unlinks its own: from the tail if it never parked (its look
     * right after enqueueing found a slot, and only later arrivals stand behind it), else from the head (the
     * longest waiters leave first: a polling head, a timeout).
     */
    void leave(Waiter w) {
        if (w.handed() == null) {
            if (w.parked) {
                queue.removeFirstOccurrence(w);
            } else {
                queue.removeLastOccurrence(w);
            }
        }
        size.decrementAndGet();
    }

    /** Hands an owned slot to the oldest waiter still waiting; false (the caller keeps it) when nobody waits. */
    boolean handOffToOldest(Slot<?> slot) {
        for (Waiter w : queue) {
            if (!w.done() && w.tryHandOff(slot)) {
                // Before it stand only nodes whose owners are unlinking them: a short search from the head.
                queue.removeFirstOccurrence(w);
                w.wake();
                return true;
            }
        }
        return false;
    }

    /**
     * Asks the oldest waiter still waiting to look at the table, unless it already polls (it will look within a
     * turn anyway): one wake per head, not one per return.
     */
    void signalHead() {
        // Most returns find a live head: look at it without making an iterator.
        Waiter head = queue.peekFirst();
        if (head != null && told(head)) {
            return;
        }
        for (Waiter w : queue) {
            if (told(w)) {
                return;
            }
        }
    }

    /**
     * Tells {@code w} to look, unless it already polls; true if it is still waiting after that, so it answers for
     * the slot, false if its wait is over and the next waiter must be told. The wait can end between the first
     * look and the signal: the re-read after it is the Dekker pair with the waiter's cancel, then its read of the
     * flag as it leaves ({@link SlotTable#leave}), both volatile. Either the leaver sees the signal and passes it
     * on, or this sees the wait over and moves on (or both: one extra wake), never neither.
     */
    private static boolean told(Waiter w) {
        if (w.done()) {
            return false;
        }
        if (!w.polling) {
            w.signal();
        }
        return !w.done();
    }

    /** Wakes every waiter (shutdown). */
    void signalAll() {
        for (Waiter w : queue) {
            w.signal();
        }
    }

    /** The oldest waiter's wait in nanoseconds, or 0. Racy but benign: for snapshots and the creator. */
    long oldestWaitNanos() {
        Waiter head = queue.peekFirst();
        return head == null ? 0 : Math.max(0, System.nanoTime() - head.since);
    }

    /** Nodes still linked, waiting or not: every leave must bring this back down. */
    int linked() {
        return queue.size();
    }
}
