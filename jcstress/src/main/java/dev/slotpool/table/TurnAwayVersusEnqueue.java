package dev.slotpool.table;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LI_Result;

import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A known outage (docs/architecture.md, "Borrow", step 4) against a borrower on its way into the queue: the owner
 * sets its condition, then {@link SlotTable#turnAwayWaiters}; the borrower's {@code onShortage}, run before it
 * enqueues and once enqueued, refuses when it sees the condition. Either the borrower sees the condition, or it is
 * turned away: it never waits for its deadline (five seconds here, far beyond any scheduling delay), and no
 * waiter is left in the queue.
 */
@JCStressTest
@Description("turnAwayWaiters vs a borrower enqueueing on a full table: refused or turned away, never left to wait.")
@Outcome(id = "refused, 0", expect = ACCEPTABLE, desc = "The borrower's onShortage saw the condition.")
@Outcome(id = "turned away, 0", expect = ACCEPTABLE, desc = "The borrower was queued before the turn-away.")
@Outcome(id = "waited for its deadline, .*", expect = FORBIDDEN, desc = "Missed both: a lost turn-away.")
@Outcome(expect = FORBIDDEN, desc = "A waiter left in the queue, or anything else.")
@State
public class TurnAwayVersusEnqueue {

    private static final RuntimeException REFUSED = new RuntimeException("refused", null, false, false) {
    };
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final SlotTable<Fixtures.Entry> table = new SlotTable<>(1, Fixtures.STRICT_FIFO);
    private final Slot<Fixtures.Entry> held = Fixtures.borrowed(table, new Fixtures.Entry());
    private final long ownerDelay = Fixtures.returnDelayNanos();
    private volatile boolean outage;

    @Actor
    public void owner() {
        Fixtures.spin(ownerDelay);
        outage = true;
        table.turnAwayWaiters();
    }

    @Actor
    public void borrower(LI_Result r) {
        long start = System.nanoTime();
        try {
            Slot<Fixtures.Entry> s = table.borrow(start + DEADLINE_NANOS, null, () -> {
                if (outage) {
                    throw REFUSED;
                }
            });
            r.r1 = s != null ? "got the held slot" : System.nanoTime() - start < DEADLINE_NANOS ? "turned away"
                    : "waited for its deadline";
        } catch (InterruptedException e) {
            r.r1 = "interrupted";
        } catch (RuntimeException e) {
            r.r1 = e == REFUSED ? "refused" : e.toString();
        }
    }

    @Arbiter
    public void after(LI_Result r) {
        r.r2 = table.waiting();
    }
}
