package dev.slotpool.table;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Builds the tables the jcstress tests start from, through the table's own API, so every test starts in a state
 * the pool can reach. Each test's {@code @State} builds a new one; jcstress makes many per run.
 */
final class Fixtures {

    /**
     * Strict FIFO: a returner is never in its turn, so with a waiter queued every return goes by hand-off. Another
     * length would not change that here: turns are per thread and per table, and a fresh table starts every
     * thread out of turn.
     */
    static final long STRICT_FIFO = 0;

    private static final long MAX_RETURN_DELAY_NANOS = 10_000;

    /** Never started: a hand-off's unpark of it wakes nobody and leaves no permit on a jcstress thread. */
    private static final Thread NOBODY = new Thread(() -> { });

    private Fixtures() {
    }

    /**
     * A delay for the returner, drawn per test instance up to about what a borrower's slow path takes (two
     * yields, an enqueue and the scans between): without it the returner, whose part is short, runs ahead of the
     * borrower on nearly every instance and the races with an enqueued borrower are seldom reached.
     */
    static long returnDelayNanos() {
        return ThreadLocalRandom.current().nextLong(MAX_RETURN_DELAY_NANOS);
    }

    /** Busy-waits {@code nanos}: a park or sleep would take far longer than the window being aimed at. */
    static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }

    /** A waiter for tests that play its part by hand (its CAS word, its enqueue) rather than through a borrow. */
    static Waiter waiter() {
        return new Waiter(NOBODY, System.nanoTime());
    }

    /** Reserves the next slot and publishes {@code entry} into it as AVAILABLE, as a creator does. */
    static Slot<Entry> available(SlotTable<Entry> table, Entry entry) {
        Slot<Entry> s = table.reserve();
        table.publish(s, entry);
        return s;
    }

    /** Reserves the next slot and publishes {@code entry} into it as BORROWED, owned by the caller's role. */
    static Slot<Entry> borrowed(SlotTable<Entry> table, Entry entry) {
        Slot<Entry> s = table.reserve();
        s.publishBorrowed(entry);
        return s;
    }

    /**
     * Borrows from {@code table} and says which way the borrow ended, from the {@code onShortage} calls that
     * {@link SlotTable#borrow} makes: none when its first scan found the slot, one when a revisit did, two once
     * it had enqueued (the slot then came by hand-off, or by a scan while queued). So each run shows that the
     * queued path, where the hand-off races, was taken.
     *
     * @return "first scan", "revisit" or "queued" when the borrower got {@code expected}; "timed out" when it got
     *         nothing; "other slot" otherwise
     */
    static String borrow(SlotTable<Entry> table, long timeoutNanos, Slot<Entry> expected) {
        int[] shortages = {0};
        Slot<Entry> s;
        try {
            s = table.borrow(System.nanoTime() + timeoutNanos, null, () -> shortages[0]++);
        } catch (InterruptedException e) {
            // Nothing interrupts jcstress's actor threads: an interrupt is a harness fault, reported as an error.
            throw new IllegalStateException(e);
        }
        if (s == null) {
            return "timed out";
        }
        if (s != expected) {
            return "other slot";
        }
        switch (shortages[0]) {
            case 0:
                return "first scan";
            case 1:
                return "revisit";
            default:
                return "queued";
        }
    }

    /**
     * What the pool keeps in a slot, reduced to plain fields that one owner writes: a reader that sees a stale
     * value proves the owner's writes were not published by the state word.
     */
    static final class Entry {
        /** Written by the creator before it publishes. */
        int serial;
        /** Written by a holder before it returns the slot. */
        int lastHolder;
    }
}
