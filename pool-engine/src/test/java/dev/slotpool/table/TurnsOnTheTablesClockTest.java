package dev.slotpool.table;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A turn is timed on the table's clock, the one its borrow deadlines are set on and the one the pool reads once
 * per borrow and per return for its own timers (the caller passes that reading in, see {@link Turns}). Here the
 * clock is moved by hand: the turn must end when it says so, whatever the system's clock says.
 */
class TurnsOnTheTablesClockTest {

    private static final long TURN_NANOS = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aTurnEndsWhenTheTablesClockPassesIt() throws Exception {
        AtomicLong clock = new AtomicLong();
        SlotTable<String> table = new SlotTable<>(1, TURN_NANOS, clock::get);
        Slot<String> slot = table.reserve();
        slot.publishBorrowed("only"); // the releaser holds it as a borrower would

        // This thread starts a turn the way every turn starts: the queue gives it the slot.
        Thread releaser = new Thread(() -> {
            while (table.waiting() == 0) {
                Thread.onSpinWait();
            }
            table.release(slot); // the releaser has no turn: a hand-off to this thread
        });
        releaser.start();
        Slot<String> mine = table.borrow(Long.MAX_VALUE / 2, null, () -> { });
        releaser.join();
        assertThat(mine).isSameAs(slot);

        StandInWaiter<String> next = StandInWaiter.enqueue(table);
        clock.set(TURN_NANOS / 2);
        table.release(mine);
        assertThat(next.handed()).as("in its turn, a return goes back to the table").isNull();
        assertThat(table.tryBorrow(null)).as("in its turn, a borrow goes ahead of the queue").isSameAs(slot);

        clock.set(2 * TURN_NANOS);
        table.release(mine);
        assertThat(next.handed()).as("once the table's clock is past the turn, a return goes to the oldest waiter")
                .isSameAs(slot);
        next.leave();
    }
}
