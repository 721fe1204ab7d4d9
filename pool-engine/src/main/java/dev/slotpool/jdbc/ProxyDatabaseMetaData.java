package dev.slotpool.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The proxy of a driver's {@link DatabaseMetaData}: {@code getConnection()} answers the proxy connection, the
 * result sets it returns are {@link ProxyResultSet}s (whose {@code getStatement()} is {@code null}, as JDBC
 * allows for metadata), and fatal errors evict the connection. Once the connection is closed every call goes to
 * the closed sentinel, since metadata queries run on the physical connection. Each call counts as SQL that may
 * open a transaction (the return rolls it back), and an {@code unwrap} to the driver's type as the driver in the
 * holder's hands ({@link ProxyConnection#driverInHand()}).
 *
 * <p>A dynamic proxy: the interface's some 180 other methods all delegate alike, and metadata is a cold path
 * where a reflective call costs nothing that matters. Not thread-safe, on purpose: used by the holder's thread.
 */
final class ProxyDatabaseMetaData implements InvocationHandler {

    /** The proxy's interfaces ({@link DynamicProxies}). */
    static final List<Class<?>> INTERFACES = List.of(DatabaseMetaData.class);

    private final ProxyConnection connection;
    private final DatabaseMetaData delegate;

    private ProxyDatabaseMetaData(ProxyConnection connection, DatabaseMetaData delegate) {
        this.connection = connection;
        this.delegate = delegate;
    }

    static DatabaseMetaData of(ProxyConnection connection, DatabaseMetaData delegate) {
        return (DatabaseMetaData) Proxy.newProxyInstance(DatabaseMetaData.class.getClassLoader(),
                INTERFACES.toArray(new Class<?>[0]), new ProxyDatabaseMetaData(connection, delegate));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        DatabaseMetaData live = connection.open() ? delegate : ClosedSentinel.METADATA;
        switch (method.getName()) {
            case "getConnection" -> {
                if (live == ClosedSentinel.METADATA) {
                    throw ClosedSentinel.connectionClosed();
                }
                return connection;
            }
            case "unwrap", "isWrapperFor" -> {
                if (live != ClosedSentinel.METADATA && ((Class<?>) args[0]).isInstance(proxy)) {
                    return method.getName().equals("unwrap") ? proxy : Boolean.TRUE;
                }
            }
            case "equals" -> {
                return proxy == args[0];
            }
            case "hashCode" -> {
                return System.identityHashCode(proxy);
            }
            case "toString" -> {
                return "ProxyDatabaseMetaData[" + delegate + "]";
            }
            default -> { }
        }
        Object result;
        try {
            if (live != ClosedSentinel.METADATA) {
                // Most metadata calls query the server, which with auto-commit off opens a transaction.
                connection.enterReaching();
            }
            result = method.invoke(live, args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof SQLException sql ? connection.failed(sql) : e.getCause();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
        if (method.getName().equals("unwrap")) {
            connection.driverInHand();
        }
        return result instanceof ResultSet rs ? new ProxyResultSet(connection, null, rs) : result;
    }
}
