package dev.slotpool.bench.scaling;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the main thread tells the workers (the phase) and what they tell it once (that they are in their loop).
 * The phase is written three times per run and read by every iteration, so its cache line stays shared and
 * reading it costs a plain load; the in-loop counter is touched once per thread, before the loop.
 */
final class RunControl {

    /** The phases of one run, in order. */
    enum Phase {
        /** Threads start and loop; nothing is recorded. */
        WARMUP,
        /** The measurement window: held-mode workers also record the waits of borrows that end in it. */
        MEASURE,
        /** Workers leave their loop at the next iteration. */
        STOP
    }

    private volatile Phase phase = Phase.WARMUP;
    private final AtomicInteger inLoop = new AtomicInteger();

    Phase phase() {
        return phase;
    }

    void measure() {
        phase = Phase.MEASURE;
    }

    void stop() {
        phase = Phase.STOP;
    }

    /** Called by each worker once, just before its first borrow. */
    void enteredLoop() {
        inLoop.incrementAndGet();
    }

    /** Workers that have started looping. */
    int inLoop() {
        return inLoop.get();
    }
}
