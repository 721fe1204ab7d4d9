package dev.slotpool.table;

import dev.slotpool.testsupport.OwnThread;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SlotTable#turnAwayWaiters}: the threads waiting when it is called leave with null, as at their timeout,
 * and leave nothing behind in the queue; a thread that enqueues afterwards waits and is handed the next return
 * (FIFO and hand-off unchanged, S1 and S6). Deadlines are minutes away: only the turn-away can end these waits.
 */
class TurnAwayWaitersTest {

    private static final long FAR_NANOS = TimeUnit.MINUTES.toNanos(10);

    private static CompletableFuture<Slot<String>> waiter(SlotTable<String> table) {
        return OwnThread.supply(() -> table.borrow(System.nanoTime() + FAR_NANOS, null, () -> { }));
    }

    private static void awaitWaiting(SlotTable<String> table, int n) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (table.waiting() != n) {
            assertThat(System.nanoTime() - deadline).as(n + " waiting").isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** A turn-away that comes right after a waiter is counted, before it has looked at anything else: the waiter
     * still leaves (it read the turn-aways' count after joining the queue, and took the new count for its own). */
    @Test
    void aWaiterTurnedAwayJustAfterItJoinedTheQueueLeaves() throws Exception {
        SlotTable<String> table = new SlotTable<>(1, 0);
        table.reserve().publishBorrowed("only");
        for (int i = 0; i < 2_000; i++) {
            CompletableFuture<Slot<String>> w = waiter(table);
            while (table.waiting() == 0) {
                Thread.onSpinWait();
            }
            table.turnAwayWaiters();
            assertThat(w.get(20, TimeUnit.SECONDS)).as("turned away, round " + i).isNull();
        }
    }

    @Test
    void waitersQueuedBeforeLeaveWithNullAndLaterOnesAreHandedTheReturn() throws Exception {
        SlotTable<String> table = new SlotTable<>(1, 0);
        Slot<String> slot = table.reserve();
        slot.publishBorrowed("only"); // the test holds it as a borrower would

        CompletableFuture<Slot<String>> first = waiter(table);
        CompletableFuture<Slot<String>> second = waiter(table);
        awaitWaiting(table, 2);
        table.turnAwayWaiters();
        assertThat(first.get(20, TimeUnit.SECONDS)).as("turned away").isNull();
        assertThat(second.get(20, TimeUnit.SECONDS)).as("turned away").isNull();
        assertThat(table.waiting()).isZero();
        assertThat(table.waiters().linked()).as("nodes left in the queue").isZero();

        CompletableFuture<Slot<String>> later = waiter(table);
        awaitWaiting(table, 1);
        table.release(slot); // strict FIFO: handed to the one waiter, not to a turned-away node
        assertThat(later.get(20, TimeUnit.SECONDS)).as("the later waiter got the return").isSameAs(slot);
        assertThat(table.waiters().linked()).isZero();
    }
}
