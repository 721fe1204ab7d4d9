package dev.slotpool.bench.scaling;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Per-thread counters of borrows, timeouts and errors. Each thread owns one 128-byte block of the array, so no
 * two threads ever write the same cache line (nor the adjacent-line pair some CPUs prefetch together): the
 * harness adds no coherence traffic of its own to the pool's.
 *
 * <p>Each cell has a single writer, its thread, which stores with opaque mode: no fence in the borrow loop, yet
 * no torn or indefinitely stale value for the main thread, which reads with opaque mode at window start and end.
 */
final class Tally {

    static final int BORROWS = 0;
    static final int TIMEOUTS = 1;
    static final int ERRORS = 2;

    /** Longs per thread: 128 bytes. */
    private static final int STRIDE = 16;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    private final int threads;
    private final long[] cells;

    Tally(int threads) {
        this.threads = threads;
        // One block more than threads: thread i uses block i + 1, so block 0 pads thread 0 from the array header.
        this.cells = new long[(threads + 1) * STRIDE];
    }

    /** Stores a new value of one of {@code thread}'s counters; only that thread may call this. */
    void set(int thread, int counter, long value) {
        CELL.setOpaque(cells, (thread + 1) * STRIDE + counter, value);
    }

    /** Every thread's current value of one counter, indexed by thread. */
    long[] read(int counter) {
        long[] values = new long[threads];
        for (int i = 0; i < threads; i++) {
            values[i] = (long) CELL.getOpaque(cells, (i + 1) * STRIDE + counter);
        }
        return values;
    }
}
