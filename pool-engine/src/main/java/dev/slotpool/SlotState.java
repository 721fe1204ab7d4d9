package dev.slotpool;

/**
 * The state of one slot of the pool. A slot goes EMPTY → RESERVED → AVAILABLE ⇄ BORROWED → CLOSING → EMPTY (a
 * failed creation goes back from RESERVED to EMPTY); the pool itself takes an available connection as HELD (a
 * keepalive validation, a close) and gives it back or closes it. docs/architecture.md, "Slot states", lists every
 * transition.
 */
public enum SlotState {
    /** No connection; a creator may reserve the slot. */
    EMPTY,
    /** A creator claimed the slot and is opening a connection for it. */
    RESERVED,
    /** Holds an idle connection a borrower may take. */
    AVAILABLE,
    /** Holds a connection lent to exactly one holder (S1): a borrower's, from the borrow to the return. */
    BORROWED,
    /** Holds an idle connection the pool itself took from borrowers, lent to nobody: a keepalive validating it,
     * or a close about to begin. Counted as idle ({@link PoolSnapshot#available()}). */
    HELD,
    /** The connection is being closed by the one thread that moved the slot here. */
    CLOSING
}
