package dev.slotpool.failover;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.OriginStatus;
import dev.slotpool.origins.Origins;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.LentBorrows;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.table.SlotTable;

/**
 * The abort deadlines of origins that are not UP (docs/failover.md, "What each operation guarantees"): a drain's
 * timeout, a markDown's {@code downGracePeriod}, a suspension's timeout, each the {@link OriginStatus#abortBorrowedAt}
 * its change set. Connections still borrowed from such an origin at its deadline are taken back and aborted. Runs on
 * the housekeeper thread, through {@link OriginOperations#dueWork}.
 */
final class AbortDeadlines {

    private final Origins origins;
    private final SlotTable<PooledConnection> table;
    private final Closing closing;

    AbortDeadlines(Origins origins, SlotTable<PooledConnection> table, Closing closing) {
        this.origins = origins;
        this.table = table;
        this.closing = closing;
    }

    /** Takes back the borrowed connections of origins past their abort deadline. */
    void abortDue(long now) {
        boolean abortDue = false;
        for (Origin o : origins.lending()) {
            abortDue |= !o.isUp() && o.occupied.get() > 0 && now - o.status().abortBorrowedAt() >= 0;
        }
        if (!abortDue) {
            return;
        }
        LentBorrows.visit(table, (e, stamp) -> {
            OriginStatus st = e.origin.status();
            if (st.state() != OriginState.UP && now - st.abortBorrowedAt() >= 0) {
                closing.reclaim(e, stamp, CloseReason.ORIGIN_NOT_UP);
            }
        });
    }

    /** The next abort deadline still ahead (ticker time) of an origin with connections, or far in the future. */
    long nextDue(long now) {
        long due = now + OriginStatus.NEVER;
        for (Origin o : origins.lending()) {
            long abortAt = o.status().abortBorrowedAt();
            if (!o.isUp() && o.occupied.get() > 0 && abortAt - now > 0) {
                due = Math.min(due, abortAt);
            }
        }
        return due;
    }
}
