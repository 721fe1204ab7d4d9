package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.SlotState;
import dev.slotpool.table.SlotTable;

import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Paced drains and DOWN deadlines (docs/failover.md, "What each operation guarantees"): a drain reserves its
 * origin's idle connections for close at once (no borrower can take them) and closes them one by one spread over
 * its timeout; borrowed connections of an origin that is not UP are taken back at its abort deadline. Runs on
 * the housekeeper thread, and on creators under demand ({@link #closeOneDraining}).
 */
final class PacedDrains {

    private final Origins origins;
    private final SlotTable<PooledConnection> table;
    /** Closes a connection whose slot a drain moved to CLOSING. */
    private final BiConsumer<PooledConnection, CloseReason> closeReserved;
    /** Takes a lent connection back from its holder and aborts it. */
    private final Consumer<PooledConnection> reclaim;

    PacedDrains(Origins origins, SlotTable<PooledConnection> table,
                BiConsumer<PooledConnection, CloseReason> closeReserved, Consumer<PooledConnection> reclaim) {
        this.origins = origins;
        this.table = table;
        this.closeReserved = closeReserved;
        this.reclaim = reclaim;
    }

    /** Reserves the origin's idle connections for close (no borrower can take them now) and schedules them. */
    void queueIdle(Origin o, long now, long timeoutNanos) {
        o.drainStartAt = now;
        o.drainEndAt = now + timeoutNanos;
        o.drainClosed.set(0);
        int[] queued = {0};
        table.visit((state, e) -> {
            if (e.origin != o) {
                return true;
            }
            if (state == SlotState.AVAILABLE && table.tryReserveForClose(e.slot, e)) {
                o.drainQueue.add(e);
                queued[0]++;
            } else if (state == SlotState.BORROWED) {
                e.retire(CloseReason.ORIGIN_NOT_UP);
            }
            return true;
        });
        o.drainTotal = queued[0];
    }

    /** Paced drain closes due by now, and aborts of borrowed connections of origins past their deadline. */
    void dueWork(long now) {
        boolean abortDue = false;
        for (Origin o : origins.all()) {
            PooledConnection e;
            while (o.drainClosed.get() < closesDue(o, now) && (e = o.drainQueue.poll()) != null) {
                o.drainClosed.incrementAndGet();
                closeReserved.accept(e, CloseReason.ORIGIN_NOT_UP);
            }
            abortDue |= !o.isUp() && o.occupied.get() > 0 && now - o.status().abortBorrowedAt() >= 0;
        }
        if (abortDue) {
            table.visit((state, e) -> {
                OriginStatus st = e.origin.status();
                if (state == SlotState.BORROWED && e.lent() && st.state() != OriginState.UP
                        && now - st.abortBorrowedAt() >= 0) {
                    reclaim.accept(e);
                }
                return true;
            });
        }
    }

    /** How many of a paced drain's closes are due by now: k of n at start + span × k ÷ (n + 1). */
    private static int closesDue(Origin o, long now) {
        long span = o.drainEndAt - o.drainStartAt;
        if (o.drainQueue.isEmpty() || span <= 0) {
            return o.drainClosed.get();
        }
        double part = (double) (now - o.drainStartAt) / span;
        return (int) Math.min(o.drainTotal, Math.floor(part * (o.drainTotal + 1)));
    }

    /** The next instant (ticker time) at which {@link #dueWork} has something to do, or far in the future. */
    long nextDue(long now) {
        long due = now + Creator.NEVER;
        for (Origin o : origins.all()) {
            if (!o.drainQueue.isEmpty() && o.drainTotal > 0) {
                int next = o.drainClosed.get() + 1;
                long at = o.drainStartAt + (long) ((double) (o.drainEndAt - o.drainStartAt) * next / (o.drainTotal + 1));
                due = Math.min(due, at);
            }
            long abortAt = o.status().abortBorrowedAt();
            if (!o.isUp() && o.occupied.get() > 0 && abortAt - now > 0) {
                due = Math.min(due, abortAt);
            }
        }
        return due;
    }

    /** Whether a paced drain holds connections (read on a borrower's slow path only). */
    boolean drainsQueued() {
        for (Origin o : origins.all()) {
            if (!o.drainQueue.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Closes one connection a paced drain still holds, so a waiting borrower can get a new one elsewhere. */
    boolean closeOneDraining() {
        for (Origin o : origins.all()) {
            PooledConnection e = o.drainQueue.poll();
            if (e != null) {
                o.drainClosed.incrementAndGet();
                closeReserved.accept(e, CloseReason.ORIGIN_NOT_UP);
                return true;
            }
        }
        return false;
    }

    /** Closes every connection paced drains still hold (pool close). */
    void closeAll(CloseReason reason) {
        for (Origin o : origins.all()) {
            close(o, reason);
        }
    }

    /** Closes the connections the origin's paced drain still holds (DOWN or UP during a drain). */
    void close(Origin o, CloseReason reason) {
        PooledConnection e;
        while ((e = o.drainQueue.poll()) != null) {
            o.drainClosed.incrementAndGet();
            closeReserved.accept(e, reason);
        }
    }
}
