package dev.slotpool.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What the three statement proxies share; {@code S} is the driver's statement type, so the prepared and
 * callable proxies reuse these methods on their own delegates. The calls that behave alike are generated
 * ({@link StatementDelegation}) and go through the hooks below; this class writes the ones that differ.
 *
 * <p>Every call first checks, through its {@link ProxyConnection}, that the lease is still the holder's; calls
 * that talk to the database also record activity, and calls that run SQL tell the connection a transaction may
 * be open. Binding parameters and reading settings stay in the driver and record nothing. A fatal error evicts
 * the connection. {@link #getConnection()} and the result
 * sets' {@code getStatement()} return proxies, so the holder cannot reach the physical connection by accident.
 * Closing the statement, or its connection, swaps the delegate for the closed sentinel.
 *
 * <p>A statement from the connection's {@link StatementCache} carries its {@link CachedStatement}: the settings
 * the holder changes are remembered so they can be put back, a bound parameter or an added batch is noted so that
 * its close clears them (and only then), what cannot be put back (a cursor name, close on completion, escape
 * processing, not poolable, an unwrap to the driver's type, a connection-level error) keeps it out of the cache,
 * and {@link #close()} hands it back to the connection instead of closing it. Without a cache the field is null
 * and each of these is one null check.
 *
 * <p>Not thread-safe, on purpose: like its connection, a statement is used by the holder's thread only.
 *
 * @param <S> the driver's statement type
 */
abstract class AbstractProxyStatement<S extends Statement> extends StatementDelegation<S> {

    private final ProxyConnection connection;
    /** The driver's statement, or {@link ClosedSentinel#STATEMENT} once closed. */
    private S delegate;
    /** The cache's entry for the driver's statement while this proxy holds it; null when not cached. */
    private final CachedStatement cached;

    AbstractProxyStatement(ProxyConnection connection, S delegate, CachedStatement cached) {
        this.connection = connection;
        this.delegate = delegate;
        this.cached = cached;
    }

    final boolean isOpen() {
        return delegate != ClosedSentinel.STATEMENT;
    }

    /** The delegate for a call that stays in the driver (setters, getters); the sentinel once closed or reclaimed. */
    @Override
    final S live() {
        if (isOpen()) {
            connection.open(); // notices a reclaim, which detaches this statement too
        }
        return delegate;
    }

    /** As {@link #live()}, to bind a parameter: a cached statement's parameters are then cleared at its close. */
    final S binding() {
        if (cached != null && isOpen()) {
            cached.bound();
        }
        return live();
    }

    /** As {@link #active()}, to add to the batch: a cached statement's batch is then cleared at its close. */
    @Override
    final S batching() {
        if (cached != null && isOpen()) {
            cached.batched();
        }
        return active();
    }

    /** As {@link #live()}, for a call that talks to the database: records activity for the abandoned timer. */
    @Override
    final S active() {
        if (isOpen()) {
            connection.enter();
        }
        return delegate;
    }

    /** As {@link #active()}, for a call that runs SQL: with auto-commit off it may open a transaction (behind a
     * transaction pooler, with the holder's isolation level first: {@link ProxyConnection#ranSql()}). */
    @Override
    final S running() throws SQLException {
        if (isOpen() && connection.enter()) {
            connection.ranSql();
        }
        return delegate;
    }

    @Override
    final SQLException failed(SQLException e) {
        if (cached != null && SqlErrors.isFatal(e)) {
            cached.spoil(); // whatever the override says of the connection, this statement is not reused
        }
        return connection.failed(e);
    }

    @Override
    final ResultSet wrap(ResultSet resultSet) {
        if (resultSet == null) {
            return null;
        }
        if (cached != null) {
            cached.opened(resultSet);
        }
        return new ProxyResultSet(connection, this, resultSet);
    }

    /** The cache entry of the driver's statement, or null; read by the connection when it closes this proxy. */
    final CachedStatement cached() {
        return cached;
    }

    /** Before the holder changes a setting a cached statement must get back (a {@link CachedStatement} bit). */
    private void changing(int setting) throws SQLException {
        if (cached != null && isOpen()) {
            cached.changing(setting);
        }
    }

    /** The holder did something a cached statement cannot undo: it is closed at its close, not cached. */
    private void spoil() {
        if (cached != null) {
            cached.spoil();
        }
    }

    /** Swaps in the sentinel and returns the driver's statement, which the caller closes or leaves to the pool. */
    @SuppressWarnings("unchecked") // the sentinel implements every statement interface
    final Statement detach() {
        Statement physical = delegate;
        delegate = (S) ClosedSentinel.STATEMENT;
        return physical;
    }

    /**
     * Idempotent. After a reclaim the driver's statement belongs to the pool and is left alone. A cached statement
     * goes back to its connection's cache (or is closed there, see {@link StatementMaking#release}).
     */
    @Override
    public final void close() throws SQLException {
        if (!isOpen() || !connection.open()) {
            return;
        }
        StatementMaking.untrack(connection, this);
        Statement physical = detach();
        try {
            if (cached != null) {
                StatementMaking.release(connection, cached);
            } else {
                physical.close();
            }
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /**
     * The one call JDBC makes from another thread, to stop a running statement: it skips the reclaim check and
     * the activity record, which would write the holder's fields from the wrong thread.
     */
    @Override
    public final void cancel() throws SQLException {
        try {
            delegate.cancel();
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public final boolean isClosed() throws SQLException {
        if (!isOpen()) {
            return true;
        }
        S s = live(); // the sentinel if the connection's borrow ended meanwhile: closed, not an error
        try {
            return s == ClosedSentinel.STATEMENT || s.isClosed();
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** The proxy connection; the physical one only through {@code unwrap}. */
    @Override
    public final Connection getConnection() throws SQLException {
        if (live() == ClosedSentinel.STATEMENT) {
            throw ClosedSentinel.statementClosed();
        }
        return connection;
    }

    @Override
    public final <T> T unwrap(Class<T> iface) throws SQLException {
        S s = live();
        if (s != ClosedSentinel.STATEMENT && iface.isInstance(this)) {
            return iface.cast(this);
        }
        try {
            T unwrapped = s.unwrap(iface);
            spoil(); // the holder may change what this proxy cannot see
            connection.driverInHand();
            return unwrapped;
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public final boolean isWrapperFor(Class<?> iface) throws SQLException {
        S s = live();
        if (s != ClosedSentinel.STATEMENT && iface.isInstance(this)) {
            return true;
        }
        try {
            return s.isWrapperFor(iface);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        try {
            S s = live();
            changing(CachedStatement.MAX_FIELD_SIZE);
            s.setMaxFieldSize(max);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        try {
            S s = live();
            changing(CachedStatement.MAX_ROWS);
            s.setMaxRows(max);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        try {
            S s = live();
            spoil();
            s.setEscapeProcessing(enable);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        try {
            S s = live();
            changing(CachedStatement.QUERY_TIMEOUT);
            s.setQueryTimeout(seconds);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        try {
            S s = live();
            spoil();
            s.setCursorName(name);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        try {
            S s = live();
            changing(CachedStatement.FETCH_DIRECTION);
            s.setFetchDirection(direction);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        try {
            S s = live();
            changing(CachedStatement.FETCH_SIZE);
            s.setFetchSize(rows);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        try {
            S s = live();
            if (!poolable) {
                spoil(); // JDBC's hint that the statement should not be pooled
            }
            s.setPoolable(poolable);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        try {
            S s = live();
            spoil();
            s.closeOnCompletion();
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        try {
            S s = live();
            changing(CachedStatement.MAX_ROWS);
            s.setLargeMaxRows(max);
        } catch (SQLException e) {
            throw failed(e);
        }
    }
}
