package dev.slotpool.table;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZL_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/** S1 on the state word: two borrowers CAS the same AVAILABLE slot; exactly one becomes its holder. */
@JCStressTest
@Description("Two tryBorrow on one AVAILABLE slot: exactly one wins and the slot ends BORROWED (S1).")
@Outcome(id = {"true, false, BORROWED", "false, true, BORROWED"}, expect = ACCEPTABLE, desc = "One holder.")
@Outcome(id = "true, true, BORROWED", expect = FORBIDDEN, desc = "Two holders of one connection.")
@Outcome(expect = FORBIDDEN, desc = "No holder, or the slot left BORROWED some other way.")
@State
public class TwoBorrowersOneSlot {

    private final Slot<Fixtures.Entry> slot =
            Fixtures.available(new SlotTable<>(1, Fixtures.STRICT_FIFO), new Fixtures.Entry());

    @Actor
    public void borrower1(ZZL_Result r) {
        r.r1 = slot.tryBorrow();
    }

    @Actor
    public void borrower2(ZZL_Result r) {
        r.r2 = slot.tryBorrow();
    }

    @Arbiter
    public void state(ZZL_Result r) {
        r.r3 = slot.state();
    }
}
