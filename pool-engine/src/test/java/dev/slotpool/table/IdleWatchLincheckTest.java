package dev.slotpool.table;

import dev.slotpool.SlotState;
import dev.slotpool.Ticker;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

/**
 * No lost wake-up around the {@link IdleWatch} (S6), under Lincheck's model checker, which runs every interleaving
 * of the two threads' shared-memory accesses it explores, so each window is reached deterministically:
 * <ul>
 *   <li>the watch going to sleep because nobody waits, while the first waiter enqueues: either the watch sees
 *       the waiter and does not park, or the waiter sees the watch asleep and wakes it;</li>
 *   <li>a return in a turn while the watch fails to start: the return signals nobody while the watch looks as if
 *       it runs, so whoever sees the other last must tell the head.</li>
 * </ul>
 */
class IdleWatchLincheckTest {

    /** Never started: a signal's unpark of it wakes nobody. */
    private static final Thread NOBODY = new Thread(() -> { });
    private static final long TURN_NANOS = TimeUnit.SECONDS.toNanos(1);

    @Test
    void theWatchDoesNotSleepThroughTheFirstWaiter() {
        Lincheck.runConcurrentTest(2_000, () -> {
            SlotTable<String> table = new SlotTable<>(1, TURN_NANOS, Ticker.SYSTEM, null, work -> NOBODY);
            IdleWatch<String> watch = table.watch();
            boolean[] parks = new boolean[1];
            boolean[] woken = new boolean[1];
            Thread watcher = new Thread(() -> parks[0] = watch.fallingAsleep());
            watch.runOn(watcher);
            Thread waiter = new Thread(() -> {
                table.waiters().enqueue(new Waiter(NOBODY, 0));
                woken[0] = watch.waiterEnqueued();
            });
            watcher.start();
            waiter.start();
            join(watcher);
            join(waiter);

            if (parks[0] && !woken[0]) {
                throw new AssertionError("the watch parks for good with a waiter queued, and nobody wakes it");
            }
        });
    }

    @Test
    void aReturnInATurnIsToldToTheHeadWhenTheWatchFailsToStart() {
        Lincheck.runConcurrentTest(2_000, () -> {
            // An already started thread: the watch's start throws after it has been marked as running.
            Thread started = new Thread(() -> { });
            started.start();
            join(started);
            SlotTable<String> table = new SlotTable<>(1, TURN_NANOS, Ticker.SYSTEM, null, work -> started);
            Slot<String> slot = table.reserve();
            slot.publishBorrowed("only"); // the returner holds it as a borrower in its turn would
            Waiter head = new Waiter(NOBODY, 0);
            table.waiters().enqueue(head);

            Thread starter = new Thread(() -> table.watch().waiterEnqueued());
            Thread returner = new Thread(() -> table.makeAvailableInTurn(slot));
            starter.start();
            returner.start();
            join(starter);
            join(returner);

            if (table.watch().watching()) {
                throw new AssertionError("the watch runs on a thread that could not start");
            }
            if (slot.state() == SlotState.AVAILABLE && !head.signalPending()) {
                throw new AssertionError("lost wake-up: the slot is AVAILABLE, the watch did not start, the head "
                        + "was not told");
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
