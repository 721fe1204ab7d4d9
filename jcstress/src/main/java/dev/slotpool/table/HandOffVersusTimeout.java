package dev.slotpool.table;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLI_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The hand-off through the table (S1, S6): the holder of the only slot returns it while a borrower whose timeout
 * has run out goes through the whole slow path (scan, revisits, enqueue, scan again, time out and cancel). The
 * connection ends with the borrower (handed over, or found by a scan) or AVAILABLE, never both and never lost to
 * a waiter that left; and no waiter is left behind in the queue.
 */
@JCStressTest
@Description("release vs borrow(timeout 0) on a one-slot table: handed or available, never both, never lost.")
@Outcome(id = "(first scan|revisit|queued), BORROWED, 0", expect = ACCEPTABLE,
        desc = "The borrower got the slot (the way it ended is the first field).")
@Outcome(id = "timed out, AVAILABLE, 0", expect = ACCEPTABLE, desc = "The borrower timed out; the slot is free.")
@Outcome(id = "timed out, BORROWED, .*", expect = FORBIDDEN, desc = "Handed to a waiter that had left: lost.")
@Outcome(id = "(first scan|revisit|queued), AVAILABLE, .*", expect = FORBIDDEN,
        desc = "Held by the borrower and free for others.")
@Outcome(expect = FORBIDDEN, desc = "A waiter left in the queue, or anything else.")
@State
public class HandOffVersusTimeout {

    private final SlotTable<Fixtures.Entry> table = new SlotTable<>(1, Fixtures.STRICT_FIFO);
    private final Slot<Fixtures.Entry> held = Fixtures.borrowed(table, new Fixtures.Entry());
    private final long returnDelay = Fixtures.returnDelayNanos();

    @Actor
    public void holder() {
        Fixtures.spin(returnDelay);
        table.release(held);
    }

    @Actor
    public void borrower(LLI_Result r) {
        r.r1 = Fixtures.borrow(table, 0, held);
    }

    @Arbiter
    public void after(LLI_Result r) {
        r.r2 = held.state();
        r.r3 = table.waiting();
    }
}
