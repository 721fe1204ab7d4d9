package dev.slotpool;

/**
 * The state of one slot of the pool. A slot goes EMPTY → RESERVED → AVAILABLE ⇄ BORROWED → CLOSING → EMPTY (a
 * failed creation goes back from RESERVED to EMPTY); docs/architecture.md, "Slot states", lists every
 * transition.
 */
public enum SlotState {
    /** No connection; a creator may reserve the slot. */
    EMPTY,
    /** A creator claimed the slot and is opening a connection for it. */
    RESERVED,
    /** Holds an idle connection a borrower may take. */
    AVAILABLE,
    /** Holds a connection lent to exactly one holder (S1). */
    BORROWED,
    /** The connection is being closed by the one thread that moved the slot here. */
    CLOSING
}
