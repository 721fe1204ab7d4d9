package dev.slotpool.table;

import dev.slotpool.SlotState;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * S6: a thread that joins the queue takes no free slot ahead of an older waiter. A returner in its turn makes its
 * slot available and tells the head; a newcomer that enqueues next must leave that slot to the head, not take it
 * in its look after enqueueing (which is there only for a slot released by a returner that did not see it).
 */
class NewcomerBehindOlderWaiterTest {

    /** Long enough that the test thread is still in its turn when it returns, on any machine. */
    private static final long TURN_NANOS = TimeUnit.SECONDS.toNanos(30);

    @Test
    void aNewcomerDoesNotTakeTheSlotMadeAvailableForTheHead() throws Exception {
        SlotTable<String> table = new SlotTable<>(1, TURN_NANOS);
        Slot<String> slot = slotReturnedInTurn(table);
        StandInWaiter<String> head = StandInWaiter.enqueue(table);
        table.release(slot); // in its turn: back to AVAILABLE, the head told

        // Another thread: this one is still in its turn, and may take a free slot ahead of the queue.
        AtomicReference<Slot<String>> got = new AtomicReference<>();
        Thread newcomer = borrower(table, got, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200));
        newcomer.start();
        newcomer.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(newcomer.isAlive()).isFalse();
        assertThat(got.get()).as("the newcomer's borrow, with an older waiter queued").isNull();
        assertThat(table.count(SlotState.AVAILABLE)).as("the slot is left for the head").isEqualTo(1);
        head.leave();
    }

    @Test
    void whenTheHeadLeavesTheNewcomerGetsTheSlot() throws Exception {
        SlotTable<String> table = new SlotTable<>(1, TURN_NANOS);
        Slot<String> slot = slotReturnedInTurn(table);
        StandInWaiter<String> head = StandInWaiter.enqueue(table);
        table.release(slot);

        AtomicReference<Slot<String>> got = new AtomicReference<>();
        Thread newcomer = borrower(table, got, Long.MAX_VALUE / 2);
        newcomer.start();
        while (newcomer.getState() != Thread.State.TIMED_WAITING && newcomer.isAlive()) {
            Thread.onSpinWait();
        }
        assertThat(got.get()).as("parked behind the head, not holding the head's slot").isNull();
        assertThat(table.count(SlotState.AVAILABLE)).isEqualTo(1);

        head.leave(); // the head was told of the slot: leaving, it tells the next waiter
        newcomer.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(newcomer.isAlive()).isFalse();
        assertThat(got.get()).isSameAs(slot);
    }

    private static Thread borrower(SlotTable<String> table, AtomicReference<Slot<String>> got, long deadline) {
        return new Thread(() -> {
            try {
                got.set(table.borrow(deadline, null, () -> { }));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "newcomer");
    }

    /**
     * Gives the calling thread the table's only slot the way a turn starts (a hand-off from the queue), so its
     * return comes in its turn.
     */
    private static Slot<String> slotReturnedInTurn(SlotTable<String> table) throws Exception {
        Slot<String> slot = table.reserve();
        slot.publishBorrowed("only"); // the releaser holds it as a borrower would
        Thread releaser = new Thread(() -> {
            while (table.waiting() == 0) {
                Thread.onSpinWait();
            }
            table.release(slot); // the releaser has no turn: a hand-off to the calling thread
        });
        releaser.start();
        Slot<String> mine = table.borrow(Long.MAX_VALUE / 2, null, () -> { });
        releaser.join();
        assertThat(mine).isSameAs(slot);
        return mine;
    }
}
