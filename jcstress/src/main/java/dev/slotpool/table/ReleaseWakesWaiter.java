package dev.slotpool.table;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLI_Result;

import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * No lost wake-up (S6, the Dekker pair in the package doc): a borrower that finds the only slot busy enqueues and
 * parks while its holder returns it. Whatever the interleaving (return before the borrower's first scan, between
 * its scans, between its enqueue and its park, or after), the borrower gets the slot: by its own scan, by
 * hand-off, or by a signal and a scan. A wake-up lost between {@code release}'s store of AVAILABLE and its look
 * at the queue, against the borrower's enqueue and its look at the table, would leave the borrower parked until
 * its timeout with the slot AVAILABLE.
 *
 * <p>The timeout is only the bound of a failure: a correct run returns as soon as the holder has returned the
 * slot, which it does right away, so {@link #TIMEOUT_SECONDS} is far beyond any descheduling of the holder on a
 * loaded machine.
 */
@JCStressTest
@Description("release vs a borrower that parks: the borrower always gets the slot, no waiter is left behind.")
@Outcome(id = "(first scan|revisit|queued), BORROWED, 0", expect = ACCEPTABLE,
        desc = "The borrower got the slot (the way it ended is the first field).")
@Outcome(id = "timed out, AVAILABLE, .*", expect = FORBIDDEN, desc = "Lost wake-up: timed out beside a free slot.")
@Outcome(expect = FORBIDDEN, desc = "Anything else.")
@State
public class ReleaseWakesWaiter {

    private static final long TIMEOUT_SECONDS = 10;

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
        r.r1 = Fixtures.borrow(table, TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS), held);
    }

    @Arbiter
    public void after(LLI_Result r) {
        r.r2 = held.state();
        r.r3 = table.waiting();
    }
}
