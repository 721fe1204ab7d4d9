package dev.slotpool.table;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads waiting for a slot, oldest first (a lock-free {@link ConcurrentLinkedQueue}), and the rule that
 * decides whether a returned slot goes straight to the oldest waiter.
 *
 * <p>Fairness rule (S6): a waiter that has waited at least {@code handOffAfterNanos} is <em>starving</em>.
 * A returner hands its slot to a starving head directly, and a new borrower does not take an available slot
 * past a starving head. Below the threshold, slots are made available and the head is only signalled to look,
 * which keeps the fast path free of context switches when waits are short. A threshold of zero is strict FIFO.
 */
final class WaitQueue {

    private final ConcurrentLinkedQueue<Waiter> queue = new ConcurrentLinkedQueue<>();
    /** Waiters in the queue. Changed only on the slow path (enqueue and leave). */
    private final AtomicInteger size = new AtomicInteger();
    private final long handOffAfterNanos;
    /**
     * When the queue last went from empty to non-empty (System.nanoTime). Written only by the thread whose
     * enqueue took the size from 0 to 1; racy but benign: a late writer can make the backlog look slightly
     * older, which at worst lets the creator open one connection sooner.
     */
    private volatile long busySince;

    WaitQueue(long handOffAfterNanos) {
        this.handOffAfterNanos = handOffAfterNanos;
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

    /** Called by the waiter once its wait is over, whoever ended it; removes its node if still queued. */
    void leave(Waiter w) {
        queue.remove(w);
        size.decrementAndGet();
    }

    /** Whether the oldest waiter has waited long enough that nobody may take a slot ahead of it. */
    boolean headStarving() {
        Waiter head = queue.peek();
        return head != null && (handOffAfterNanos == 0 || System.nanoTime() - head.since >= handOffAfterNanos);
    }

    /**
     * Hands an owned slot to the oldest starving waiter. Returns false (the caller keeps the slot) when there
     * is none. Waiters that already left are skipped.
     */
    boolean handOffToStarving(Slot<?> slot) {
        for (Waiter head; (head = queue.peek()) != null; ) {
            if (head.done()) {
                queue.remove(head);
                continue;
            }
            if (handOffAfterNanos != 0 && System.nanoTime() - head.since < handOffAfterNanos) {
                return false;
            }
            if (head.tryHandOff(slot)) {
                queue.remove(head);
                head.wake();
                return true;
            }
        }
        return false;
    }

    /**
     * Hands an owned slot to the oldest waiter, starving or not (used when the caller cannot keep the slot,
     * e.g. a waiter that was handed a second slot). Returns false when nobody waits.
     */
    boolean handOffToOldest(Slot<?> slot) {
        for (Waiter head; (head = queue.peek()) != null; ) {
            if (!head.done() && head.tryHandOff(slot)) {
                queue.remove(head);
                head.wake();
                return true;
            }
            queue.remove(head);
        }
        return false;
    }

    /** Asks the oldest waiter still waiting to look at the table again. */
    void signalHead() {
        for (Waiter head; (head = queue.peek()) != null; ) {
            if (!head.done()) {
                head.signal();
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
