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
        // This thread starts a turn the way every turn starts: the queue gives it the slot.
        Slot<String> slot = TurnStart.slotFromTheQueue(table, "only");

        StandInWaiter<String> next = StandInWaiter.enqueue(table);
        clock.set(TURN_NANOS / 2);
        table.release(slot);
        assertThat(next.handed()).as("in its turn, a return goes back to the table").isNull();
        assertThat(table.tryBorrow(null)).as("in its turn, a borrow goes ahead of the queue").isSameAs(slot);

        clock.set(2 * TURN_NANOS);
        table.release(slot);
        assertThat(next.handed()).as("once the table's clock is past the turn, a return goes to the oldest waiter")
                .isSameAs(slot);
        next.leave();
    }
}
