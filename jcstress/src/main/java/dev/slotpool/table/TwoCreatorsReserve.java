package dev.slotpool.table;

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
 * S3: two creators reserve in an empty two-slot table. Each gets its own slot (the loser of the CAS on slot 0
 * moves on to slot 1), and the high-water mark that bounds every scan ends above both: a slot reserved below it
 * would be invisible to borrowers and its connection lost.
 */
@JCStressTest
@Description("Two reserve() in an empty two-slot table: distinct slots, and the scan bound covers both.")
@Outcome(id = {"0, 1, 2", "1, 0, 2"}, expect = ACCEPTABLE, desc = "One slot each; scans see both.")
@Outcome(id = {"0, 0, .*", "1, 1, .*"}, expect = FORBIDDEN, desc = "Two creators opening into one slot.")
@Outcome(expect = FORBIDDEN, desc = "A creator found no slot, or the scan bound misses one.")
@State
public class TwoCreatorsReserve {

    private final SlotTable<Fixtures.Entry> table = new SlotTable<>(2, Fixtures.STRICT_FIFO);

    @Actor
    public void creator1(III_Result r) {
        r.r1 = indexOf(table.reserve());
    }

    @Actor
    public void creator2(III_Result r) {
        r.r2 = indexOf(table.reserve());
    }

    @Arbiter
    public void highWater(III_Result r) {
        r.r3 = table.highWater();
    }

    private static int indexOf(Slot<?> s) {
        return s == null ? -1 : s.index();
    }
}
