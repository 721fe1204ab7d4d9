package dev.slotpool.slots;

import dev.slotpool.SlotState;
import dev.slotpool.table.SlotTable;

/**
 * The one answer to "is this borrow lent to a user, and which borrow is it?" for a walk over the table
 * (docs/architecture.md, "Slot states"): a {@code BORROWED} slot whose lease word is a borrow's stamp. A slot the
 * pool holds is {@code HELD}, not {@code BORROWED}; a {@code BORROWED} one whose word is not {@code LENT} is a
 * borrower still checking the connection or a holder returning it, and no timer judges it. The stamp is read
 * before the fields a visitor judges the borrow by, and every reclaim names it, so one that ended meanwhile takes
 * nothing from the connection's next holder (S1).
 */
public final class LentBorrows {

    /** No borrow a user holds: never a borrow's stamp (its state bits are not {@code LENT}'s). */
    public static final long NONE = -1;

    /** What a walk does with each lent borrow: its entry, and the stamp that names the borrow. */
    public interface Visitor {
        void visit(PooledConnection e, long stamp);
    }

    private LentBorrows() {
    }

    /** The stamp of the borrow a user holds of {@code e}, whose slot a walk saw in {@code state}; else
     * {@link #NONE}. */
    public static long stamp(SlotState state, PooledConnection e) {
        if (state != SlotState.BORROWED) {
            return NONE;
        }
        long stamp = e.stamp();
        return PooledConnection.isLent(stamp) ? stamp : NONE;
    }

    /** Visits every borrow a user holds now (racy, as {@link SlotTable#visit}). */
    public static void visit(SlotTable<PooledConnection> table, Visitor visitor) {
        table.visit((state, e) -> {
            long stamp = stamp(state, e);
            if (stamp != NONE) {
                visitor.visit(e, stamp);
            }
            return true;
        });
    }
}
