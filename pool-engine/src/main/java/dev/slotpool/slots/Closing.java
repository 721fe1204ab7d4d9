package dev.slotpool.slots;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolEvent;
import dev.slotpool.kernel.Events;
import dev.slotpool.kernel.StackTexts;
import dev.slotpool.table.SlotTable;

import java.sql.SQLException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Takes connections out of the pool (docs/architecture.md, "Closing"): whoever decides that a connection must go
 * owns its slot in CLOSING, by one of the entry-checked transitions below, and hands it to the {@link Closer}.
 * Once the driver is done the slot is emptied and its room released ({@link Capacity}), then the pool is told
 * ({@link Signals#closed}). S2: every connection opened is closed exactly once, because only the owner of a CLOSING
 * slot gets to {@link #finish}.
 */
public final class Closing {

    private final SlotTable<PooledConnection> table;
    private final Closer closer;
    private final Capacity capacity;
    private final Events events;
    private final Signals signals;
    /** Bumped before and after a closed connection's borrows move to its origin's count (see {@code Snapshots}). */
    private final AtomicLong retiring = new AtomicLong();

    public Closing(SlotTable<PooledConnection> table, Closer closer, Capacity capacity, Events events,
            Signals signals) {
        this.table = table;
        this.closer = closer;
        this.capacity = capacity;
        this.events = events;
        this.signals = signals;
    }

    /** Closes the connection of a slot this thread owns (BORROWED, won by CAS, lease or hand-off; or HELD). */
    public void closeOwned(PooledConnection e, CloseReason reason, boolean abort) {
        table.closeOwned(e.slot);
        finish(e, reason, abort);
    }

    /** Closes an idle connection if this thread wins it from borrowers (AVAILABLE → CLOSING, entry-checked). */
    public boolean closeIfIdle(PooledConnection e, CloseReason reason) {
        if (!table.tryCloseIdle(e.slot, e)) {
            return false;
        }
        finish(e, reason, false);
        return true;
    }

    /** Closes a connection whose slot this thread already moved to CLOSING (a paced drain's queue). */
    public void closeReserved(PooledConnection e, CloseReason reason) {
        finish(e, reason, false);
    }

    /**
     * Takes the borrow {@code stamp} back from its holder (CAS on the lease, S1) and aborts its connection.
     * {@code stamp} is the one the caller judged (read before the fields it decided by): if that borrow has ended,
     * nothing happens, even if the connection has been lent again since. The holder and stack reported are read
     * after the CAS won, so they are that borrow's (no one else can lend the entry again).
     */
    public boolean reclaim(PooledConnection e, long stamp, CloseReason reason) {
        if (!e.tryReclaim(stamp)) {
            return false;
        }
        Thread holder = e.holder;
        Throwable stack = e.borrowStack;
        closeOwned(e, reason, true);
        if (reason == CloseReason.ABANDONED || reason == CloseReason.TIME_TO_LIVE) {
            events.emit(PoolEvent.Type.LEAK, e.origin.name, reason, "connection held by thread '"
                    + (holder == null ? "?" : holder.getName()) + "' taken back (" + reason + ")"
                    + (stack == null ? "" : "; borrowed at:\n" + StackTexts.of(stack)));
        }
        return true;
    }

    /**
     * The borrow was ended by {@code Connection.abort} (the lease CAS made this thread the slot's owner): the
     * physical connection is aborted through the caller's executor, then closed. Not counted toward DOWN: the
     * holder chose it.
     */
    public void abortedByHolder(PooledConnection e, Executor executor) {
        e.broken = new SQLException("aborted by holder");
        try {
            e.physical.abort(executor);
        } catch (Throwable ex) {
            // The connection is closed below either way.
        }
        closeOwned(e, CloseReason.BROKEN, false);
    }

    /** Odd while a closed connection's borrows are moving from its slot to its origin's count. */
    public long retiring() {
        return retiring.get();
    }

    /** The {@link Closer} closes it off this thread; the slot stays CLOSING, and its room taken (S3), until the
     * driver is done. Whatever the driver throws (an {@code Error} included), the slot is emptied and the counts
     * released. */
    private void finish(PooledConnection e, CloseReason reason, boolean abort) {
        closer.close(e.physical, abort, () -> closed(e, reason));
    }

    /** After the physical close, on the closer's thread: the slot and its room are free again (S2, S3). */
    private void closed(PooledConnection e, CloseReason reason) {
        // The connection's borrows move from its slot to its origin's count: odd while they are in neither or
        // both, so a snapshot taken meanwhile counts them once (it looks again).
        retiring.incrementAndGet();
        table.empty(e.slot);
        e.origin.closed.add(e.borrowCount, e.statementCache);
        retiring.incrementAndGet();
        capacity.closed(e.origin);
        if (reason == CloseReason.BROKEN || reason == CloseReason.VALIDATION_FAILED) {
            e.origin.load.brokenClose();
        }
        events.emit(PoolEvent.Type.CLOSED, e.origin.name, reason, "slot " + e.slot.index());
        signals.closed(e, reason);
    }
}
