package dev.slotpool.failover;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.SlotState;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.OriginStatus;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.table.SlotTable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Paced drains (docs/failover.md, "What each operation guarantees"): a drain reserves its origin's idle
 * connections for close at once (no borrower can take them) and closes them one by one spread over its timeout.
 * An idle connection of the origin met first by someone else (a borrower's check, a housekeeping visit, the
 * keepalive) joins the drain the same way ({@link #closeOwned}, {@link #closeIfIdle}): whoever meets it, it closes
 * on the drain's pace. What is still borrowed at the drain's timeout is {@link AbortDeadlines}'. Runs on the
 * housekeeper thread, and on creators under demand ({@link #closeOneDraining}).
 */
public final class PacedDrains {

    private final SlotTable<PooledConnection> table;
    /** Closes a connection whose slot a drain moved to CLOSING. */
    private final Closing closing;
    /** The paced drains that may still hold connections, each found by its origin's draining status; replaced
     * whole (copy and CAS). */
    private final AtomicReference<Drain[]> drains = new AtomicReference<>(new Drain[0]);

    /**
     * An origin's paced drain, the one its status {@link #status} names: its idle connections, reserved for close
     * (CLOSING) and closed one by one, close k of {@link #total} due at start + (end − start) × k ÷ (total + 1)
     * (ticker time).
     */
    private static final class Drain {
        final Origin origin;
        /** The draining status this drain belongs to: only while the origin has it do connections join. */
        final OriginStatus status;
        final ConcurrentLinkedQueue<PooledConnection> queue = new ConcurrentLinkedQueue<>();
        final long startAt;
        final long endAt;
        /** How many connections joined the queue. */
        final AtomicInteger total = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        /** False while the drain's status change is still to come: such a drain is not dropped as stale. */
        volatile boolean settled;

        Drain(Origin origin, OriginStatus status, long startAt, long endAt) {
            this.origin = origin;
            this.status = status;
            this.startAt = startAt;
            this.endAt = endAt;
        }

        /** Neither holding a connection nor able to take one: its origin has left its status. */
        boolean stale() {
            return settled && queue.isEmpty() && origin.status() != status;
        }
    }

    PacedDrains(SlotTable<PooledConnection> table, Closing closing) {
        this.table = table;
        this.closing = closing;
    }

    /**
     * Publishes the paced drain the status {@code draining} will name, before the status change: whoever sees the
     * origin DRAINING finds the drain and leaves it the connections it meets idle, from the change's first
     * instant (a borrower's scan, or a listener of the change itself, may meet them before {@link #queueIdle}).
     * The caller then changes the status and calls {@link #queueIdle}, or {@link #withdraw} if its change lost.
     */
    void prepare(Origin o, OriginStatus draining, long now, long timeoutNanos) {
        Drain d = new Drain(o, draining, now, now + timeoutNanos);
        while (true) {
            Drain[] cur = drains.get();
            List<Drain> next = new ArrayList<>(cur.length + 1);
            for (Drain c : cur) {
                if (!c.stale()) {
                    next.add(c);
                }
            }
            next.add(d);
            if (drains.compareAndSet(cur, next.toArray(new Drain[0]))) {
                return;
            }
        }
    }

    /** Drops the drain {@link #prepare} published for a status change that lost: no connection can have joined it,
     * since its origin never had its status. */
    void withdraw(OriginStatus draining) {
        while (true) {
            Drain[] cur = drains.get();
            List<Drain> next = new ArrayList<>(cur.length);
            for (Drain c : cur) {
                if (c.status != draining) {
                    next.add(c);
                }
            }
            if (drains.compareAndSet(cur, next.toArray(new Drain[0]))) {
                return;
            }
        }
    }

    /**
     * Reserves the origin's idle connections for close (no borrower can take them now) into the drain
     * {@link #prepare} published, while the origin's status is still {@code draining}, the one this drain set. A
     * markUp or markDown that lands meanwhile closes only what it finds queued; so once the status has changed this
     * stops queueing and closes what it queued itself, or an UP origin's idle connections would sit CLOSING until
     * the drain's timeout.
     */
    void queueIdle(Origin o, OriginStatus draining) {
        Drain d = find(o, draining);
        d.settled = true;
        table.visit((state, e) -> {
            if (o.status() != draining) {
                return false;
            }
            if (e.origin != o) {
                return true;
            }
            if (state == SlotState.AVAILABLE && table.tryCloseIdle(e.slot, e)) {
                join(d, e);
            } else if (state == SlotState.BORROWED) {
                e.retire(CloseReason.ORIGIN_NOT_UP);
            }
            return true;
        });
        // Dekker with the status change: each queue add (volatile) precedes this volatile read, and the change's
        // CAS precedes its own poll of the queue. So a connection queued before the change is polled by it, or
        // this read sees the change; the queue's poll gives each connection to one closer only (S2).
        if (o.status() != draining) {
            close(d, CloseReason.ORIGIN_NOT_UP);
        }
    }

    /**
     * Closes a connection of an origin that is not UP which this thread owns and met idle (a borrower's check
     * after its CAS, the keepalive's hold), never lent since: if the origin is on a paced drain, the connection
     * joins it and closes on the drain's pace; otherwise it closes now.
     */
    public void closeOwned(PooledConnection e) {
        table.closeOwned(e.slot);
        reserved(e);
    }

    /** {@link #closeOwned} for an idle connection, if this thread wins it from borrowers (AVAILABLE → CLOSING,
     * entry-checked); false if it did not. */
    public boolean closeIfIdle(PooledConnection e) {
        if (!table.tryCloseIdle(e.slot, e)) {
            return false;
        }
        reserved(e);
        return true;
    }

    /** A connection of an origin that is not UP whose slot this thread moved to CLOSING: to its drain, if the
     * origin's status names one, else closed now. */
    private void reserved(PooledConnection e) {
        Origin o = e.origin;
        OriginStatus st = o.status();
        Drain d = st.state() == OriginState.DRAINING ? find(o, st) : null;
        if (d == null) {
            closing.closeReserved(e, CloseReason.ORIGIN_NOT_UP);
            return;
        }
        join(d, e);
        // Dekker with the status change, as in queueIdle: this add precedes the read below, the change's CAS its
        // poll of the drain's queue; whichever comes second closes the connection.
        if (o.status() != st) {
            close(d, CloseReason.ORIGIN_NOT_UP);
        }
    }

    private static void join(Drain d, PooledConnection e) {
        d.total.incrementAndGet();
        d.queue.add(e);
    }

    /** The drain the status names (null if none: a drain with no timeout, or one not prepared by this class). */
    private Drain find(Origin o, OriginStatus status) {
        for (Drain d : drains.get()) {
            if (d.origin == o && d.status == status) {
                return d;
            }
        }
        return null;
    }

    /** Paced drain closes due by now. */
    void dueWork(long now) {
        for (Drain d : drains.get()) {
            PooledConnection e;
            while (d.closed.get() < closesDue(d, now) && (e = d.queue.poll()) != null) {
                d.closed.incrementAndGet();
                closing.closeReserved(e, CloseReason.ORIGIN_NOT_UP);
            }
        }
    }

    /** How many of a paced drain's closes are due by now: k of n at start + span × k ÷ (n + 1). */
    private static int closesDue(Drain d, long now) {
        long span = d.endAt - d.startAt;
        if (d.queue.isEmpty() || span <= 0) {
            return d.closed.get();
        }
        double part = (double) (now - d.startAt) / span;
        int total = d.total.get();
        return (int) Math.min(total, Math.floor(part * (total + 1)));
    }

    /** The next instant (ticker time) at which {@link #dueWork} has something to do, or far in the future. */
    long nextDue(long now) {
        long due = now + OriginStatus.NEVER;
        for (Drain d : drains.get()) {
            int total = d.total.get();
            if (!d.queue.isEmpty() && total > 0) {
                int next = d.closed.get() + 1;
                long at = d.startAt + (long) ((double) (d.endAt - d.startAt) * next / (total + 1));
                due = Math.min(due, at);
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
                closing.closeReserved(e, CloseReason.ORIGIN_NOT_UP);
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
            closing.closeReserved(e, reason);
        }
    }
}
