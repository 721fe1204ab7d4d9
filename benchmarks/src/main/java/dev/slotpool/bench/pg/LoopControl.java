package dev.slotpool.bench.pg;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the main thread tells the workers (the phase) and what they tell it once (that they are in their loop,
 * the start barrier: the warm-up clock starts only when every thread loops).
 */
final class LoopControl {

    /** The phases of one run, in order. */
    enum Phase {
        /** Threads start and loop; nothing is recorded. */
        WARMUP,
        /** The window: transactions that end in it are counted and timed. */
        MEASURE,
        /** Workers leave their loop after the current transaction; the pool is still open. */
        STOP,
        /** The pool is closing under any thread still in a transaction: its failure is not the pool's. */
        CLOSING
    }

    private volatile Phase phase = Phase.WARMUP;
    private final AtomicInteger inLoop = new AtomicInteger();

    Phase phase() {
        return phase;
    }

    void set(Phase next) {
        phase = next;
    }

    /** Called by each worker once, just before its first transaction. */
    void enteredLoop() {
        inLoop.incrementAndGet();
    }

    /** Workers that have started looping. */
    int inLoop() {
        return inLoop.get();
    }
}
