package dev.slotpool.table;

/**
 * What a table keeps per borrowing thread, in one object behind one thread-local entry, so that a new thread (a
 * virtual thread per request) pays for one: where its next scan starts ({@link SlotTable}) and its turn
 * ({@link Turns}). Plain fields: only its own thread reads or writes them.
 */
final class Borrower {

    /** The slot this thread borrowed last, where its next scan starts (an index; the scan takes it modulo). */
    int lastSlot;
    /** When the thread's turn ends (the table's clock), or {@link Turns#NONE}. */
    long turnEnds = Turns.NONE;
    /** Borrows left in the turn. */
    long turnBorrowsLeft;
    /** Borrows with nobody waiting since the thread last gave up its carrier in {@link Turns} (virtual threads). */
    long borrowsSinceYield;

    Borrower(int firstSlot) {
        lastSlot = firstSlot;
    }
}
