package dev.slotpool.jdbc;

import dev.slotpool.LabeledConnection;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The connection a holder gets from the pool: one per borrow, delegating to the lease's physical connection.
 *
 * <p>It makes the borrow safe to return. {@link #close()} closes the statements the holder left open, rolls back
 * a transaction the holder left unfinished, restores the settings the holder changed (only those, so a clean
 * return costs no round trip), and gives the lease back exactly once. Then the delegate becomes the closed
 * sentinel: every later call fails with "connection is closed" and nothing can reach the physical connection,
 * which by then may belong to another holder (S1). The same happens, without touching the physical connection,
 * once the pool has reclaimed the lease. An SQLException that shows the connection is dead ({@link SqlErrors})
 * evicts it, so the pool closes it at return instead of lending it again.
 *
 * <p>The calls that only delegate are generated ({@link ConnectionDelegation}) through the hooks {@link #live()},
 * {@link #reaching()} and {@link #running()}. Written by hand: here the lifecycle, the hooks, labels and
 * wrappers; in {@link SessionSettings} (the superclass) the setters, commit and rollback, which track the
 * session state the return restores; in {@link StatementMaking} the holder's statements and the statement
 * cache; in {@link ReturnCleanup} what close() does before the lease is given back.
 *
 * <p>Not thread-safe, on purpose: a borrow has one holder and a JDBC connection is used by one thread at a time,
 * so every field is plain. The pool's threads see only the lease, never this object.
 */
public final class ProxyConnection extends SessionSettings implements LabeledConnection {

    private final ConnectionLease lease;
    /** The physical connection, or {@link ClosedSentinel#CONNECTION} once closed. */
    Connection delegate;
    /** Statements the holder has not closed; created on the first one to keep the borrow to one allocation. */
    ArrayList<AbstractProxyStatement<?>> openStatements;
    /** This borrow's stamp: every lease call names the borrow, so a late one never reaches a later borrow. */
    private final long stamp;
    /** The lease was evicted by this proxy: evict once, and skip hygiene on a connection that will be closed. */
    boolean evicted;

    /** Called by the pool once per borrow, with the stamp the pool lent it under; opens a JDBC 4.3 request where
     * the driver takes them. Never throws for the driver: the borrow is already lent, and without this proxy
     * nobody would return it. */
    public ProxyConnection(ConnectionLease lease, long stamp) {
        super(lease.defaults().autoCommit());
        this.lease = lease;
        this.stamp = stamp;
        this.delegate = lease.physical();
        if (lease.defaults().requestBoundaries()) {
            // A failure evicts: the connection is closed at return; the holder's first call will likely fail too.
            try {
                delegate.beginRequest();
            } catch (SQLException e) {
                evict(e);
            } catch (RuntimeException | Error e) {
                evict(new SQLException("driver failed to begin a request: " + e, e));
            }
        }
    }

    /**
     * Builds the closed sentinels now. They are reflective proxies whose first use costs a few hundred
     * milliseconds of class generation; paid at pool start instead of by the first borrower to close a
     * connection, which would hold that connection meanwhile (a cold spike then looked like sustained demand).
     */
    public static void prepareClasses() {
        if (ClosedSentinel.CONNECTION == null) {
            throw new IllegalStateException("closed sentinels not built");
        }
    }

    /** The lease this proxy stands for; for the pool (labeled borrows), not for applications. */
    @Override
    public ConnectionLease lease() {
        return lease;
    }

    @Override
    Connection physical() {
        return delegate;
    }

    // ---- lifecycle ----

    /**
     * Returns the connection to the pool; later calls do nothing. Never throws: a failure while closing the
     * holder's statements or restoring state evicts the connection instead, which is the only remedy the pool
     * has and leaves the holder nothing to handle.
     */
    @Override
    public void close() {
        if (!open()) {
            return;
        }
        try {
            ReturnCleanup.closeOpenStatements(this);
            if (!evicted) {
                ReturnCleanup.restoreDefaults(this);
                lease.releasePooledServer();
            }
        } catch (SQLException e) {
            evict(e);
        } catch (RuntimeException | Error e) {
            // An Error too (a class missing at run time): the connection's state is unknown, so it is closed.
            evict(new SQLException("driver failed while the connection was returned: " + e, e));
        } finally {
            detach();
            lease.giveBack(stamp);
        }
    }

    /**
     * Ends this borrow by aborting the physical connection (through the pool, which then closes the connection
     * instead of lending it again). A no-op once closed, as JDBC specifies. JDBC means it to be called from another
     * thread: it touches nothing of this proxy, whose holder may be using it, and it names this borrow by its
     * stamp, so an abort that comes after the holder returned the connection does nothing to the next borrower.
     * The holder's later calls find the borrow ended and fail as on a closed connection.
     */
    @Override
    public void abort(Executor executor) throws SQLException {
        if (executor == null) {
            throw new SQLException("executor is null");
        }
        lease.abort(stamp, executor);
    }

    /** True once closed, aborted or reclaimed by the pool; the physical connection is not consulted. */
    @Override
    public boolean isClosed() {
        return !open();
    }

    /** False once closed; otherwise asks the driver. */
    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (!enter()) {
            return false;
        }
        try {
            return delegate.isValid(timeout);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** Swaps in the closed sentinels; the physical connection is not touched. */
    private void detach() {
        delegate = ClosedSentinel.CONNECTION;
        ArrayList<AbstractProxyStatement<?>> statements = openStatements;
        if (statements != null) {
            openStatements = null;
            for (int i = 0; i < statements.size(); i++) {
                statements.get(i).detach();
            }
        }
    }

    private void evict(SQLException cause) {
        if (!evicted) {
            evicted = true;
            lease.evict(cause, stamp);
        }
    }

    // ---- shared by this class, its statements, result sets and metadata ----

    /** Whether the proxy is open; notices a reclaim by the pool and then closes without the physical connection. */
    boolean open() {
        if (delegate == ClosedSentinel.CONNECTION) {
            return false;
        }
        if (lease.ended(stamp)) {
            detach();
            return false;
        }
        return true;
    }

    /** Before a call that talks to the database: records activity for the abandoned timer; false if closed. */
    boolean enter() {
        if (!open()) {
            return false;
        }
        lease.touch();
        return true;
    }

    /**
     * Before a call that may reach the server without a statement's {@code executeX} (metadata, a type's lookup,
     * a server-side object): activity, and with auto-commit off perhaps a transaction ({@link #ranSql()}), which
     * the return then rolls back. False if closed.
     */
    boolean enterReaching() throws SQLException {
        if (!enter()) {
            return false;
        }
        ranSql();
        return true;
    }

    /**
     * Classifies an error from the driver: a fatal one evicts the connection. Returns {@code e} for rethrowing.
     * Errors from the sentinels (after close) and after a reclaim change nothing: the lease is no longer ours.
     */
    @Override
    SQLException failed(SQLException e) {
        if (!evicted && delegate != ClosedSentinel.CONNECTION && SqlErrors.evicts(e, lease.exceptionOverride()) && !lease.ended(stamp)) {
            evict(e);
        }
        return e;
    }

    /** The delegate for a call that talks to the database: the physical connection, or the sentinel once closed. */
    @Override
    Connection live() {
        enter();
        dirty |= WARNINGS;
        return delegate;
    }

    /** As {@link #live()}, for a call that may reach the server without a statement ({@link #enterReaching()}). */
    @Override
    Connection reaching() throws SQLException {
        dirty |= WARNINGS;
        enterReaching();
        return delegate;
    }

    /** As {@link #live()}, to make a statement: the statement carries its own warnings, closed at return. */
    Connection forStatements() {
        enter();
        return delegate;
    }

    /** As {@link #live()}, for a call that implies a transaction (a savepoint). */
    @Override
    Connection running() throws SQLException {
        if (enter()) {
            ranSql();
        }
        return delegate;
    }

    // ---- labels ----

    @Override
    public Map<String, String> labels() throws SQLException {
        if (!open()) {
            throw ClosedSentinel.connectionClosed();
        }
        return lease.labels();
    }

    @Override
    public void applyLabel(String key, String value) throws SQLException {
        Map<String, String> current = labels();
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (!value.equals(current.get(key))) {
            Map<String, String> next = new HashMap<>(current);
            next.put(key, value);
            lease.labels(Map.copyOf(next));
        }
    }

    @Override
    public void removeLabel(String key) throws SQLException {
        Map<String, String> current = labels();
        Objects.requireNonNull(key, "key");
        if (current.containsKey(key)) {
            Map<String, String> next = new HashMap<>(current);
            next.remove(key);
            lease.labels(Map.copyOf(next));
        }
    }

    // ---- wrappers: the proxies, never the physical objects, unless the holder unwraps to a driver type ----

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        try {
            return new ProxyDatabaseMetaData(this, reaching().getMetaData());
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        Connection c = live();
        if (c != ClosedSentinel.CONNECTION && iface.isInstance(this)) {
            return iface.cast(this);
        }
        try {
            T unwrapped = c.unwrap(iface);
            driverInHand();
            return unwrapped;
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        Connection c = live();
        if (c != ClosedSentinel.CONNECTION && iface.isInstance(this)) {
            return true;
        }
        try {
            return c.isWrapperFor(iface);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    // ---- statements, tracked for the return and from the statement cache: StatementMaking ----

    @Override
    public Statement createStatement() throws SQLException {
        return StatementMaking.createStatement(this);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        return StatementMaking.createStatement(this, resultSetType, resultSetConcurrency);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        return StatementMaking.createStatement(this, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        return StatementMaking.prepareStatement(this, sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        return StatementMaking.prepareStatement(this, sql, resultSetType, resultSetConcurrency);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
            int resultSetHoldability) throws SQLException {
        return StatementMaking.prepareStatement(this, sql, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        return StatementMaking.prepareStatement(this, sql, autoGeneratedKeys);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        return StatementMaking.prepareStatement(this, sql, columnIndexes);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return StatementMaking.prepareStatement(this, sql, columnNames);
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        return StatementMaking.prepareCall(this, sql);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        return StatementMaking.prepareCall(this, sql, resultSetType, resultSetConcurrency);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
            int resultSetHoldability) throws SQLException {
        return StatementMaking.prepareCall(this, sql, resultSetType, resultSetConcurrency, resultSetHoldability);
    }
}
