package dev.slotpool.table;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The waiter's item word (S1, S6): a returner hands a slot to a waiter while the waiter cancels (timeout,
 * interrupt, or a slot found on its own). Exactly one CAS wins: a slot handed over reaches the waiter, and a
 * waiter that left takes nothing with it.
 */
@JCStressTest
@Description("Waiter.tryHandOff vs Waiter.cancel: exactly one wins; a waiter that loses its cancel sees the slot.")
@Outcome(id = "true, false, true", expect = ACCEPTABLE, desc = "Handed over; the waiter finds the slot.")
@Outcome(id = "false, true, false", expect = ACCEPTABLE, desc = "The waiter left first; the returner keeps the slot.")
@Outcome(id = "true, true, .*", expect = FORBIDDEN, desc = "Handed to a waiter that left: the slot is lost.")
@Outcome(id = "true, false, false", expect = FORBIDDEN, desc = "Handed over but the waiter cannot see the slot.")
@Outcome(expect = FORBIDDEN, desc = "Neither or something else.")
@State
public class HandOffVersusCancel {

    private final Slot<Fixtures.Entry> slot =
            Fixtures.borrowed(new SlotTable<>(1, Fixtures.STRICT_FIFO), new Fixtures.Entry());
    private final WaitQueue queue = new WaitQueue();
    private final Waiter waiter = Fixtures.waiter();

    public HandOffVersusCancel() {
        queue.enqueue(waiter);
    }

    @Actor
    public void returner(ZZZ_Result r) {
        r.r1 = queue.handOffToOldest(slot);
    }

    @Actor
    public void waiter(ZZZ_Result r) {
        boolean left = waiter.cancel();
        r.r2 = left;
        r.r3 = !left && waiter.<Fixtures.Entry>handed() == slot;
        queue.leave(waiter);
    }
}
