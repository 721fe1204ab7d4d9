package dev.slotpool.table;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The creator's release: a creator builds an entry in a RESERVED slot and publishes it while a borrower CASes
 * the slot. A borrower that wins must see the whole entry (the plain writes before the volatile store of
 * AVAILABLE), never a null or half-built one: what the plain {@code entry} field's comment in {@link Slot}
 * relies on.
 */
@JCStressTest
@Description("publish vs tryBorrow: a borrower that wins the slot sees the entry and every write made before publish.")
@Outcome(id = "0, -1", expect = ACCEPTABLE, desc = "The borrower came before the publish and skipped the slot.")
@Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "The borrower won and sees the fully built entry.")
@Outcome(id = "1, -2", expect = FORBIDDEN, desc = "Won the slot but saw no entry.")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "Won the slot but saw the entry before the creator's write.")
@Outcome(expect = FORBIDDEN, desc = "Anything else.")
@State
public class PublishVersusBorrow {

    private static final int SERIAL = 42;

    private final SlotTable<Fixtures.Entry> table = new SlotTable<>(1, Fixtures.STRICT_FIFO);
    private final Slot<Fixtures.Entry> reserved = table.reserve();

    @Actor
    public void creator() {
        Fixtures.Entry e = new Fixtures.Entry();
        e.serial = SERIAL;
        table.publish(reserved, e);
    }

    @Actor
    public void borrower(II_Result r) {
        // The slot's own CAS rather than the table's scan: the scan skips a null entry, which would hide an entry
        // published after its state.
        if (reserved.tryBorrow()) {
            Fixtures.Entry e = reserved.entry();
            r.r1 = 1;
            r.r2 = e == null ? -2 : e.serial;
        } else {
            r.r1 = 0;
            r.r2 = -1;
        }
    }
}
