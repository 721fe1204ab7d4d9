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

/**
 * S2 and S3: a closer (housekeeper, drain, keepalive) that chose connection A races with a borrower that takes A,
 * closes it, and refills the slot with a new connection B. The closer may close only A: if its CAS lands on the
 * refilled slot, it must see B and give the slot back, or B would be closed as if it were A (left open in the
 * driver, and the pool's counts dropped twice).
 */
@JCStressTest
@Description("An entry-checked close of A vs A closed and its slot refilled with B: only A is ever closed.")
@Outcome(id = "true, false, A CLOSING", expect = ACCEPTABLE, desc = "The closer won A; the refill did not happen.")
@Outcome(id = "false, true, B AVAILABLE", expect = ACCEPTABLE, desc = "A was recycled first; B stays available.")
@Outcome(id = "true, true, B CLOSING", expect = FORBIDDEN, desc = "ABA: B was taken for close as if it were A.")
@Outcome(expect = FORBIDDEN, desc = "Any other end state.")
@State
public class CloseVersusRefill {

    private final Fixtures.Entry a = new Fixtures.Entry();
    private final Fixtures.Entry b = new Fixtures.Entry();
    private final SlotTable<Fixtures.Entry> table = new SlotTable<>(1, Fixtures.STRICT_FIFO);
    private final Slot<Fixtures.Entry> slot = Fixtures.available(table, a);

    @Actor
    public void closer(ZZL_Result r) {
        r.r1 = table.tryCloseIdle(slot, a);
    }

    @Actor
    public void recycler(ZZL_Result r) {
        if (slot.tryBorrow()) {
            slot.closeOwned();
            slot.empty();
            Slot<Fixtures.Entry> again = table.reserve();
            table.publish(again, b);
            r.r2 = true;
        }
    }

    @Arbiter
    public void state(ZZL_Result r) {
        r.r3 = (slot.entry() == a ? "A " : slot.entry() == b ? "B " : "- ") + slot.state();
    }
}
