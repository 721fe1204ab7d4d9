package dev.slotpool.table;

/**
 * A waiter played by hand, for tests outside this package: it is counted in the table's queue and takes a slot
 * handed to it like any waiter, but it wakes to leave only when the test says so. It stands for a borrower that was
 * handed a connection and has not been scheduled yet, as on a loaded machine.
 */
public final class StandInWaiter<T> {

    private final SlotTable<T> table;
    private final Waiter waiter;

    private StandInWaiter(SlotTable<T> table) {
        this.table = table;
        // The test's thread: a hand-off's unpark only cuts one of its later parks short.
        this.waiter = new Waiter(Thread.currentThread(), System.nanoTime());
    }

    /** Queues a stand-in waiter on {@code table}. */
    public static <T> StandInWaiter<T> enqueue(SlotTable<T> table) {
        StandInWaiter<T> w = new StandInWaiter<>(table);
        table.waiters().enqueue(w.waiter);
        return w;
    }

    /** The slot handed to this waiter, or null. */
    public Slot<T> handed() {
        return waiter.handed();
    }

    /** Ends the wait as the waiter's own thread would: cancelled if nothing was handed, then out of the queue. */
    public void leave() {
        waiter.cancel();
        table.leave(waiter);
    }
}
