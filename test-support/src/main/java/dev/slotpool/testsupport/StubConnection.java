package dev.slotpool.testsupport;

import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.ClientInfoStatus;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A connection to a {@link StubDatabase} that keeps real session state (auto-commit, isolation, read-only,
 * catalog, schema, holdability, network timeout, client info) so pools can read, change and restore it.
 *
 * <p>Like a real connection it is meant for one thread at a time; only the closed/aborted/broken flags are
 * safe to touch from other threads. Every method except {@code close}, {@code abort}, {@code isClosed},
 * {@code isValid} and the wrapper methods fails with SQLState 08003 once the connection has ended and with
 * 08006 once it is killed or broken. Savepoints and LOB, array and struct factories are not supported.
 */
public final class StubConnection implements DrcpConnection {

    private static final int OPEN = 0;
    private static final int CLOSED = 1;
    private static final int ABORTED = 2;
    private static final AtomicIntegerFieldUpdater<StubConnection> STATE =
            AtomicIntegerFieldUpdater.newUpdater(StubConnection.class, "state");

    private final StubDatabase database;
    private final String user;
    private final long queryDelayNanos;
    private final int killEpoch;
    /** Numbers the connection in its database's {@link StubDatabase#calls()}. */
    private final int id;
    private volatile int state = OPEN;
    private volatile boolean broken;

    private boolean autoCommit = true;
    private boolean inTransaction;
    private int transactionIsolation = TRANSACTION_READ_COMMITTED;
    private boolean readOnly;
    private String catalog;
    private String schema = "PUBLIC";
    private int holdability = ResultSet.HOLD_CURSORS_OVER_COMMIT;
    private volatile int networkTimeoutMillis;
    private Map<String, Class<?>> typeMap = Map.of();
    private Properties clientInfo;
    private long commits;
    private long rollbacks;
    /** DRCP: a pooled server is attached (a new session is, after its login) and the tag of the last detach. */
    private boolean attached = true;
    private String tag;

    StubConnection(StubDatabase database, String user, long queryDelayNanos, int killEpoch) {
        this.database = database;
        this.user = user;
        this.queryDelayNanos = queryDelayNanos;
        this.killEpoch = killEpoch;
        this.catalog = database.name();
        this.id = database.nextConnectionId();
    }

    /** The database this connection belongs to. */
    public StubDatabase database() {
        return database;
    }

    /** Calls of {@link #commit()}, plus implicit commits by {@code setAutoCommit(true)} inside a transaction. */
    public long commits() {
        return commits;
    }

    /** Calls of {@link #rollback()}. */
    public long rollbacks() {
        return rollbacks;
    }

    String user() {
        return user;
    }

    /** Fails unless the connection is open and neither killed nor broken. */
    void checkUsable() throws SQLException {
        if (state != OPEN) {
            throw StubErrors.connectionClosed();
        }
        if (killedOrBroken()) {
            throw StubErrors.connectionReset();
        }
    }

    private boolean killedOrBroken() {
        return broken || database.killEpoch() != killEpoch;
    }

    /**
     * Runs one statement execution for a {@link StubStatement}: counts it, applies an injected failure
     * (a class 08 state also breaks this connection), then waits out the query delay.
     */
    void execute() throws SQLException {
        checkUsable();
        String failure = database.beginQuery();
        if (failure != null) {
            if (failure.startsWith("08")) {
                broken = true;
            }
            throw new SQLException("stub database " + database.name() + ": injected query failure", failure);
        }
        long delay = queryDelayNanos != ConnectionUrl.UNSET ? queryDelayNanos : database.queryDelayNanos();
        if (delay > 0) {
            try {
                Pause.nanos(delay);
            } catch (InterruptedException e) {
                throw StubErrors.interrupted("query interrupted", "57014", e);
            }
            checkUsable();
        }
        if (!autoCommit) {
            inTransaction = true;
        }
        database.record(id, "execute");
    }

    // ---- lifecycle -----------------------------------------------------------------------------------

    /**
     * Takes the database's close delay (cut short by the network timeout), then ends the connection; a killed or
     * broken connection (its socket reset) ends at once.
     */
    @Override
    public void close() {
        if (state == OPEN && !killedOrBroken()) {
            sayGoodbye();
        }
        if (STATE.compareAndSet(this, OPEN, CLOSED)) {
            database.ended(false);
        }
    }

    /** Like {@link #close()}; the executor is not needed because the stub holds no resources. */
    @Override
    public void abort(Executor executor) throws SQLException {
        if (executor == null) {
            throw StubErrors.invalidArgument("executor is null");
        }
        if (state == OPEN && !killedOrBroken()) {
            sayGoodbye();
        }
        if (STATE.compareAndSet(this, OPEN, ABORTED)) {
            database.ended(true);
        }
    }

    /** The database's close delay, at most the network timeout when one is set; an interrupt ends it early. */
    private void sayGoodbye() {
        long wait = database.closeDelayNanos();
        if (networkTimeoutMillis > 0) {
            wait = Math.min(wait, TimeUnit.MILLISECONDS.toNanos(networkTimeoutMillis));
        }
        try {
            Pause.nanos(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isClosed() {
        return state != OPEN;
    }

    /**
     * False once ended, killed or broken; takes the database's validation delay, capped at the timeout and at
     * the network timeout if one is set (as the PostgreSQL driver does: its isValid only ever lowers the socket
     * timeout, so a shorter network timeout wins).
     */
    @Override
    public boolean isValid(int timeoutSeconds) throws SQLException {
        if (timeoutSeconds < 0) {
            throw StubErrors.invalidArgument("timeout must not be negative: " + timeoutSeconds);
        }
        if (state != OPEN) {
            return false;
        }
        database.countValidation();
        database.record(id, "isValid");
        long delay = database.validationDelayNanos();
        if (delay > 0) {
            long wait = timeoutSeconds == 0 ? delay : Math.min(delay, TimeUnit.SECONDS.toNanos(timeoutSeconds));
            if (networkTimeoutMillis > 0) {
                wait = Math.min(wait, TimeUnit.MILLISECONDS.toNanos(networkTimeoutMillis));
            }
            if (database.ignoresInterrupts()) {
                Pause.uninterruptibly(wait);
            } else {
                try {
                    Pause.nanos(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            if (wait < delay) {
                return false;
            }
        }
        return state == OPEN && !killedOrBroken();
    }

    // ---- statements ----------------------------------------------------------------------------------

    @Override
    public Statement createStatement() throws SQLException {
        return createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability);
    }

    @Override
    public Statement createStatement(int type, int concurrency) throws SQLException {
        return createStatement(type, concurrency, holdability);
    }

    @Override
    public Statement createStatement(int type, int concurrency, int holdability) throws SQLException {
        checkStatementOptions(type, concurrency, holdability);
        return new StubStatement(this, holdability, false);
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        return prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int type, int concurrency) throws SQLException {
        return prepareStatement(sql, type, concurrency, holdability);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int type, int concurrency, int holdability)
            throws SQLException {
        checkStatementOptions(type, concurrency, holdability);
        return new StubPreparedStatement(this, holdability, sql);
    }

    /** Generated keys are not produced; the flag is accepted so pools can pass it through. */
    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        return prepareCall(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability);
    }

    @Override
    public CallableStatement prepareCall(String sql, int type, int concurrency) throws SQLException {
        return prepareCall(sql, type, concurrency, holdability);
    }

    @Override
    public CallableStatement prepareCall(String sql, int type, int concurrency, int holdability)
            throws SQLException {
        checkStatementOptions(type, concurrency, holdability);
        return new StubCallableStatement(this, holdability, sql);
    }

    /** Only forward-only, read-only result sets exist; holdability must be one of the two JDBC values. */
    private void checkStatementOptions(int type, int concurrency, int holdability) throws SQLException {
        checkUsable();
        if (type != ResultSet.TYPE_FORWARD_ONLY || concurrency != ResultSet.CONCUR_READ_ONLY) {
            throw StubErrors.unsupported();
        }
        checkHoldability(holdability);
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkUsable();
        return sql;
    }

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkUsable();
        return StubDatabaseMetaData.of(this);
    }

    // ---- transactions --------------------------------------------------------------------------------

    /** Switching auto-commit on inside a transaction commits it, as JDBC requires. */
    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkUsable();
        if (autoCommit && !this.autoCommit && inTransaction) {
            commits++;
        }
        if (autoCommit) {
            inTransaction = false;
        }
        this.autoCommit = autoCommit;
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkUsable();
        return autoCommit;
    }

    /** Fails in auto-commit mode, as real drivers do, so a pool committing needlessly is caught. */
    @Override
    public void commit() throws SQLException {
        checkManualCommit("commit");
        commits++;
        inTransaction = false;
    }

    /** Fails in auto-commit mode, as real drivers do, so a pool rolling back needlessly is caught. */
    @Override
    public void rollback() throws SQLException {
        checkManualCommit("rollback");
        database.record(id, "rollback");
        rollbacks++;
        inTransaction = false;
    }

    private void checkManualCommit(String operation) throws SQLException {
        checkUsable();
        if (autoCommit) {
            throw new SQLException(operation + " is not allowed in auto-commit mode", "25000");
        }
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkUsable();
        if (level != TRANSACTION_READ_UNCOMMITTED && level != TRANSACTION_READ_COMMITTED
                && level != TRANSACTION_REPEATABLE_READ && level != TRANSACTION_SERIALIZABLE) {
            throw StubErrors.invalidArgument("invalid transaction isolation level: " + level);
        }
        transactionIsolation = level;
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkUsable();
        return transactionIsolation;
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        throw StubErrors.unsupported();
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        throw StubErrors.unsupported();
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        throw StubErrors.unsupported();
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        throw StubErrors.unsupported();
    }

    // ---- session state -------------------------------------------------------------------------------

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkUsable();
        database.throwIfInjected("setReadOnly");
        this.readOnly = readOnly;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkUsable();
        return readOnly;
    }

    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkUsable();
        this.catalog = catalog;
    }

    /** Defaults to the database name. */
    @Override
    public String getCatalog() throws SQLException {
        checkUsable();
        return catalog;
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        checkUsable();
        this.schema = schema;
    }

    /** Defaults to {@code PUBLIC}. */
    @Override
    public String getSchema() throws SQLException {
        checkUsable();
        return schema;
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkUsable();
        checkHoldability(holdability);
        this.holdability = holdability;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkUsable();
        return holdability;
    }

    private static void checkHoldability(int holdability) throws SQLException {
        if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT && holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT) {
            throw StubErrors.invalidArgument("invalid holdability: " + holdability);
        }
    }

    /** Stored and reported back; statements do not time out. */
    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        checkUsable();
        if (executor == null) {
            throw StubErrors.invalidArgument("executor is null");
        }
        if (milliseconds < 0) {
            throw StubErrors.invalidArgument("network timeout must not be negative: " + milliseconds);
        }
        networkTimeoutMillis = milliseconds;
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        checkUsable();
        return networkTimeoutMillis;
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkUsable();
        return new HashMap<>(typeMap);
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        checkUsable();
        typeMap = Map.copyOf(map);
    }

    /** Warnings never occur; returns null. */
    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkUsable();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkUsable();
    }

    // ---- client info ---------------------------------------------------------------------------------

    /** A null value removes the property. */
    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        checkClientInfoUsable(name);
        if (value == null) {
            if (clientInfo != null) {
                clientInfo.remove(name);
            }
        } else {
            clientInfo().setProperty(name, value);
        }
    }

    /** Replaces all client info properties. */
    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        checkClientInfoUsable(null);
        clientInfo().clear();
        clientInfo.putAll(properties);
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkUsable();
        return clientInfo == null ? null : clientInfo.getProperty(name);
    }

    /** A copy of the client info properties. */
    @Override
    public Properties getClientInfo() throws SQLException {
        checkUsable();
        Properties copy = new Properties();
        if (clientInfo != null) {
            copy.putAll(clientInfo);
        }
        return copy;
    }

    private Properties clientInfo() {
        if (clientInfo == null) {
            clientInfo = new Properties();
        }
        return clientInfo;
    }

    private void checkClientInfoUsable(String name) throws SQLClientInfoException {
        try {
            checkUsable();
        } catch (SQLException e) {
            Map<String, ClientInfoStatus> failed = name == null ? Map.of() : Map.of(name, ClientInfoStatus.REASON_UNKNOWN);
            throw new SQLClientInfoException(e.getMessage(), e.getSQLState(), failed, e);
        }
    }

    // ---- unsupported factories -----------------------------------------------------------------------

    @Override
    public Clob createClob() throws SQLException {
        throw StubErrors.unsupported();
    }

    @Override
    public Blob createBlob() throws SQLException {
        throw StubErrors.unsupported();
    }

    @Override
    public NClob createNClob() throws SQLException {
        throw StubErrors.unsupported();
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        throw StubErrors.unsupported();
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        throw StubErrors.unsupported();
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        throw StubErrors.unsupported();
    }

    // ---- request boundaries and DRCP ------------------------------------------------------------------

    @Override
    public void beginRequest() {
        database.record(id, "beginRequest");
    }

    @Override
    public void endRequest() {
        database.record(id, "endRequest");
    }

    @Override
    public boolean attachServerConnection() throws SQLException {
        checkUsable();
        database.record(id, "attach");
        SQLException failure = database.attachFailure();
        if (failure != null) {
            throw failure;
        }
        attached = true;
        return tag == null || database.keepsTags();
    }

    @Override
    public void detachServerConnection(String tag) throws SQLException {
        checkUsable();
        database.record(id, "detach " + tag);
        SQLException failure = database.detachFailure();
        if (failure != null) {
            throw failure;
        }
        attached = false;
        this.tag = tag;
    }

    /** Whether a DRCP pooled server is attached: true from the login until a detach, and again after an attach. */
    public boolean attached() {
        return attached;
    }

    // ---- wrapper -------------------------------------------------------------------------------------

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

    /** Names the database, user and state only; the password never reaches a connection. */
    @Override
    public String toString() {
        String status = switch (state) {
            case OPEN -> "open";
            case CLOSED -> "closed";
            default -> "aborted";
        };
        return "StubConnection[database=" + database.name() + ", user=" + user + ", " + status + "]";
    }
}
