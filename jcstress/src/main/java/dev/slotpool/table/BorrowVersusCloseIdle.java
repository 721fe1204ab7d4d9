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
 * S1 and S2: a borrower and a closer (housekeeper, drain, shutdown) race for an AVAILABLE slot. Exactly one wins,
 * so a connection is never closed under a holder nor lent while being closed.
 */
@JCStressTest
@Description("tryBorrow vs tryCloseIdle on one AVAILABLE slot: exactly one wins, the state names the winner.")
@Outcome(id = "true, false, BORROWED", expect = ACCEPTABLE, desc = "The borrower won; the closer skips the slot.")
@Outcome(id = "false, true, CLOSING", expect = ACCEPTABLE, desc = "The closer won; the borrower skips the slot.")
@Outcome(id = "true, true, .*", expect = FORBIDDEN, desc = "Lent and closed at once.")
@Outcome(expect = FORBIDDEN, desc = "Nobody won, or the state disagrees with the winner.")
@State
public class BorrowVersusCloseIdle {

    private final SlotTable<Fixtures.Entry> table = new SlotTable<>(1, Fixtures.STRICT_FIFO);
    private final Fixtures.Entry entry = new Fixtures.Entry();
    private final Slot<Fixtures.Entry> slot = Fixtures.available(table, entry);

    @Actor
    public void borrower(ZZL_Result r) {
        r.r1 = slot.tryBorrow();
    }

    @Actor
    public void closer(ZZL_Result r) {
        r.r2 = table.tryCloseIdle(slot, entry);
    }

    @Arbiter
    public void state(ZZL_Result r) {
        r.r3 = slot.state();
    }
}
