package dev.slotpool.table;

/** Starts the calling thread's turn the way every turn starts, for tests of what a turn allows. */
final class TurnStart {

    private TurnStart() {
    }

    /**
     * Puts {@code entry} in the only slot of an empty one-slot {@code table} and gives that slot to the calling
     * thread by a hand-off from the queue, which starts its turn. Returns the slot, borrowed by the caller.
     */
    static <T> Slot<T> slotFromTheQueue(SlotTable<T> table, T entry) throws InterruptedException {
        Slot<T> slot = table.reserve();
        slot.publishBorrowed(entry); // the releaser holds it as a borrower would
        Thread releaser = new Thread(() -> {
            while (table.waiting() == 0) {
                Thread.onSpinWait();
            }
            table.release(slot); // the releaser has no turn: a hand-off to the calling thread
        });
        releaser.start();
        Slot<T> mine = table.borrow(Long.MAX_VALUE / 2, null, () -> { });
        releaser.join();
        if (mine != slot) {
            throw new AssertionError("the queue handed " + mine + ", not the table's only slot");
        }
        return mine;
    }
}
