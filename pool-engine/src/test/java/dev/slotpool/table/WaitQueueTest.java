package dev.slotpool.table;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every way a wait ends unlinks the waiter's node exactly once, and a hand-off still goes to the oldest waiter
 * still waiting when the nodes ahead of it are ones whose owners have not unlinked them yet.
 */
class WaitQueueTest {

    private final WaitQueue queue = new WaitQueue();
    private final Slot<String> slot = borrowedSlot();

    @Test
    void aHandedWaiterIsUnlinkedByItsReturnerAndItsLeaveOnlyCounts() {
        Waiter w = waiter();
        queue.enqueue(w);

        assertThat(queue.handOffToOldest(slot)).isTrue();
        assertThat(queue.linked()).isZero();
        assertThat(queue.size()).isOne();

        queue.leave(w);
        assertThat(queue.linked()).isZero();
        assertThat(queue.size()).isZero();
    }

    @Test
    void aWaiterThatCancelsBeforeParkingUnlinksItselfAndTheOthersKeepTheirOrder() {
        Waiter[] queued = enqueue(3);
        Waiter oldest = queued[0];
        Waiter middle = queued[1];
        Waiter newest = queued[2];

        assertThat(newest.cancel()).isTrue();
        queue.leave(newest);

        assertThat(queue.linked()).isEqualTo(2);
        assertThat(queue.handOffToOldest(slot)).isTrue();
        assertThat(oldest.<String>handed()).isSameAs(slot);
        assertThat(middle.done()).isFalse();
    }

    @Test
    void aParkedWaiterThatCancelsUnlinksItselfFromAnywhere() {
        Waiter middle = enqueue(3)[1];
        middle.parked = true;

        assertThat(middle.cancel()).isTrue();
        queue.leave(middle);

        assertThat(queue.linked()).isEqualTo(2);
        assertThat(queue.size()).isEqualTo(2);
    }

    @Test
    void aHandOffSkipsCancelledNodesTheirOwnersHaveNotUnlinkedYet() {
        Waiter cancelled = waiter();
        Waiter live = waiter();
        queue.enqueue(cancelled);
        queue.enqueue(live);
        cancelled.parked = true;
        assertThat(cancelled.cancel()).isTrue();

        assertThat(queue.handOffToOldest(slot)).isTrue();
        assertThat(live.<String>handed()).isSameAs(slot);
        assertThat(cancelled.<String>handed()).isNull();

        queue.leave(cancelled);
        queue.leave(live);
        assertThat(queue.linked()).isZero();
        assertThat(queue.size()).isZero();
    }

    @Test
    void nobodyToHandToWhenEveryNodeIsCancelled() {
        Waiter cancelled = waiter();
        queue.enqueue(cancelled);
        assertThat(cancelled.cancel()).isTrue();

        assertThat(queue.handOffToOldest(slot)).isFalse();
        queue.leave(cancelled);
        assertThat(queue.linked()).isZero();
    }

    /** {@code n} waiters queued, oldest first. */
    private Waiter[] enqueue(int n) {
        Waiter[] queued = new Waiter[n];
        for (int i = 0; i < n; i++) {
            queued[i] = waiter();
            queue.enqueue(queued[i]);
        }
        return queued;
    }

    /** A waiter for the current thread: a hand-off's unpark only leaves it a permit, which the test never uses. */
    private static Waiter waiter() {
        return new Waiter(Thread.currentThread(), System.nanoTime());
    }

    private static Slot<String> borrowedSlot() {
        SlotTable<String> table = new SlotTable<>(1, 0);
        Slot<String> s = table.reserve();
        s.publishBorrowed("connection"); // the test holds it as a borrower would
        return s;
    }
}
