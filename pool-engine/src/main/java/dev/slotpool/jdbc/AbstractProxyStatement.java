package dev.slotpool.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;

/**
 * The delegation shared by the three statement proxies; {@code S} is the driver's statement type, so the
 * prepared and callable proxies reuse these methods on their own delegates.
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
abstract class AbstractProxyStatement<S extends Statement> implements Statement {

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
    final S batching() {
        if (cached != null && isOpen()) {
            cached.batched();
        }
        return active();
    }

    /** As {@link #live()}, for a call that talks to the database: records activity for the abandoned timer. */
    final S active() {
        if (isOpen()) {
            connection.enter();
        }
        return delegate;
    }

    /** As {@link #active()}, for a call that runs SQL: with auto-commit off it may open a transaction (behind a
     * transaction pooler, with the holder's isolation level first: {@link ProxyConnection#ranSql()}). */
    final S running() throws SQLException {
        if (isOpen() && connection.enter()) {
            connection.ranSql();
        }
        return delegate;
    }

    final SQLException failed(SQLException e) {
        if (cached != null && SqlErrors.isFatal(e)) {
            cached.spoil(); // whatever the override says of the connection, this statement is not reused
        }
        return connection.failed(e);
    }

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
     * goes back to its connection's cache (or is closed there, see {@link ProxyConnection#release}).
     */
    @Override
    public final void close() throws SQLException {
        if (!isOpen() || !connection.open()) {
            return;
        }
        connection.untrack(this);
        Statement physical = detach();
        try {
            if (cached != null) {
                connection.release(cached);
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
    public ResultSet executeQuery(String sql) throws SQLException {
        try { return wrap(running().executeQuery(sql)); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        try { return running().executeUpdate(sql); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public int getMaxFieldSize() throws SQLException {
        try { return live().getMaxFieldSize(); } catch (SQLException e) { throw failed(e); }
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
    public int getMaxRows() throws SQLException {
        try { return live().getMaxRows(); } catch (SQLException e) { throw failed(e); }
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
    public int getQueryTimeout() throws SQLException {
        try { return live().getQueryTimeout(); } catch (SQLException e) { throw failed(e); }
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
    public SQLWarning getWarnings() throws SQLException {
        try { return live().getWarnings(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void clearWarnings() throws SQLException {
        try { live().clearWarnings(); } catch (SQLException e) { throw failed(e); }
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
    public boolean execute(String sql) throws SQLException {
        try { return running().execute(sql); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        try { return wrap(active().getResultSet()); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public int getUpdateCount() throws SQLException {
        try { return live().getUpdateCount(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        try { return active().getMoreResults(); } catch (SQLException e) { throw failed(e); }
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
    public int getFetchDirection() throws SQLException {
        try { return live().getFetchDirection(); } catch (SQLException e) { throw failed(e); }
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
    public int getFetchSize() throws SQLException {
        try { return live().getFetchSize(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        try { return live().getResultSetConcurrency(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public int getResultSetType() throws SQLException {
        try { return live().getResultSetType(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        try { batching().addBatch(sql); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void clearBatch() throws SQLException {
        try { live().clearBatch(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public int[] executeBatch() throws SQLException {
        try { return running().executeBatch(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public boolean getMoreResults(int current) throws SQLException {
        try { return active().getMoreResults(current); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        try { return wrap(active().getGeneratedKeys()); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        try { return running().executeUpdate(sql, autoGeneratedKeys); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        try { return running().executeUpdate(sql, columnIndexes); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        try { return running().executeUpdate(sql, columnNames); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        try { return running().execute(sql, autoGeneratedKeys); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        try { return running().execute(sql, columnIndexes); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        try { return running().execute(sql, columnNames); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        try { return live().getResultSetHoldability(); } catch (SQLException e) { throw failed(e); }
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
    public boolean isPoolable() throws SQLException {
        try { return live().isPoolable(); } catch (SQLException e) { throw failed(e); }
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
    public boolean isCloseOnCompletion() throws SQLException {
        try { return live().isCloseOnCompletion(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        try { return live().getLargeUpdateCount(); } catch (SQLException e) { throw failed(e); }
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

    @Override
    public long getLargeMaxRows() throws SQLException {
        try { return live().getLargeMaxRows(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        try { return running().executeLargeBatch(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        try { return running().executeLargeUpdate(sql); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        try { return running().executeLargeUpdate(sql, autoGeneratedKeys); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        try { return running().executeLargeUpdate(sql, columnIndexes); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        try { return running().executeLargeUpdate(sql, columnNames); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public String enquoteLiteral(String val) throws SQLException {
        try { return live().enquoteLiteral(val); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public String enquoteIdentifier(String identifier, boolean alwaysQuote) throws SQLException {
        try { return live().enquoteIdentifier(identifier, alwaysQuote); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public boolean isSimpleIdentifier(String identifier) throws SQLException {
        try { return live().isSimpleIdentifier(identifier); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public String enquoteNCharLiteral(String val) throws SQLException {
        try { return live().enquoteNCharLiteral(val); } catch (SQLException e) { throw failed(e); }
    }
}
