package dev.slotpool;

/**
 * Wraps each borrow, so that a trace shows the time a request spent waiting for a connection (the Spring Boot
 * starter adapts it to a Micrometer {@code Observation}). Both calls run on the borrowing thread: {@link #started}
 * before the pool looks for a connection, {@link #ended} once it has one or has failed. Without an observer
 * (the default) a borrow makes neither call. Anything an observer throws ({@link Error}s included) is logged and
 * never reaches the borrower.
 */
public interface BorrowObserver {

    /**
     * A borrow starts on this thread.
     *
     * @param pool the pool's name
     * @return what {@link #ended} gets back (an open scope, for instance); may be null
     */
    Object started(String pool);

    /**
     * The borrow ended on the same thread.
     *
     * @param started   what {@link #started} returned
     * @param origin    the lent connection's origin; null when the borrow failed
     * @param waitNanos how long the borrow took: 0 when a connection was taken at once, without waiting or checking
     *                  it; -1 when the borrow failed
     * @param failure   null when a connection was lent; else what the borrower gets thrown (a
     *                  {@link java.sql.SQLTransientConnectionException} on timeout)
     */
    void ended(Object started, String origin, long waitNanos, Throwable failure);
}
