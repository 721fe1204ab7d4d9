package dev.slotpool.table;

import dev.slotpool.SlotState;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One slot of the table: at most one entry (a physical connection and what the pool knows of it) and one state
 * word that changes only by the transitions below.
 *
 * <pre>
 *  from        to          method                      by
 *  EMPTY     → RESERVED    {@link #tryReserve()}              a creator (CAS; the loser tries another slot)
 *  RESERVED  → AVAILABLE   {@link #publish(Object)}           that creator, once the connection is open
 *  RESERVED  → BORROWED    {@link #publishBorrowed(Object)}   that creator, handing the new connection to a waiter
 *  RESERVED  → HELD        {@link #publishHeld(Object)}       that creator, keeping the new connection to close it
 *  RESERVED  → EMPTY       {@link #cancelReservation()}       that creator, when opening failed
 *  AVAILABLE → BORROWED    {@link #tryBorrow()}               a borrower (CAS; the loser skips the slot, S5)
 *  AVAILABLE → HELD        {@link #tryHold()}                 the pool itself: keepalive, housekeeper, drain, close
 *                                                             (CAS, through {@link SlotTable#tryHold(Slot, Object)},
 *                                                             which re-checks the entry after it: ABA guard)
 *  HELD      → BORROWED    {@link #passToBorrower()}          that holder, handing the connection to a waiter
 *  BORROWED  → AVAILABLE   {@link #makeAvailable()}           the owner, returning the connection (HELD too)
 *  BORROWED  → CLOSING     {@link #closeOwned()}              the owner (or a reclaimer that took the lease); HELD
 *                                                             too
 *  CLOSING   → EMPTY       {@link #empty()}                   the thread that moved the slot to CLOSING
 * </pre>
 *
 * A {@code BORROWED} slot changes owner without changing state when it is handed to a waiter. {@code BORROWED}
 * is a borrower's only; what the pool takes for itself is {@code HELD}, so a visit tells the two apart by the
 * state alone. Only one thread owns a slot in {@code RESERVED}, {@code BORROWED}, {@code HELD} or {@code CLOSING},
 * so those transitions out are plain volatile stores; the transitions out of {@code EMPTY} and {@code AVAILABLE}
 * race and are CAS. The transitions are package-private: the pool makes them through {@link SlotTable}, which
 * applies the turn rule and the ABA guard.
 *
 * <p>The state word and the entry ({@link SlotFields}) have a cache line to themselves: 64 bytes of padding
 * fields on each side (superclass fields come first in the JVM's layout, subclass fields after). The slots are
 * allocated together, and a JOL walk of a running pool found two to four of them on one 64-byte line in some runs
 * (and the slot array, which every scan reads, beside a slot in others), so that two threads borrowing different
 * connections CASed the same line (docs/benchmarks.md, "Cache lines: the slot, the means and the entry padded").
 *
 * @param <T> the entry; the table never looks inside it
 */
public final class Slot<T> extends SlotFields<T> {

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(SlotFields.class, "state", SlotState.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private long after0, after1, after2, after3, after4, after5, after6, after7;

    Slot(int index) {
        super(index);
    }

    /** This slot's position in the table. */
    public int index() {
        return index;
    }

    /** Volatile read of the state. */
    public SlotState state() {
        return (SlotState) STATE.getVolatile(this);
    }

    /**
     * The entry. Safe for the owner; for anyone else a racy read that may be stale or {@code null} (benign for
     * scans and snapshots, which re-check after their CAS or only report).
     */
    public T entry() {
        return entry;
    }

    /** EMPTY → RESERVED. CAS: two creators may race for one slot; S3 holds because a creator opens a
     * connection only for a slot it reserved, and the table has exactly maxSize slots. */
    boolean tryReserve() {
        return STATE.compareAndSet(this, SlotState.EMPTY, SlotState.RESERVED);
    }

    /** RESERVED → AVAILABLE. Volatile store after the plain entry write: publishes the entry (release) and
     * orders the store before the caller's look at the waiters (Dekker, see package doc). */
    void publish(T newEntry) {
        entry = newEntry;
        STATE.setVolatile(this, SlotState.AVAILABLE);
    }

    /** RESERVED → BORROWED: the creator hands the new connection straight to a waiter (S6, fair hand-off). */
    void publishBorrowed(T newEntry) {
        entry = newEntry;
        STATE.setVolatile(this, SlotState.BORROWED);
    }

    /** RESERVED → HELD: the creator keeps the new connection (to close it: it may not be lent). */
    void publishHeld(T newEntry) {
        entry = newEntry;
        STATE.setVolatile(this, SlotState.HELD);
    }

    /** RESERVED → EMPTY: opening failed; the owner gives the slot up. */
    void cancelReservation() {
        STATE.setVolatile(this, SlotState.EMPTY);
    }

    /** AVAILABLE → BORROWED. CAS: the winner becomes the only holder (S1); a loser skips this slot (S5). */
    boolean tryBorrow() {
        return STATE.compareAndSet(this, SlotState.AVAILABLE, SlotState.BORROWED);
    }

    /** AVAILABLE → HELD. CAS: the pool itself takes an idle connection; a borrower that loses skips the slot (S5). */
    boolean tryHold() {
        return STATE.compareAndSet(this, SlotState.AVAILABLE, SlotState.HELD);
    }

    /** HELD → BORROWED by the holder, before it hands the slot to a waiter (the hand-off's CAS publishes it). */
    void passToBorrower() {
        STATE.setVolatile(this, SlotState.BORROWED);
    }

    /** BORROWED (or HELD) → AVAILABLE by the owner. Volatile store: releases the holder's writes to the next borrower and
     * precedes the owner's look at the waiters (Dekker). */
    void makeAvailable() {
        STATE.setVolatile(this, SlotState.AVAILABLE);
    }

    /** BORROWED (or HELD) → CLOSING by the owner: the connection will not be reused. */
    void closeOwned() {
        STATE.setVolatile(this, SlotState.CLOSING);
    }

    /** CLOSING → EMPTY by the closer: forgets the entry and returns it (for closing outside the table). */
    T empty() {
        T old = entry;
        entry = null;
        STATE.setVolatile(this, SlotState.EMPTY);
        return old;
    }

    @Override
    public String toString() {
        return "Slot[" + index + ", " + state() + "]";
    }
}

/** The 64 bytes before a {@link Slot}'s fields. */
abstract class SlotPadding {

    @SuppressWarnings("unused")
    private long before0, before1, before2, before3, before4, before5, before6, before7;
}

/** A {@link Slot}'s fields, between its paddings. Only {@link Slot} reads or writes them. */
abstract class SlotFields<T> extends SlotPadding {

    final int index;
    /** Accessed through {@link Slot}'s {@code STATE} handle only. */
    @SuppressWarnings("unused")
    volatile SlotState state = SlotState.EMPTY;
    /**
     * Plain: written only by the slot's owner (a creator in RESERVED, the closer in CLOSING) and published by
     * the volatile state store that ends that phase; readers read the state first.
     */
    T entry;

    SlotFields(int index) {
        this.index = index;
    }
}
