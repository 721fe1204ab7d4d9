package dev.slotpool.table;

import dev.slotpool.SlotState;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * S1 and S5 in a busy table: slot 0 is held by the first thread, slot 1 is AVAILABLE. The holder returns slot 0
 * and borrows again at once (a request loop) while a second thread scans. At most one owner per slot; the
 * returner always gets a slot, since the other thread can take only one of the two; and the number of
 * BORROWED slots afterwards equals the number of borrows that succeeded (no slot lost, none taken twice).
 */
@JCStressTest
@Description("release then borrow vs borrow on two slots: distinct owners, the returner always served, nothing lost.")
@Outcome(id = {"0, 1, 2", "1, 0, 2"}, expect = ACCEPTABLE, desc = "Each thread holds its own slot.")
@Outcome(id = {"0, -1, 1", "1, -1, 1"}, expect = ACCEPTABLE,
        desc = "The scanner passed slot 0 while it was held and reached slot 1 after the returner took it.")
@Outcome(id = {"0, 0, .*", "1, 1, .*"}, expect = FORBIDDEN, desc = "Two owners of one slot.")
@Outcome(expect = FORBIDDEN, desc = "The returner got nothing, or a slot was lost.")
@State
public class ReturnAndBorrowVersusBorrow {

    private final SlotTable<Fixtures.Entry> table = new SlotTable<>(2, Fixtures.STRICT_FIFO);
    private final Slot<Fixtures.Entry> held = Fixtures.borrowed(table, new Fixtures.Entry());

    public ReturnAndBorrowVersusBorrow() {
        Fixtures.available(table, new Fixtures.Entry());
    }

    @Actor
    public void returner(III_Result r) {
        table.release(held);
        r.r1 = indexOf(table.tryBorrow(null));
    }

    @Actor
    public void borrower(III_Result r) {
        r.r2 = indexOf(table.tryBorrow(null));
    }

    @Arbiter
    public void borrowedSlots(III_Result r) {
        int n = 0;
        for (int i = 0; i < table.capacity(); i++) {
            if (table.slot(i).state() == SlotState.BORROWED) {
                n++;
            }
        }
        r.r3 = n;
    }

    private static int indexOf(Slot<?> s) {
        return s == null ? -1 : s.index();
    }
}
