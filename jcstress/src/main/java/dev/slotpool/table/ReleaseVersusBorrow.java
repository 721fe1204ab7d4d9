package dev.slotpool.table;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIL_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * S1 across a return: the holder writes to its entry (as {@code ProxyConnection.close} resets what it changed),
 * then releases it through the table while a borrower scans. The next holder sees every write of the previous
 * one, and the slot is either borrowed by the scanner or back to AVAILABLE, never held by both.
 */
@JCStressTest
@Description("release vs the table's borrow scan: the next holder sees the previous holder's writes; nothing lost.")
@Outcome(id = "0, -1, AVAILABLE", expect = ACCEPTABLE, desc = "The scan came before the release; the slot is free.")
@Outcome(id = "1, 7, BORROWED", expect = ACCEPTABLE, desc = "The scan took the released slot and sees the holder's write.")
@Outcome(id = "1, 0, BORROWED", expect = FORBIDDEN, desc = "The new holder missed the previous holder's write.")
@Outcome(expect = FORBIDDEN, desc = "Taken while still held, or lost.")
@State
public class ReleaseVersusBorrow {

    private static final int HOLDER = 7;

    private final SlotTable<Fixtures.Entry> table = new SlotTable<>(1, Fixtures.STRICT_FIFO);
    private final Slot<Fixtures.Entry> held = Fixtures.borrowed(table, new Fixtures.Entry());

    @Actor
    public void holder() {
        held.entry().lastHolder = HOLDER;
        table.release(held);
    }

    @Actor
    public void borrower(IIL_Result r) {
        Slot<Fixtures.Entry> s = table.tryBorrow(null);
        if (s != null) {
            r.r1 = 1;
            r.r2 = s.entry().lastHolder;
        } else {
            r.r1 = 0;
            r.r2 = -1;
        }
    }

    @Arbiter
    public void state(IIL_Result r) {
        r.r3 = held.state();
    }
}
