package dev.slotpool.kernel;


import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whether the pool is open: the one shutdown state (docs/architecture.md, "Closing"). close() moves it out of OPEN
 * before its first step; from then on borrows fail, the creators, the housekeeper and the keepalive end their
 * loops, and a connection published or released afterwards is closed by whoever stored it (each reads this after
 * its store, as close() sweeps after setting it). Every class asks this one object; none keeps a flag of its own.
 * The closer's thread ends later, at close()'s last step ({@code Closer.finish}).
 */
public final class PoolLifecycle {

    private static final int OPEN = 0;
    private static final int CLOSING = 1;
    private static final int CLOSED = 2;
    private static final int FAILED = 3;

    /** OPEN (or FAILED) → CLOSING by the one close() that runs the steps (CAS); CLOSED when they are done, FAILED
     * when they threw, so another close() runs them again; either way the state leaves CLOSING. Never OPEN again. */
    private final AtomicInteger state = new AtomicInteger(OPEN);

    /** Whether close() has begun (or the pool failed to start): a volatile read, for every pool thread and
     * {@code DataSource.isClosed()}. */
    public boolean closed() {
        return state.get() != OPEN;
    }

    /** Whether close()'s steps are done: a later close() returns at once. */
    public boolean done() {
        return state.get() == CLOSED;
    }

    /** Whether a close() is running its steps now: another one waits for it. */
    public boolean closing() {
        return state.get() == CLOSING;
    }

    /** OPEN or FAILED → CLOSING (CAS, S4): true for the one caller that runs close()'s steps. */
    public boolean beginClose() {
        int s = state.get();
        return (s == OPEN || s == FAILED) && state.compareAndSet(s, CLOSING);
    }

    /** CLOSING → CLOSED when the steps are done, → FAILED when they threw (the next close() runs them again). */
    public void endClose(boolean done) {
        state.set(done ? CLOSED : FAILED);
    }
}
