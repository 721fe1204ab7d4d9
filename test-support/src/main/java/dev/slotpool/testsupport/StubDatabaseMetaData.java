package dev.slotpool.testsupport;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;

/**
 * Metadata for a {@link StubConnection}. {@link DatabaseMetaData} has some 180 methods and pools read only a
 * handful (product name and version, driver name, URL, user, JDBC version, transaction support), so this
 * answers those through a dynamic proxy and throws {@link SQLFeatureNotSupportedException} for the rest.
 * Metadata is never on a benchmark's hot path, so the reflective dispatch costs nothing that matters.
 */
final class StubDatabaseMetaData implements InvocationHandler {

    private final StubConnection connection;

    private StubDatabaseMetaData(StubConnection connection) {
        this.connection = connection;
    }

    /** The metadata of a connection. */
    static DatabaseMetaData of(StubConnection connection) {
        return (DatabaseMetaData) Proxy.newProxyInstance(StubDatabaseMetaData.class.getClassLoader(),
                new Class<?>[] {DatabaseMetaData.class}, new StubDatabaseMetaData(connection));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        return switch (method.getName()) {
            case "getConnection" -> connection;
            case "getDatabaseProductName" -> connection.database().productName();
            case "getDatabaseProductVersion", "getDriverVersion" -> "1.0";
            case "getDriverName" -> "slotpool stub driver";
            case "getDatabaseMajorVersion", "getDriverMajorVersion" -> 1;
            case "getDatabaseMinorVersion", "getDriverMinorVersion" -> 0;
            case "getJDBCMajorVersion" -> 4;
            case "getJDBCMinorVersion" -> 3;
            case "getURL" -> connection.database().url();
            case "getUserName" -> connection.user();
            case "isReadOnly" -> connection.isReadOnly();
            case "getDefaultTransactionIsolation" -> Connection.TRANSACTION_READ_COMMITTED;
            case "supportsTransactions", "supportsTransactionIsolationLevel", "supportsBatchUpdates",
                    "supportsResultSetHoldability" -> true;
            case "supportsSavepoints", "supportsGetGeneratedKeys", "supportsStoredProcedures" -> false;
            case "supportsResultSetType" -> (int) args[0] == ResultSet.TYPE_FORWARD_ONLY;
            case "supportsResultSetConcurrency" ->
                    (int) args[0] == ResultSet.TYPE_FORWARD_ONLY && (int) args[1] == ResultSet.CONCUR_READ_ONLY;
            case "getResultSetHoldability" -> ResultSet.HOLD_CURSORS_OVER_COMMIT;
            case "getSQLStateType" -> DatabaseMetaData.sqlStateSQL;
            case "getIdentifierQuoteString" -> "\"";
            case "isWrapperFor" -> ((Class<?>) args[0]).isInstance(proxy);
            case "unwrap" -> unwrap(proxy, (Class<?>) args[0]);
            case "toString" -> "StubDatabaseMetaData[" + connection.database().name() + "]";
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            default -> throw new SQLFeatureNotSupportedException(
                    "DatabaseMetaData." + method.getName() + " is not supported by the stub driver");
        };
    }

    private static Object unwrap(Object proxy, Class<?> iface) throws SQLException {
        if (iface.isInstance(proxy)) {
            return proxy;
        }
        throw new SQLException("not a wrapper for " + iface.getName());
    }
}
