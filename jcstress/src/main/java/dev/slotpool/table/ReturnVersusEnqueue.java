package dev.slotpool.table;

import dev.slotpool.SlotState;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IL_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The Dekker pair of the package doc, on its own: a returner stores AVAILABLE and then looks at the queue
 * ({@link SlotTable#release}: {@code makeAvailable}, then the queue's size in {@code signalIfWaiting}); a waiter
 * enqueues and then looks at the slot ({@link SlotTable}'s {@code await}: {@code enqueue}, then the scan's read
 * of the state). Both are volatile, so at least one sees the other; if both missed, the slot would sit AVAILABLE
 * while the waiter parked unsignalled (a lost wake-up). {@link ReleaseWakesWaiter} runs the whole borrow, whose
 * yields rarely let the two land this close together; this test lines up just these four accesses.
 */
@JCStressTest
@Description("makeAvailable then queue size vs enqueue then slot state: never both missed (Dekker, no lost wake-up).")
@Outcome(id = {"1, AVAILABLE", "1, BORROWED", "0, AVAILABLE"}, expect = ACCEPTABLE,
        desc = "At least one side saw the other.")
@Outcome(id = "0, BORROWED", expect = FORBIDDEN, desc = "Both missed: the waiter would park beside a free slot.")
@Outcome(expect = FORBIDDEN, desc = "Anything else.")
@State
public class ReturnVersusEnqueue {

    private final Slot<Fixtures.Entry> held =
            Fixtures.borrowed(new SlotTable<>(1, Fixtures.STRICT_FIFO), new Fixtures.Entry());
    private final WaitQueue queue = new WaitQueue();
    private final Waiter waiter = Fixtures.waiter();

    @Actor
    public void returner(IL_Result r) {
        held.makeAvailable();
        r.r1 = queue.size();
    }

    @Actor
    public void waiter(IL_Result r) {
        queue.enqueue(waiter);
        r.r2 = held.state();
    }
}
