package dev.slotpool.jdbc;

import java.sql.Connection;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.Executor;

/**
 * The session state a borrow changes, the part of {@link ProxyConnection} that tracks it for the return
 * ({@link ReturnCleanup}): each setter records in the dirty bits what the return must restore, commit and
 * rollback end the transaction statement work may have opened, and behind a transaction pooler the rules keep
 * the holder from changing a server session other clients share (the isolation level is kept per transaction, a
 * schema change is refused).
 *
 * <p>A superclass, not a helper object, so a borrow still allocates only its proxy. Not thread-safe, on purpose:
 * see {@link ProxyConnection}.
 */
abstract class SessionSettings extends ConnectionDelegation {

    // Dirty bits: the setters the holder called, so close() restores exactly those.
    static final int AUTO_COMMIT = 1;
    static final int ISOLATION = 1 << 1;
    static final int READ_ONLY = 1 << 2;
    static final int CATALOG = 1 << 3;
    static final int SCHEMA = 1 << 4;
    static final int NETWORK_TIMEOUT = 1 << 5;
    static final int HOLDABILITY = 1 << 6;
    static final int TYPE_MAP = 1 << 7;
    static final int CLIENT_INFO = 1 << 8;
    /** The holder called the driver on the connection (not only to make statements): warnings may be left. */
    static final int WARNINGS = 1 << 9;
    /** The holder has the driver's own connection, statement or metadata ({@code unwrap}): what it did through
     * them is unknown, so close() rolls back if the connection is not in auto-commit and restores every setting. */
    static final int DRIVER_IN_HAND = 1 << 10;

    int dirty;
    /** Behind a transaction pooler, the holder's isolation level for each of its transactions; -1: the
     * session's (the connection's default). Not dirty state: nothing was set on the connection. A byte (the
     * levels are 1 to 8): with the two booleans here and the proxy's {@code evicted} it fills one 4-byte word,
     * so a borrow allocates 48 bytes, not 56 (the proxy's layout by JOL; JMH connection cycle, -prof gc). */
    byte isolation = -1;
    /** The auto-commit mode the physical connection is in, tracked to know whether a transaction can be open. */
    boolean autoCommit;
    /** Set by statement work while auto-commit is off, cleared by commit and rollback: close() must roll back. */
    boolean transactionMaybeOpen;
    /** The type map and client info before the holder first changed them (restored at return). */
    Map<String, Class<?>> typeMapBefore;
    Properties clientInfoBefore;

    SessionSettings(boolean autoCommit) {
        this.autoCommit = autoCommit;
    }

    /** The lease of the borrow, whose defaults the settings are compared with. */
    abstract ConnectionLease lease();

    /** The physical connection, or the closed sentinel once the borrow ended. */
    abstract Connection physical();

    /** Declared without the exception: setClientInfo may throw only SQLClientInfoException. */
    @Override
    abstract Connection live();

    /**
     * After {@link ProxyConnection#enter()} for SQL about to run: with auto-commit off it may open a
     * transaction. Behind a transaction pooler, the first SQL of a transaction is preceded by the holder's
     * isolation level for that transaction ({@link #setTransactionIsolation}).
     */
    final void ranSql() throws SQLException {
        if (autoCommit) {
            return;
        }
        boolean first = !transactionMaybeOpen;
        transactionMaybeOpen = true;
        if (first && isolation >= 0) {
            try (Statement s = physical().createStatement()) {
                s.execute("SET TRANSACTION ISOLATION LEVEL " + isolationSql(isolation));
            }
        }
    }

    /** The holder got one of the driver's own objects through {@code unwrap}: see {@link #DRIVER_IN_HAND}. */
    final void driverInHand() {
        dirty |= DRIVER_IN_HAND;
    }

    @Override
    public final void commit() throws SQLException {
        try {
            live().commit();
            transactionMaybeOpen = false;
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public final void rollback() throws SQLException {
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
    public final void setAutoCommit(boolean autoCommit) throws SQLException {
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
        if (autoCommit == lease().defaults().autoCommit()) {
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
    public final void setTransactionIsolation(int level) throws SQLException {
        ConnectionLease lease = lease();
        if (lease.sessionSharedPerTransaction()) {
            // pgjdbc would SET it for the server session, which a transaction pooler shares with other clients;
            // kept in the proxy and applied at the start of each of the holder's transactions instead (ranSql).
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
    public final int getTransactionIsolation() throws SQLException {
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
    public final void setReadOnly(boolean readOnly) throws SQLException {
        Connection c = live();
        dirty |= READ_ONLY;
        try {
            c.setReadOnly(readOnly);
        } catch (SQLException e) {
            throw failed(e);
        }
        if (readOnly == lease().defaults().readOnly()) {
            dirty &= ~READ_ONLY;
        }
    }

    @Override
    public final void setCatalog(String catalog) throws SQLException {
        Connection c = live();
        dirty |= CATALOG;
        try {
            c.setCatalog(catalog);
        } catch (SQLException e) {
            throw failed(e);
        }
        if (Objects.equals(catalog, lease().defaults().catalog())) {
            dirty &= ~CATALOG;
        }
    }

    @Override
    public final void setSchema(String schema) throws SQLException {
        Connection c = live();
        ConnectionLease lease = lease();
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
    public final void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        Connection c = live();
        dirty |= NETWORK_TIMEOUT;
        try {
            c.setNetworkTimeout(executor, milliseconds);
        } catch (SQLException e) {
            throw failed(e);
        }
        if (milliseconds == lease().defaults().networkTimeoutMillis()) {
            dirty &= ~NETWORK_TIMEOUT;
        }
    }

    @Override
    public final void setTypeMap(Map<String, Class<?>> map) throws SQLException {
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
    public final void setHoldability(int holdability) throws SQLException {
        Connection c = live();
        dirty |= HOLDABILITY;
        try {
            c.setHoldability(holdability);
        } catch (SQLException e) {
            throw failed(e);
        }
        if (holdability == lease().defaults().holdability()) {
            dirty &= ~HOLDABILITY;
        }
    }

    // setClientInfo declares only SQLClientInfoException, so failed() cannot be rethrown as it is elsewhere.

    @Override
    public final void setClientInfo(String name, String value) throws SQLClientInfoException {
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
    public final void setClientInfo(Properties properties) throws SQLClientInfoException {
        try {
            Connection c = live();
            rememberClientInfo(c);
            c.setClientInfo(properties);
        } catch (SQLClientInfoException e) {
            failed(e);
            throw e;
        }
    }

    /** Before the holder's first change: the client info to restore at return (read once per borrow). */
    private void rememberClientInfo(Connection c) {
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
}
