package dev.slotpool.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The proxy of a driver's {@link DatabaseMetaData}: {@code getConnection()} answers the proxy connection, the
 * result sets it returns are {@link ProxyResultSet}s (whose {@code getStatement()} is {@code null}, as JDBC
 * allows for metadata), and fatal errors evict the connection. Once the connection is closed every call goes to
 * the closed sentinel, since metadata queries run on the physical connection. Each call counts as SQL that may
 * open a transaction (the return rolls it back), and an {@code unwrap} to the driver's type as the driver in the
 * holder's hands ({@link ProxyConnection#driverInHand()}). The other methods all delegate alike
 * ({@link DatabaseMetaDataDelegation}, generated, through {@link #reaching()}).
 *
 * <p>Not thread-safe, on purpose: used by the holder's thread.
 */
final class ProxyDatabaseMetaData extends DatabaseMetaDataDelegation {

    private final ProxyConnection connection;
    private final DatabaseMetaData delegate;

    ProxyDatabaseMetaData(ProxyConnection connection, DatabaseMetaData delegate) {
        this.connection = connection;
        this.delegate = delegate;
    }

    /** The driver's metadata while the connection is open, else the sentinel. Most metadata calls query the
     * server, which with auto-commit off opens a transaction ({@link ProxyConnection#enterReaching()}). */
    @Override
    DatabaseMetaData reaching() throws SQLException {
        if (!connection.open()) {
            return ClosedSentinel.METADATA;
        }
        connection.enterReaching();
        return delegate;
    }

    @Override
    SQLException failed(SQLException e) {
        return connection.failed(e);
    }

    @Override
    ResultSet wrap(ResultSet resultSet) {
        return resultSet == null ? null : new ProxyResultSet(connection, null, resultSet);
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (!connection.open()) {
            throw ClosedSentinel.connectionClosed();
        }
        return connection;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (connection.open() && iface.isInstance(this)) {
            return iface.cast(this);
        }
        try {
            T unwrapped = reaching().unwrap(iface);
            connection.driverInHand();
            return unwrapped;
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        if (connection.open() && iface.isInstance(this)) {
            return true;
        }
        try {
            return reaching().isWrapperFor(iface);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** The driver's own version: activity, but no server round trip, so no transaction (and JDBC declares no
     * SQLException here: once the connection is closed, the sentinel's failure arrives unchecked). */
    @Override
    public int getDriverMajorVersion() {
        return (connection.enter() ? delegate : ClosedSentinel.METADATA).getDriverMajorVersion();
    }

    /** As {@link #getDriverMajorVersion()}. */
    @Override
    public int getDriverMinorVersion() {
        return (connection.enter() ? delegate : ClosedSentinel.METADATA).getDriverMinorVersion();
    }

    @Override
    public String toString() {
        return "ProxyDatabaseMetaData[" + delegate + "]";
    }
}
