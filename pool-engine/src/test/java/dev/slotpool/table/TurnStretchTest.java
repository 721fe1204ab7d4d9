package dev.slotpool.table;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A turn lasts longer when it starts behind a short queue ({@link Turns#turnNanos(int)}): with a few waiters, a
 * connection held longer than a turn would otherwise change threads at every return. It is not stretched behind
 * more than half {@link Turns#ROTATION_TURNS} waiters (the stretch rounds down to 1), past
 * {@link Turns#MAX_STRETCHED_TURN_NANOS}, or for strict FIFO.
 */
class TurnStretchTest {

    private static final long TURN = TimeUnit.MICROSECONDS.toNanos(250);

    private final AtomicLong clock = new AtomicLong();

    /** On the table: a thread the queue served with nobody behind it keeps its connection past one turn. */
    @Test
    void aReturnInAStretchedTurnGoesBackToTheTable() throws Exception {
        SlotTable<String> table = new SlotTable<>(1, TURN, clock::get);
        Slot<String> slot = TurnStart.slotFromTheQueue(table, "only");

        StandInWaiter<String> next = StandInWaiter.enqueue(table);
        clock.set(2 * TURN);
        table.release(slot);
        assertThat(next.handed()).as("two turns in, the stretched turn goes on: the return goes back to the table")
                .isNull();
        assertThat(table.tryBorrow(null)).isSameAs(slot);

        clock.set(Turns.MAX_STRETCHED_TURN_NANOS);
        table.release(slot);
        assertThat(next.handed()).as("past the stretched turn, a return goes to the oldest waiter").isSameAs(slot);
        next.leave();
    }

    @Test
    void aTurnBehindFiveWaitersLastsTwentyTurns() {
        assertTurnLasts(20 * TURN, TURN, 5);
    }

    @Test
    void aTurnBehindFiftyWaitersLastsTwoTurns() {
        assertTurnLasts(2 * TURN, TURN, 50);
    }

    @Test
    void aTurnBehindALongQueueIsNotStretched() {
        for (int waiting : new int[] {Turns.ROTATION_TURNS / 2 + 1, Turns.ROTATION_TURNS, 1_000, 10_000}) {
            assertTurnLasts(TURN, TURN, waiting);
        }
    }

    @Test
    void noTurnIsStretchedPastTheMaximum() {
        assertTurnLasts(Turns.MAX_STRETCHED_TURN_NANOS, TURN, 1);
        assertTurnLasts(Turns.MAX_STRETCHED_TURN_NANOS, TURN, 0);
    }

    @Test
    void aConfiguredTurnLongerThanTheMaximumIsKept() {
        long second = TimeUnit.SECONDS.toNanos(1);
        assertTurnLasts(second, second, 1);
    }

    @Test
    void strictFifoStaysStrictBehindAShortQueue() {
        Borrower b = turnBegunBehind(0, 1);
        assertThat(Turns.inTurn(b, 0)).isFalse();
    }

    private void assertTurnLasts(long nanos, long turnNanos, int waiting) {
        Borrower b = turnBegunBehind(turnNanos, waiting);
        assertThat(Turns.inTurn(b, nanos - 1)).as("%d waiting: in its turn just before %d ns", waiting, nanos)
                .isTrue();
        assertThat(Turns.inTurn(b, nanos)).as("%d waiting: turn over at %d ns", waiting, nanos).isFalse();
    }

    private Borrower turnBegunBehind(long turnNanos, int waiting) {
        clock.set(0);
        Borrower b = new Borrower(0);
        new Turns(turnNanos, clock::get).begin(b, waiting);
        return b;
    }
}
