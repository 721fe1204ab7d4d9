package dev.slotpool.autoconfigure.observation;

import io.micrometer.observation.Observation;

/** What a {@code slotpool.borrow} observation knows: the pool, then, once the borrow ended, its outcome. */
public class BorrowContext extends Observation.Context {

    /** How a borrow ended. */
    public enum Outcome {
        /** A connection was lent. */
        OK,
        /** No connection within the borrow timeout. */
        TIMEOUT,
        /** Any other failure (the pool closed, the thread interrupted, a labeling callback refused). */
        ERROR
    }

    private final String pool;
    private String origin;
    private Outcome outcome;
    private boolean waited;

    public BorrowContext(String pool) {
        this.pool = pool;
    }

    public String getPool() {
        return pool;
    }

    /** The lent connection's origin; null until the borrow ended, and when it failed. */
    public String getOrigin() {
        return origin;
    }

    /** Null until the borrow ended. */
    public Outcome getOutcome() {
        return outcome;
    }

    /** Whether the borrow had to wait or check a connection rather than take one at once. */
    public boolean isWaited() {
        return waited;
    }

    void ended(String origin, Outcome outcome, boolean waited) {
        this.origin = origin;
        this.outcome = outcome;
        this.waited = waited;
    }
}
