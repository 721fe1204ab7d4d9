package dev.slotpool.table;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZI_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Who unlinks a waiter's node: the returner that handed it a slot, or the waiter that cancelled. Whichever wins
 * the item CAS, while the other side races it, the node is unlinked exactly once: none is left in the queue
 * (a leak, and a dead node every later hand-off walks past) and the waiter count goes back to zero.
 */
@JCStressTest
@Description("WaitQueue.handOffToOldest vs Waiter.cancel + WaitQueue.leave: the node is unlinked once, by the CAS winner.")
@Outcome(id = "true, false, 0", expect = ACCEPTABLE, desc = "Handed over; the returner unlinked the node.")
@Outcome(id = "false, true, 0", expect = ACCEPTABLE, desc = "The waiter left first and unlinked its node.")
@Outcome(id = ".*, .*, [1-9].*", expect = FORBIDDEN, desc = "A node or a count left behind.")
@Outcome(expect = FORBIDDEN, desc = "Both or neither won the item CAS.")
@State
public class HandOffVersusLeave {

    private final Slot<Fixtures.Entry> slot =
            Fixtures.borrowed(new SlotTable<>(1, Fixtures.STRICT_FIFO), new Fixtures.Entry());
    private final WaitQueue queue = new WaitQueue();
    private final Waiter waiter = Fixtures.waiter();

    public HandOffVersusLeave() {
        queue.enqueue(waiter);
    }

    @Actor
    public void returner(ZZI_Result r) {
        r.r1 = queue.handOffToOldest(slot);
    }

    @Actor
    public void waiter(ZZI_Result r) {
        r.r2 = waiter.cancel();
        queue.leave(waiter);
    }

    @Arbiter
    public void left(ZZI_Result r) {
        r.r3 = queue.linked() + queue.size();
    }
}
