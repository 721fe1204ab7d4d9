package dev.slotpool.slots;

import dev.slotpool.origins.Origin;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pool's room (S3) and its connection counts (S2), kept in one place: every claim of room for a connection
 * being opened, its release when the attempt gives nothing, the move of a connection's count to the discovered
 * origin it landed on, and its release when the connection is closed; and the room of the sessions the pool holds
 * for itself (a role watch's, a switchover's), which are neither being created nor in the table. The origins' own
 * counts ({@link Origin#occupied}, {@link Origin#creating}) are written here only.
 *
 * <p>The pool-wide count is claimed last and by CAS from the value the planner read, so two creators that planned
 * on the same count cannot both take the last place; the table's capacity stays the hard bound behind it.
 */
public final class Capacity {

    private final int maxSize;
    /** Live connections plus those being opened, pool-wide. */
    private final AtomicInteger occupied = new AtomicInteger();
    /** Connections being opened now. */
    private final AtomicInteger creating = new AtomicInteger();
    /** The pool's own sessions (a role watch's, a switchover's): counted in {@link #occupied}, so they take room
     * (S3), but they serve no borrow and are never being created. */
    private final AtomicInteger sessions = new AtomicInteger();
    /** Connections retired by a rebalance step, or closed early from a paced drain for a waiting borrower, that
     * the creators still owe to under-share (surviving) origins. */
    private final AtomicInteger replacements = new AtomicInteger();
    /** Physical connections opened and closed since the start: their difference is the live ones (S2). */
    private final AtomicLong opened = new AtomicLong();
    private final AtomicLong closed = new AtomicLong();

    public Capacity(int maxSize) {
        this.maxSize = maxSize;
    }

    public int maxSize() {
        return maxSize;
    }

    public int occupied() {
        return occupied.get();
    }

    public int creating() {
        return creating.get();
    }

    /** The pool's own sessions open or being opened now. */
    public int sessions() {
        return sessions.get();
    }

    public long opened() {
        return opened.get();
    }

    public long closed() {
        return closed.get();
    }

    public boolean hasRoom() {
        return occupied.get() < maxSize;
    }

    /**
     * Claims room for one connection being opened on {@code o}: the origin's cap by CAS first, then the pool's
     * place from {@code seenOccupied}, the count the caller planned on (two creators that chose the same origin at
     * its last free place cannot both pass its cap), and counts it as being created. False if either moved.
     */
    public boolean claim(Origin o, int seenOccupied) {
        if (seenOccupied >= maxSize || !claimUnderCap(o)) {
            return false;
        }
        if (!occupied.compareAndSet(seenOccupied, seenOccupied + 1)) {
            o.occupied.decrementAndGet();
            return false;
        }
        o.creating.incrementAndGet();
        creating.incrementAndGet();
        return true;
    }

    /** Takes one place under the origin's cap (CAS), or returns false when the origin is full. */
    private boolean claimUnderCap(Origin o) {
        int cap = o.cap(maxSize);
        for (int n = o.occupied.get(); n < cap; n = o.occupied.get()) {
            if (o.occupied.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }

    /** {@link #claim} from the current count: false when the pool is full. */
    public boolean claimIfRoom(Origin o) {
        return claim(o, occupied.get());
    }

    /**
     * Claims room for one of the pool's own sessions to {@code o} (a role watch's, a switchover's): a place under
     * the origin's cap and in the pool, as a connection's, but not a creation. False when either is full.
     */
    public boolean claimSession(Origin o) {
        if (!claimUnderCap(o)) {
            return false;
        }
        for (int n = occupied.get(); n < maxSize; n = occupied.get()) {
            if (occupied.compareAndSet(n, n + 1)) {
                sessions.incrementAndGet();
                return true;
            }
        }
        o.occupied.decrementAndGet();
        return false;
    }

    /** Gives back a session's room ({@link #claimSession}): it closed, or never opened. */
    public void releaseSession(Origin o) {
        sessions.decrementAndGet();
        o.occupied.decrementAndGet();
        occupied.decrementAndGet();
    }

    /** The connection claimed for {@code o} was published or handed to be closed: no longer being created. */
    public void doneCreating(Origin o) {
        o.creating.decrementAndGet();
        creating.decrementAndGet();
    }

    /** Undoes a claim whose attempt opened nothing that stays. */
    public void unclaim(Origin o) {
        doneCreating(o);
        o.occupied.decrementAndGet();
        occupied.decrementAndGet();
    }

    /** A connection was opened. */
    public void countOpened() {
        opened.incrementAndGet();
    }

    /** A connection was opened and closed at once (a probe's, or one given up on before it was published). */
    public void countOpenedAndClosed() {
        opened.incrementAndGet();
        closed.incrementAndGet();
    }

    /** A connection opened through a discovery group's URL landed on {@code landed}: the group's count already
     * holds it, and the origin it belongs to counts it from now. */
    public void landed(Origin group, Origin landed) {
        if (landed != group) {
            landed.occupied.incrementAndGet();
        }
    }

    /** A connection of {@code o} was closed: its room is free again, in its origin, its group and the pool. */
    public void closed(Origin o) {
        o.occupied.decrementAndGet();
        if (o.parent != null) {
            o.parent.occupied.decrementAndGet();
        }
        occupied.decrementAndGet();
        closed.incrementAndGet();
    }

    /** A rebalance step retired a connection (or a paced drain closed one early) whose place an under-share
     * origin is owed. */
    public void oweReplacement() {
        replacements.incrementAndGet();
    }

    public int replacementsOwed() {
        return replacements.get();
    }

    /** One owed replacement is no longer owed: a creation made it (whichever rule asked for the creation), or the
     * retirement it was owed for did not happen. */
    public void replacementSettled() {
        if (replacements.get() > 0) {
            replacements.updateAndGet(r -> Math.max(0, r - 1));
        }
    }
}
