package dev.slotpool.table;

import dev.slotpool.testsupport.OwnThread;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No lost wake-up when a head leaves (S6): the queue's head that polls for slots made available in a turn is
 * responsible for them (returners do not signal a polling head again); if it leaves without looking, here by an
 * interrupt, while one sits AVAILABLE, the next waiter must be told, not left parked for its whole timeout beside
 * a free slot.
 */
class SignalPassedOnTest {

    /** A long turn: a polling head looks on its own only every 10 s, so only a passed-on signal can wake the next. */
    private static final long TURN_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long NEXT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(8);

    @Test
    void aPollingHeadInterruptedBesideAFreeSlotPassesTheSignalOn() throws Exception {
        int scenarios = 0;
        for (int attempt = 0; attempt < 20 && scenarios < 3; attempt++) {
            Outcome o = runOnce();
            if (o == null) {
                continue; // the head won the slot the turn thread took back: not the scenario, try again
            }
            scenarios++;
            assertThat(o.nextGot).as("the next waiter got the free slot").isTrue();
            assertThat(o.nextWaitedNanos).as("the next waiter's wait after the head left (ns)")
                    .isLessThan(NEXT_TIMEOUT_NANOS / 2);
        }
        assertThat(scenarios).as("runs that reached a polling head leaving beside a free slot").isPositive();
    }

    private record Outcome(boolean nextGot, long nextWaitedNanos) {
    }

    /** Null when the head got a slot before its interrupt (the set-up did not reach the race). */
    private Outcome runOnce() throws Exception {
        SlotTable<String> table = new SlotTable<>(1, TURN_NANOS);
        Slot<String> slot = table.reserve();
        slot.publishBorrowed("only"); // the test holds it as a borrower would

        // The turn thread takes the slot from the queue (a hand-off), which starts its turn.
        AtomicReference<Slot<String>> turnSlot = new AtomicReference<>();
        CompletableFuture<Void> turnTaken = new CompletableFuture<>();
        CompletableFuture<Void> handBack = new CompletableFuture<>();
        Thread turn = new Thread(() -> {
            try {
                Slot<String> s = table.borrow(System.nanoTime() + TimeUnit.SECONDS.toNanos(10), null, () -> { });
                turnSlot.set(s);
                turnTaken.complete(null);
                handBack.get(20, TimeUnit.SECONDS);
                // In its turn: make it available (the head is signalled), take it back at once (the head, woken,
                // finds nothing and polls from now on), then make it available again: the head polls, so it is
                // not signalled again, and its next own look is 10 s away.
                table.release(s);
                Slot<String> again = table.tryBorrow(null);
                if (again != null) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                    table.release(again);
                }
            } catch (Exception e) {
                turnTaken.completeExceptionally(e);
            }
        });
        turn.start();
        awaitWaiting(table, 1);
        table.release(slot); // not in a turn: handed to the turn thread
        turnTaken.get(10, TimeUnit.SECONDS);

        AtomicReference<Object> headEnd = new AtomicReference<>();
        Thread head = new Thread(() -> {
            try {
                headEnd.set(table.borrow(System.nanoTime() + NEXT_TIMEOUT_NANOS, null, () -> { }));
            } catch (InterruptedException e) {
                headEnd.set(e);
            }
        });
        head.start();
        awaitWaiting(table, 1);
        CompletableFuture<Slot<String>> next = OwnThread.supply(() -> borrow(table, NEXT_TIMEOUT_NANOS));
        awaitWaiting(table, 2);
        handBack.complete(null);
        turn.join(10_000);
        head.interrupt(); // the polling head leaves without looking at the table again
        head.join(10_000);
        long headLeft = System.nanoTime();
        if (!(headEnd.get() instanceof InterruptedException)) {
            if (headEnd.get() instanceof Slot<?> got) {
                @SuppressWarnings("unchecked") Slot<String> mine = (Slot<String>) got;
                table.release(mine); // so the next waiter ends at once
            }
            next.get(20, TimeUnit.SECONDS);
            return null;
        }
        Slot<String> nextGot = next.get(20, TimeUnit.SECONDS);
        return new Outcome(nextGot != null, System.nanoTime() - headLeft);
    }

    private static Slot<String> borrow(SlotTable<String> table, long timeoutNanos) {
        try {
            return table.borrow(System.nanoTime() + timeoutNanos, null, () -> { });
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitWaiting(SlotTable<String> table, int n) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (table.waiting() < n) {
            assertThat(System.nanoTime() - deadline).as("waiting for %d waiters", n).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
