package dev.slotpool;

/**
 * Receives pool events. Called on pool threads or the borrowing thread, so implementations must be quick and
 * thread-safe; anything a listener throws ({@link Error}s included) is reported through {@link System.Logger}
 * and never reaches the pool or the borrower.
 */
public interface PoolListener {

    /**
     * The pool is starting: called once, before its threads start and before any other callback, so a listener
     * can learn the pool's name and origins (metrics tag their meters with them).
     *
     * @param config the settings the pool starts with
     */
    default void onStart(PoolConfig config) {
    }

    /**
     * A pool event (creation, close with reason, timeout, leak, origin state change, rebalance).
     *
     * @param event the event
     */
    default void onEvent(PoolEvent event) {
    }

    /**
     * A connection was lent. On the borrow path: keep it allocation-free.
     *
     * @param origin    the origin's name
     * @param waitNanos how long the borrow took, waiting included
     */
    default void onBorrow(String origin, long waitNanos) {
    }

    /**
     * A connection came back. On the return path: keep it allocation-free.
     *
     * @param origin    the origin's name
     * @param heldNanos how long the holder kept it
     */
    default void onReturn(String origin, long heldNanos) {
    }
}
