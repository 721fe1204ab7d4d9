package dev.slotpool.bench;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the main thread tells a run's workers (the phase) and what they tell it once (that they are in their loop,
 * the start barrier: the warm-up clock starts only when every thread loops). The phase is written a few times per
 * run and read by every iteration, so its cache line stays shared and reading it costs a plain load; the in-loop
 * counter is touched once per thread, before the loop.
 */
public final class LoopControl {

    /** The phases of one run, in order. */
    public enum Phase {
        /** Threads start and loop; nothing is recorded. */
        WARMUP,
        /** The measurement window. */
        MEASURE,
        /** Workers leave their loop after the current iteration; the pool is still open. */
        STOP,
        /** The pool is closing under any thread still in an iteration: its failure is not the pool's. */
        CLOSING
    }

    private volatile Phase phase = Phase.WARMUP;
    private final AtomicInteger inLoop = new AtomicInteger();

    public Phase phase() {
        return phase;
    }

    public void set(Phase next) {
        phase = next;
    }

    /** Whether workers are to leave their loop: from {@link Phase#STOP} on. */
    public boolean stopping() {
        return phase.compareTo(Phase.STOP) >= 0;
    }

    /** Called by each worker once, just before its first iteration. */
    public void enteredLoop() {
        inLoop.incrementAndGet();
    }

    /** Workers that have started looping. */
    public int inLoop() {
        return inLoop.get();
    }
}
