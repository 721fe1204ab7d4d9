package dev.slotpool;

import dev.slotpool.pool.ConnectionPool;
import dev.slotpool.pool.Suspension;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A wait-free connection pool as a {@link DataSource}: a table of slots changed only by CAS, spanning one or
 * more origins. Built and started by {@link #builder()}; see {@code docs/architecture.md}.
 *
 * <pre>{@code
 * SlotPoolDataSource ds = SlotPoolDataSource.builder()
 *     .url("jdbc:h2:mem:app").username("sa").password("")
 *     .minSize(4).maxSize(16)
 *     .borrowTimeout(Duration.ofSeconds(5))
 *     .build();
 * try (Connection c = ds.getConnection()) { ... }
 * ds.close();
 * }</pre>
 */
public final class SlotPoolDataSource implements DataSource, AutoCloseable {

    private final PoolConfig config;
    private final ConnectionPool pool;
    private final Suspension suspension;
    private volatile PrintWriter logWriter;

    SlotPoolDataSource(PoolConfig config) {
        this.config = config;
        this.pool = new ConnectionPool(config);
        this.suspension = new Suspension(pool);
    }

    /** A builder with the documented defaults. */
    public static SlotPoolBuilder builder() {
        return new SlotPoolBuilder();
    }

    /** The validated settings this pool runs with. */
    public PoolConfig config() {
        return config;
    }

    /**
     * Borrows a connection, waiting up to the borrow timeout. Closing it returns it to the pool.
     *
     * @throws java.sql.SQLTransientConnectionException on timeout, with the pool's state in the message and the
     *                                                  last connection failure chained
     * @throws SQLException if the pool is closed or the thread was interrupted while waiting (its interrupt
     *                      status is kept)
     */
    @Override
    public Connection getConnection() throws SQLException {
        return pool.borrow();
    }

    /**
     * Borrows the cheapest connection for these labels, configured by the {@link LabelingCallback}; the returned
     * connection implements {@link LabeledConnection}.
     */
    public Connection getConnection(Map<String, String> labels) throws SQLException {
        return pool.borrow(labels);
    }

    /** Not supported: a pool's credentials are fixed per origin at build time. */
    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("slotpool lends connections with the credentials configured per "
                + "origin; getConnection(user, password) is not supported");
    }

    /** An immutable view of every origin and slot; cheap enough to call every second. */
    public PoolSnapshot snapshot() {
        return pool.snapshot();
    }

    /** Drains an origin, or every origin a selector such as {@code host=db3} matches (planned failover): see
     * {@link dev.slotpool.pool.OriginOperations#drain} and {@link dev.slotpool.pool.OriginOperations#select}. */
    public void drain(String origin, Duration timeout) {
        pool.operations().drain(origin, timeout);
    }

    /**
     * The names of the origins a selector names: an origin's name, or {@code key=value[,key=value]} over
     * {@code name, service, database, instance, host}. See {@link dev.slotpool.pool.OriginOperations#select}.
     *
     * @throws IllegalArgumentException when nothing matches or the selector is malformed
     */
    public List<String> select(String selector) {
        return pool.operations().select(selector);
    }

    /** Marks an origin, or every origin a selector matches, DOWN (unplanned failover). */
    public void markDown(String origin) {
        pool.operations().markDown(origin);
    }

    /** Marks an origin, or every origin a selector matches, UP again. */
    public void markUp(String origin) {
        pool.operations().markUp(origin);
    }

    /** Moves connections toward new target weights, gradually. All or nothing on bad input. */
    public void rebalance(Map<String, Integer> weights) {
        pool.operations().rebalance(weights);
    }

    /** Moves connections back toward the configured weights. */
    public void rebalanceToConfigured() {
        pool.operations().rebalanceToConfigured();
    }

    /**
     * Takes the pool out of service for a JVM checkpoint (docs/architecture.md, Checkpoint and restore): every
     * origin DOWN ("suspended for checkpoint"), idle connections closed now, borrowed ones closed at return and
     * aborted at {@code timeout}, no connection created. Borrowers wait meanwhile and time out with the origins'
     * states in the message. Waits until no connection is open, at most {@code timeout} plus one housekeeping
     * period; {@link #resume()} undoes it.
     *
     * @return whether every connection was closed in time
     * @throws InterruptedException if interrupted while waiting (the pool stays suspended)
     */
    public boolean suspend(Duration timeout) throws InterruptedException {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("suspend timeout must be ≥ 0 (was " + timeout + ")");
        }
        return suspension.suspend(timeout);
    }

    /**
     * After a restore: brings back the origins {@link #suspend} took down (an origin an operator had marked down or
     * was draining stays so); the pool refills to {@code minSize}. Does nothing when not suspended.
     */
    public void resume() {
        suspension.resume();
    }

    /** Whether {@link #suspend} took the pool out of service and {@link #resume()} has not been called since. */
    public boolean isSuspended() {
        return suspension.suspended();
    }

    /**
     * Closes the pool: stops its threads, closes idle connections, waits up to {@code shutdownTimeout} for
     * borrowed ones and for connects under way, then aborts the borrowed ones and interrupts the connects
     * (a connect that ignores the interrupt finishes later on its own thread and closes what it opened).
     * Waiting borrowers fail with "pool is closed". Idempotent; a call while another runs waits for it.
     */
    @Override
    public void close() {
        pool.close();
    }

    public boolean isClosed() {
        return pool.snapshot().closed();
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    /** Kept for the DataSource contract; slotpool logs through {@link System.Logger}. */
    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    /** Not supported: the borrow timeout is fixed at build time ({@link SlotPoolBuilder#borrowTimeout}). */
    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        throw new SQLFeatureNotSupportedException("set the borrow timeout with SlotPoolBuilder.borrowTimeout");
    }

    /** The borrow timeout in whole seconds. */
    @Override
    public int getLoginTimeout() {
        return (int) config.borrowTimeout().toSeconds();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("slotpool logs through System.Logger");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper for " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    @Override
    public String toString() {
        return "SlotPoolDataSource[" + config + "]";
    }
}
