package dev.slotpool.jdbc;

import dev.slotpool.LabeledConnection;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
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
 * {@link #reaching()} and {@link #running()}; written here are the ones that track state for the return (the
 * setters, commit and rollback), make the holder's statements and metadata, and close.
 *
 * <p>Not thread-safe, on purpose: a borrow has one holder and a JDBC connection is used by one thread at a time,
 * so every field is plain. The pool's threads see only the lease, never this object.
 */
public final class ProxyConnection extends ConnectionDelegation implements LabeledConnection {

    // Dirty bits: the setters the holder called, so close() restores exactly those.
    private static final int AUTO_COMMIT = 1;
    private static final int ISOLATION = 1 << 1;
    private static final int READ_ONLY = 1 << 2;
    private static final int CATALOG = 1 << 3;
    private static final int SCHEMA = 1 << 4;
    private static final int NETWORK_TIMEOUT = 1 << 5;
    private static final int HOLDABILITY = 1 << 6;
    private static final int TYPE_MAP = 1 << 7;
    private static final int CLIENT_INFO = 1 << 8;
    /** The holder called the driver on the connection (not only to make statements): warnings may be left. */
    private static final int WARNINGS = 1 << 9;
    /** The holder has the driver's own connection, statement or metadata ({@code unwrap}): what it did through
     * them is unknown, so close() rolls back if the connection is not in auto-commit and restores every setting. */
    private static final int DRIVER_IN_HAND = 1 << 10;
    /** What close() restores after the holder had the driver's objects: every setting it has a default for
     * (the isolation level only where the session is the holder's alone: behind a transaction pooler it is
     * never set for the session). */
    private static final int EVERY_SETTING = AUTO_COMMIT | ISOLATION | READ_ONLY | CATALOG | SCHEMA
            | NETWORK_TIMEOUT | HOLDABILITY | WARNINGS;

    /** An argument of {@code prepareStatement} the holder did not give, in a statement cache key. */
    private static final int NONE = CachedStatement.NONE;

    /** For restoring the network timeout: drivers want an executor, but there is nothing to hand off at return. */
    private static final Executor INLINE = Runnable::run;

    private final ConnectionLease lease;
    /** The physical connection, or {@link ClosedSentinel#CONNECTION} once closed. */
    private Connection delegate;
    /** Statements the holder has not closed; created on the first one to keep the borrow to one allocation. */
    private ArrayList<AbstractProxyStatement<?>> openStatements;
    private int dirty;
    /** Behind a transaction pooler, the holder's isolation level for each of its transactions; -1: the
     * session's (the connection's default). Not dirty state: nothing was set on the connection. A byte (the
     * levels are 1 to 8): with the three booleans it fills the object's last 8 bytes, so a borrow allocates 48
     * bytes, not 56 (JMH connection cycle, -prof gc). */
    private byte isolation = -1;
    /** The auto-commit mode the physical connection is in, tracked to know whether a transaction can be open. */
    private boolean autoCommit;
    /** Set by statement work while auto-commit is off, cleared by commit and rollback: close() must roll back. */
    private boolean transactionMaybeOpen;
    /** This borrow's stamp: every lease call names the borrow, so a late one never reaches a later borrow. */
    private final long stamp;
    /** The lease was evicted by this proxy: evict once, and skip hygiene on a connection that will be closed. */
    private boolean evicted;

    /** The type map and client info before the holder first changed them (restored at return). */
    private Map<String, Class<?>> typeMapBefore;
    private Properties clientInfoBefore;

    /** Called by the pool once per borrow, with the stamp the pool lent it under; opens a JDBC 4.3 request where
     * the driver takes them. Never throws for the driver: the borrow is already lent, and without this proxy
     * nobody would return it. */
    public ProxyConnection(ConnectionLease lease, long stamp) {
        this.lease = lease;
        this.stamp = stamp;
        this.delegate = lease.physical();
        this.autoCommit = lease.defaults().autoCommit();
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
    public ConnectionLease lease() {
        return lease;
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
            closeOpenStatements();
            if (!evicted) {
                restoreDefaults();
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

    private void closeOpenStatements() {
        ArrayList<AbstractProxyStatement<?>> statements = openStatements;
        if (statements == null) {
            return;
        }
        // Not emptied here: detach() in close()'s finally swaps every statement, even if a driver throws midway.
        // A cached statement left open goes back to the cache as if its holder had closed it: release() makes it
        // as fresh as at a holder's close (and closes it when it cannot), and closing it would only make the
        // connection's next holder prepare it again.
        for (int i = 0; i < statements.size(); i++) {
            AbstractProxyStatement<?> statement = statements.get(i);
            CachedStatement cached = statement.cached();
            Statement physical = statement.detach();
            if (!evicted) {
                try {
                    if (cached != null) {
                        release(cached);
                    } else {
                        physical.close();
                    }
                } catch (SQLException e) {
                    // The holder is gone and the statement with it; only a dead connection matters.
                    failed(e);
                }
            }
        }
    }

    /** Return-time hygiene: roll back unfinished work, then undo the holder's settings, auto-commit first, and
     * end the JDBC 4.3 request. With the driver's objects in the holder's hands, whether a transaction is open
     * is asked of the driver, and every setting is restored. */
    private void restoreDefaults() throws SQLException {
        Connection c = delegate;
        if ((dirty & DRIVER_IN_HAND) != 0) {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
            dirty |= lease.sessionSharedPerTransaction() ? EVERY_SETTING & ~ISOLATION : EVERY_SETTING;
        } else if (transactionMaybeOpen) {
            c.rollback();
        }
        if (dirty != 0) {
            restoreChanged(c);
            if (!lease.defaults().autoCommit() && (dirty & ~(AUTO_COMMIT | WARNINGS)) != 0) {
                // With auto-commit off a setter may run its SQL inside a transaction it opens (pgjdbc's
                // setSchema): committed, so the setting sticks and the next holder finds no transaction open.
                c.commit();
            }
        }
        if (lease.defaults().requestBoundaries()) {
            c.endRequest();
        }
    }

    /** Puts back only what the holder changed: a clean return costs no call for it. */
    private void restoreChanged(Connection c) throws SQLException {
        ConnectionDefaults defaults = lease.defaults();
        // After the rollback: switching auto-commit on would otherwise commit the holder's work.
        if ((dirty & AUTO_COMMIT) != 0) {
            c.setAutoCommit(defaults.autoCommit());
        }
        if ((dirty & ISOLATION) != 0) {
            c.setTransactionIsolation(defaults.transactionIsolation());
        }
        if ((dirty & READ_ONLY) != 0) {
            c.setReadOnly(defaults.readOnly());
        }
        // A null default means the driver has no catalog or schema: there is nothing to go back to.
        if ((dirty & CATALOG) != 0 && defaults.catalog() != null) {
            c.setCatalog(defaults.catalog());
        }
        if ((dirty & SCHEMA) != 0 && defaults.schema() != null) {
            c.setSchema(defaults.schema());
        }
        if ((dirty & NETWORK_TIMEOUT) != 0) {
            c.setNetworkTimeout(INLINE, defaults.networkTimeoutMillis());
        }
        if ((dirty & HOLDABILITY) != 0 && defaults.holdability() != 0) {
            c.setHoldability(defaults.holdability());
        }
        if ((dirty & TYPE_MAP) != 0 && typeMapBefore != null) {
            c.setTypeMap(typeMapBefore);
        }
        if ((dirty & CLIENT_INFO) != 0 && clientInfoBefore != null) {
            c.setClientInfo(clientInfoBefore); // replaces the whole set: names the holder added are cleared
        }
        if ((dirty & WARNINGS) != 0) {
            c.clearWarnings();
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
     * After {@link #enter()} for SQL about to run: with auto-commit off it may open a transaction. Behind a
     * transaction pooler, the first SQL of a transaction is preceded by the holder's isolation level for that
     * transaction ({@link #setTransactionIsolation}).
     */
    void ranSql() throws SQLException {
        if (autoCommit) {
            return;
        }
        boolean first = !transactionMaybeOpen;
        transactionMaybeOpen = true;
        if (first && isolation >= 0) {
            try (Statement s = delegate.createStatement()) {
                s.execute("SET TRANSACTION ISOLATION LEVEL " + isolationSql(isolation));
            }
        }
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

    /** The holder got one of the driver's own objects through {@code unwrap}: see {@link #DRIVER_IN_HAND}. */
    void driverInHand() {
        dirty |= DRIVER_IN_HAND;
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
    private Connection forStatements() {
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

    /** The statement cache to prepare {@code sql} through, or null: none configured (one final-field read on the
     * lease), or no SQL (the driver reports that). */
    private StatementCache cacheFor(String sql) {
        StatementCache cache = lease.statementCache();
        return sql == null ? null : cache;
    }

    private PreparedStatement cachedPrepared(StatementCache cache, String sql, int type, int concurrency,
            int holdability, int generatedKeys, int[] columnIndexes, String[] columnNames) throws SQLException {
        try {
            CachedStatement cached = fromCache(cache, false, sql, type, concurrency, holdability, generatedKeys,
                    columnIndexes, columnNames);
            return track(new ProxyPreparedStatement<>(this, cached.statement, cached));
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    private CallableStatement cachedCall(StatementCache cache, String sql, int type, int concurrency,
            int holdability) throws SQLException {
        try {
            CachedStatement cached = fromCache(cache, true, sql, type, concurrency, holdability,
                    NONE, null, null);
            return track(new ProxyCallableStatement(this, (CallableStatement) cached.statement, cached));
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** An idle statement of the cache with this key (taken out: it is this holder's alone), else a new one. */
    private CachedStatement fromCache(StatementCache cache, boolean isCall, String sql, int type, int concurrency,
            int holdability, int generatedKeys, int[] columnIndexes, String[] columnNames) throws SQLException {
        Connection c = forStatements();
        if (c == ClosedSentinel.CONNECTION) {
            throw ClosedSentinel.connectionClosed();
        }
        CachedStatement cached = cache.take(isCall, sql, type, concurrency, holdability, generatedKeys,
                columnIndexes, columnNames);
        if (cached == null) {
            cached = new CachedStatement(isCall, sql, type, concurrency, holdability, generatedKeys, columnIndexes,
                    columnNames);
            cached.prepare(c);
        }
        return cached;
    }

    private <T extends AbstractProxyStatement<?>> T track(T statement) throws SQLException {
        if (openStatements == null) {
            openStatements = new ArrayList<>();
        }
        openStatements.add(statement);
        ranSql();
        return statement;
    }

    /**
     * A cached statement's holder is done with it (closed it, or returns the connection with it open): made fresh
     * ({@link CachedStatement#reset()}) and offered to the cache, or closed when the connection is evicted, the
     * holder did something that cannot be undone, the reset fails (a connection-level error then evicts), or the
     * cache keeps it out. Closes whatever statement the cache hands back (one it replaced).
     */
    void release(CachedStatement cached) throws SQLException {
        Statement toClose = cached.statement;
        if (!evicted && !cached.spoiled()) {
            try {
                cached.reset();
                toClose = lease.statementCache().put(cached);
            } catch (SQLException e) {
                failed(e);
            }
        }
        if (toClose != null) {
            toClose.close();
        }
    }

    /** Called by a statement the holder closed. Searched from the end: statements tend to close newest first. */
    void untrack(AbstractProxyStatement<?> statement) {
        ArrayList<AbstractProxyStatement<?>> statements = openStatements;
        if (statements == null) {
            return; // detached: the borrow ended under the holder (aborted or taken back)
        }
        for (int i = statements.size() - 1; i >= 0; i--) {
            if (statements.get(i) == statement) {
                statements.remove(i);
                return;
            }
        }
    }

    // ---- transactions and the settings hygiene restores ----

    @Override
    public void commit() throws SQLException {
        try {
            live().commit();
            transactionMaybeOpen = false;
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void rollback() throws SQLException {
        try {
            live().rollback();
            transactionMaybeOpen = false;
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    // Each setter marks its bit before the call (if the driver fails, the state is unknown: restore it) and
    // clears it when the holder put the default back, so a framework that sets and resets costs nothing at return.

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        Connection c = live();
        dirty |= AUTO_COMMIT;
        try {
            c.setAutoCommit(autoCommit);
        } catch (SQLException e) {
            throw failed(e);
        }
        this.autoCommit = autoCommit;
        if (autoCommit) {
            transactionMaybeOpen = false; // switching auto-commit on commits the open transaction
        }
        if (autoCommit == lease.defaults().autoCommit()) {
            dirty &= ~AUTO_COMMIT;
        }
    }

    /** The SQL name of a {@code Connection.TRANSACTION_*} level; null for another value. */
    private static String isolationSql(int level) {
        return switch (level) {
            case Connection.TRANSACTION_READ_UNCOMMITTED -> "READ UNCOMMITTED";
            case Connection.TRANSACTION_READ_COMMITTED -> "READ COMMITTED";
            case Connection.TRANSACTION_REPEATABLE_READ -> "REPEATABLE READ";
            case Connection.TRANSACTION_SERIALIZABLE -> "SERIALIZABLE";
            default -> null;
        };
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        if (lease.sessionSharedPerTransaction()) {
            // pgjdbc would SET it for the server session, which a transaction pooler shares with other clients;
            // kept here and applied at the start of each of the holder's transactions instead (ranSql).
            live();
            if (transactionMaybeOpen) {
                throw new SQLException("cannot change the isolation level in the middle of a transaction", "25001");
            }
            if (isolationSql(level) == null) {
                throw new SQLException("unknown transaction isolation level " + level, "HY024");
            }
            isolation = level == lease.defaults().transactionIsolation() ? -1 : (byte) level;
            return;
        }
        Connection c = live();
        dirty |= ISOLATION;
        try {
            c.setTransactionIsolation(level);
        } catch (SQLException e) {
            throw failed(e);
        }
        if (level == lease.defaults().transactionIsolation()) {
            dirty &= ~ISOLATION;
        }
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        Connection c = live();
        dirty |= READ_ONLY;
        try {
            c.setReadOnly(readOnly);
        } catch (SQLException e) {
            throw failed(e);
        }
        if (readOnly == lease.defaults().readOnly()) {
            dirty &= ~READ_ONLY;
        }
    }

    @Override
    public void setCatalog(String catalog) throws SQLException {
        Connection c = live();
        dirty |= CATALOG;
        try {
            c.setCatalog(catalog);
        } catch (SQLException e) {
            throw failed(e);
        }
        if (Objects.equals(catalog, lease.defaults().catalog())) {
            dirty &= ~CATALOG;
        }
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        Connection c = live();
        if (lease.sessionSharedPerTransaction() && !Objects.equals(schema, lease.defaults().schema())) {
            // pgjdbc would SET search_path for the server session, which the pooler gives other clients between
            // this holder's transactions; a statement in auto-commit mode could also run on a session without it.
            throw new SQLFeatureNotSupportedException("setSchema is refused behind a transaction pooler: it would "
                    + "change a server session other clients share. Qualify names with the schema, or run SET LOCAL "
                    + "search_path inside the transaction", "0A000");
        }
        dirty |= SCHEMA;
        try {
            c.setSchema(schema);
        } catch (SQLException e) {
            throw failed(e);
        }
        if (Objects.equals(schema, lease.defaults().schema())) {
            dirty &= ~SCHEMA;
        }
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        Connection c = live();
        dirty |= NETWORK_TIMEOUT;
        try {
            c.setNetworkTimeout(executor, milliseconds);
        } catch (SQLException e) {
            throw failed(e);
        }
        if (milliseconds == lease.defaults().networkTimeoutMillis()) {
            dirty &= ~NETWORK_TIMEOUT;
        }
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        if (isolation >= 0) {
            live();
            return isolation;
        }
        try {
            return live().getTransactionIsolation();
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        try {
            Connection c = live();
            if ((dirty & TYPE_MAP) == 0) {
                typeMapBefore = c.getTypeMap();
                dirty |= TYPE_MAP;
            }
            c.setTypeMap(map);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        Connection c = live();
        dirty |= HOLDABILITY;
        try {
            c.setHoldability(holdability);
        } catch (SQLException e) {
            throw failed(e);
        }
        if (holdability == lease.defaults().holdability()) {
            dirty &= ~HOLDABILITY;
        }
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

    // setClientInfo declares only SQLClientInfoException, so failed() cannot be rethrown as it is elsewhere.

    /** Before the holder's first change: the client info to restore at return (read once per borrow). */
    private void rememberClientInfo(Connection c) throws SQLClientInfoException {
        if ((dirty & CLIENT_INFO) != 0) {
            return;
        }
        try {
            Properties before = new Properties();
            before.putAll(c.getClientInfo());
            clientInfoBefore = before;
        } catch (SQLException e) {
            clientInfoBefore = null; // the driver cannot say: nothing to restore to
        }
        dirty |= CLIENT_INFO;
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        try {
            Connection c = live();
            rememberClientInfo(c);
            c.setClientInfo(name, value);
        } catch (SQLClientInfoException e) {
            failed(e);
            throw e;
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        try {
            Connection c = live();
            rememberClientInfo(c);
            c.setClientInfo(properties);
        } catch (SQLClientInfoException e) {
            failed(e);
            throw e;
        }
    }

    // ---- statements: tracked for the return, from the statement cache when the connection has one ----

    @Override
    public Statement createStatement() throws SQLException {
        try {
            return track(new ProxyStatement(this, forStatements().createStatement()));
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        StatementCache cache = cacheFor(sql);
        if (cache != null) {
            return cachedPrepared(cache, sql, NONE, NONE, NONE, NONE, null, null);
        }
        try {
            return track(new ProxyPreparedStatement<>(this, forStatements().prepareStatement(sql)));
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        StatementCache cache = cacheFor(sql);
        if (cache != null) {
            return cachedCall(cache, sql, NONE, NONE, NONE);
        }
        try {
            return track(new ProxyCallableStatement(this, forStatements().prepareCall(sql)));
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        try {
            return track(new ProxyStatement(this, forStatements().createStatement(resultSetType, resultSetConcurrency)));
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        StatementCache cache = cacheFor(sql);
        if (cache != null) {
            return cachedPrepared(cache, sql, resultSetType, resultSetConcurrency, NONE, NONE, null, null);
        }
        try {
            return track(new ProxyPreparedStatement<>(this, forStatements().prepareStatement(
                    sql, resultSetType, resultSetConcurrency)));
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        StatementCache cache = cacheFor(sql);
        if (cache != null) {
            return cachedCall(cache, sql, resultSetType, resultSetConcurrency, NONE);
        }
        try {
            return track(new ProxyCallableStatement(this, forStatements().prepareCall(
                    sql, resultSetType, resultSetConcurrency)));
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        try {
            return track(new ProxyStatement(this, forStatements().createStatement(
                    resultSetType, resultSetConcurrency, resultSetHoldability)));
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
            int resultSetHoldability) throws SQLException {
        StatementCache cache = cacheFor(sql);
        if (cache != null) {
            return cachedPrepared(cache, sql, resultSetType, resultSetConcurrency, resultSetHoldability, NONE, null,
                    null);
        }
        try {
            return track(new ProxyPreparedStatement<>(this, forStatements().prepareStatement(
                    sql, resultSetType, resultSetConcurrency, resultSetHoldability)));
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
            int resultSetHoldability) throws SQLException {
        StatementCache cache = cacheFor(sql);
        if (cache != null) {
            return cachedCall(cache, sql, resultSetType, resultSetConcurrency, resultSetHoldability);
        }
        try {
            return track(new ProxyCallableStatement(this, forStatements().prepareCall(
                    sql, resultSetType, resultSetConcurrency, resultSetHoldability)));
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        StatementCache cache = cacheFor(sql);
        if (cache != null) {
            return cachedPrepared(cache, sql, NONE, NONE, NONE, autoGeneratedKeys, null, null);
        }
        try {
            return track(new ProxyPreparedStatement<>(this, forStatements().prepareStatement(sql, autoGeneratedKeys)));
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        StatementCache cache = cacheFor(sql);
        if (cache != null) {
            return cachedPrepared(cache, sql, NONE, NONE, NONE, NONE, columnIndexes, null);
        }
        try {
            return track(new ProxyPreparedStatement<>(this, forStatements().prepareStatement(sql, columnIndexes)));
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        StatementCache cache = cacheFor(sql);
        if (cache != null) {
            return cachedPrepared(cache, sql, NONE, NONE, NONE, NONE, null, columnNames);
        }
        try {
            return track(new ProxyPreparedStatement<>(this, forStatements().prepareStatement(sql, columnNames)));
        } catch (SQLException e) {
            throw failed(e);
        }
    }
}
