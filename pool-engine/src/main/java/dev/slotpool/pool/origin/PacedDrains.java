package dev.slotpool.pool.origin;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.SlotState;
import dev.slotpool.pool.ground.Origin;
import dev.slotpool.pool.ground.OriginStatus;
import dev.slotpool.pool.ground.PooledConnection;
import dev.slotpool.table.SlotTable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.ObjLongConsumer;

/**
 * Paced drains and DOWN deadlines (docs/failover.md, "What each operation guarantees"): a drain reserves its
 * origin's idle connections for close at once (no borrower can take them) and closes them one by one spread over
 * its timeout; borrowed connections of an origin that is not UP are taken back at its abort deadline. Runs on
 * the housekeeper thread, and on creators under demand ({@link #closeOneDraining}).
 */
public final class PacedDrains {

    private final Origins origins;
    private final SlotTable<PooledConnection> table;
    /** Closes a connection whose slot a drain moved to CLOSING. */
    private final BiConsumer<PooledConnection, CloseReason> closeReserved;
    /** Takes a lent connection back from its holder and aborts it. */
    private final ObjLongConsumer<PooledConnection> reclaim;
    /** The latest paced drain of each origin drained so far; replaced whole (copy and CAS). */
    private final AtomicReference<Drain[]> drains = new AtomicReference<>(new Drain[0]);

    /**
     * An origin's paced drain: its idle connections, reserved for close (CLOSING) and closed one by one, close k of
     * {@link #total} due at start + (end − start) × k ÷ (total + 1) (ticker time).
     */
    private static final class Drain {
        final Origin origin;
        final ConcurrentLinkedQueue<PooledConnection> queue = new ConcurrentLinkedQueue<>();
        final long startAt;
        final long endAt;
        /** Set once the idle connections are queued. */
        volatile int total;
        final AtomicInteger closed = new AtomicInteger();

        Drain(Origin origin, long startAt, long endAt) {
            this.origin = origin;
            this.startAt = startAt;
            this.endAt = endAt;
        }
    }

    public PacedDrains(Origins origins, SlotTable<PooledConnection> table,
                BiConsumer<PooledConnection, CloseReason> closeReserved, ObjLongConsumer<PooledConnection> reclaim) {
        this.origins = origins;
        this.table = table;
        this.closeReserved = closeReserved;
        this.reclaim = reclaim;
    }

    /**
     * Reserves the origin's idle connections for close (no borrower can take them now) and schedules them, while
     * the origin's status is still {@code draining}, the one this drain set. A markUp or markDown that lands
     * meanwhile closes only what it finds queued; so once the status has changed this stops queueing and closes
     * what it queued itself, or an UP origin's idle connections would sit CLOSING until the drain's timeout.
     */
    void queueIdle(Origin o, OriginStatus draining, long now, long timeoutNanos) {
        Drain d = new Drain(o, now, now + timeoutNanos);
        publish(d);
        int[] queued = {0};
        table.visit((state, e) -> {
            if (o.status() != draining) {
                return false;
            }
            if (e.origin != o) {
                return true;
            }
            if (state == SlotState.AVAILABLE && table.tryCloseIdle(e.slot, e)) {
                d.queue.add(e);
                queued[0]++;
            } else if (state == SlotState.BORROWED) {
                e.retire(CloseReason.ORIGIN_NOT_UP);
            }
            return true;
        });
        d.total = queued[0];
        // Dekker with the status change: each queue add (volatile) precedes this volatile read, and the change's
        // CAS precedes its own poll of the queue. So a connection queued before the change is polled by it, or
        // this read sees the change; the queue's poll gives each connection to one closer only (S2).
        if (o.status() != draining) {
            close(d, CloseReason.ORIGIN_NOT_UP);
        }
    }

    /** Replaces the origin's earlier drain, if any; what it still held moves to the new one, so nothing reserved
     * is lost. Drains of forgotten origins that hold nothing are dropped (nothing can queue on them again). */
    private void publish(Drain d) {
        while (true) {
            Drain[] cur = drains.get();
            List<Drain> next = new ArrayList<>(cur.length + 1);
            Drain old = null;
            for (Drain c : cur) {
                if (c.origin == d.origin) {
                    old = c;
                } else if (!(c.origin.forgotten && c.queue.isEmpty())) {
                    next.add(c);
                }
            }
            next.add(d);
            if (drains.compareAndSet(cur, next.toArray(new Drain[0]))) {
                for (PooledConnection e; old != null && (e = old.queue.poll()) != null; ) {
                    d.queue.add(e);
                }
                return;
            }
        }
    }

    /** Paced drain closes due by now, and aborts of borrowed connections of origins past their deadline. */
    void dueWork(long now) {
        boolean abortDue = false;
        for (Drain d : drains.get()) {
            PooledConnection e;
            while (d.closed.get() < closesDue(d, now) && (e = d.queue.poll()) != null) {
                d.closed.incrementAndGet();
                closeReserved.accept(e, CloseReason.ORIGIN_NOT_UP);
            }
        }
        for (Origin o : origins.lending()) {
            abortDue |= !o.isUp() && o.occupied.get() > 0 && now - o.status().abortBorrowedAt() >= 0;
        }
        if (abortDue) {
            table.visit((state, e) -> {
                if (state != SlotState.BORROWED) {
                    return true;
                }
                long stamp = e.stamp(); // the borrow judged: a later one of this connection is not aborted for it
                OriginStatus st = e.origin.status();
                if (PooledConnection.isLent(stamp) && st.state() != OriginState.UP && now - st.abortBorrowedAt() >= 0) {
                    reclaim.accept(e, stamp);
                }
                return true;
            });
        }
    }

    /** How many of a paced drain's closes are due by now: k of n at start + span × k ÷ (n + 1). */
    private static int closesDue(Drain d, long now) {
        long span = d.endAt - d.startAt;
        if (d.queue.isEmpty() || span <= 0) {
            return d.closed.get();
        }
        double part = (double) (now - d.startAt) / span;
        return (int) Math.min(d.total, Math.floor(part * (d.total + 1)));
    }

    /** The next instant (ticker time) at which {@link #dueWork} has something to do, or far in the future. */
    public long nextDue(long now) {
        long due = now + OriginStatus.NEVER;
        for (Drain d : drains.get()) {
            if (!d.queue.isEmpty() && d.total > 0) {
                int next = d.closed.get() + 1;
                long at = d.startAt + (long) ((double) (d.endAt - d.startAt) * next / (d.total + 1));
                due = Math.min(due, at);
            }
        }
        for (Origin o : origins.lending()) {
            long abortAt = o.status().abortBorrowedAt();
            if (!o.isUp() && o.occupied.get() > 0 && abortAt - now > 0) {
                due = Math.min(due, abortAt);
            }
        }
        return due;
    }

    /** Whether a paced drain holds connections (read on a borrower's slow path only). */
    public boolean drainsQueued() {
        for (Drain d : drains.get()) {
            if (!d.queue.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Closes one connection a paced drain still holds, so a waiting borrower can get a new one elsewhere; it
     * counts as the drain's next close, so the pace goes on from there. False if none is held. */
    public boolean closeOneDraining() {
        for (Drain d : drains.get()) {
            PooledConnection e = d.queue.poll();
            if (e != null) {
                d.closed.incrementAndGet();
                closeReserved.accept(e, CloseReason.ORIGIN_NOT_UP);
                return true;
            }
        }
        return false;
    }

    /** Closes every connection paced drains still hold (pool close). */
    public void closeAll(CloseReason reason) {
        for (Drain d : drains.get()) {
            close(d, reason);
        }
    }

    /** Closes the connections the origin's paced drain still holds (DOWN or UP during a drain). */
    void close(Origin o, CloseReason reason) {
        for (Drain d : drains.get()) {
            if (d.origin == o) {
                close(d, reason);
            }
        }
    }

    private void close(Drain d, CloseReason reason) {
        for (PooledConnection e; (e = d.queue.poll()) != null; ) {
            d.closed.incrementAndGet();
            closeReserved.accept(e, reason);
        }
    }
}
