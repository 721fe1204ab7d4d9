package dev.slotpool.table;

import dev.slotpool.SlotState;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;

/**
 * No lost wake-up when a returner signals the head at the moment it leaves (S6). The returner makes the slot
 * AVAILABLE and signals the queue's head, as {@link SlotTable#release} does when it does not hand off; the head
 * times out at the same time ({@code cancel}, then {@link SlotTable#leave}, as {@code await} does). Whatever the
 * interleaving, the waiter behind it must end up told to look: a signal set on a head that has already passed
 * nothing on reaches no one, and the next waiter parks its whole timeout beside a free slot.
 *
 * <p>Lincheck's model checker runs every interleaving of the two threads' shared-memory accesses it explores, so
 * the window between the returner's look at the head and its signal is reached deterministically, not by luck.
 */
class SignalVersusLeaveLincheckTest {

    /** Never started: a signal's unpark of it wakes nobody. */
    private static final Thread NOBODY = new Thread(() -> { });

    @Test
    void theNextWaiterIsToldWhenTheSignalledHeadLeavesAtTheSameTime() {
        Lincheck.runConcurrentTest(2_000, () -> {
            SlotTable<String> table = new SlotTable<>(1, 0);
            Slot<String> slot = table.reserve();
            slot.publishBorrowed("only"); // the test holds it as a borrower would
            Waiter head = new Waiter(NOBODY, 0);
            Waiter next = new Waiter(NOBODY, 0);
            table.waiters().enqueue(head);
            table.waiters().enqueue(next);
            head.parked = true;

            Thread returner = new Thread(() -> {
                slot.makeAvailable();
                table.waiters().signalHead();
            });
            Thread timedOut = new Thread(() -> {
                if (head.cancel()) {
                    table.leave(head);
                }
            });
            returner.start();
            timedOut.start();
            join(returner);
            join(timedOut);

            if (slot.state() == SlotState.AVAILABLE && !next.done() && !next.signalPending() && !next.polling) {
                throw new AssertionError("lost wake-up: the slot is AVAILABLE, the head left, the next waiter "
                        + "was not told (head signalled: " + head.signalPending() + ")");
            }
        });
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
