package dev.slotpool.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The delegates a proxy swaps in when it closes: every JDBC method on them throws, so a closed proxy needs no
 * "am I closed?" check on its hot paths and can never reach a physical connection that is back in the pool (S1).
 *
 * <p>They are {@link Proxy} instances: reflection is slow, but they are only called after close, by code that is
 * already wrong.
 */
final class ClosedSentinel {

    /** SQLState 08003: connection does not exist. */
    private static final String CONNECTION_DOES_NOT_EXIST = "08003";

    /** The interface set of every proxy {@link #sentinel} made, in order ({@link DynamicProxies}). */
    private static final List<List<Class<?>>> INTERFACE_SETS = new ArrayList<>();

    static final Connection CONNECTION = sentinel(Connection.class, "connection is closed", CONNECTION_DOES_NOT_EXIST);
    /** One sentinel for all three statement kinds: a CallableStatement is also a PreparedStatement and a Statement. */
    static final CallableStatement STATEMENT = sentinel(CallableStatement.class, "statement is closed", null);
    static final ResultSet RESULT_SET = sentinel(ResultSet.class, "result set is closed", null);
    static final DatabaseMetaData METADATA =
            sentinel(DatabaseMetaData.class, "connection is closed", CONNECTION_DOES_NOT_EXIST);

    private ClosedSentinel() {
    }

    /** The interface set of each sentinel proxy, as it was created. */
    static List<List<Class<?>>> interfaceSets() {
        return List.copyOf(INTERFACE_SETS);
    }

    static SQLException connectionClosed() {
        return new SQLException("connection is closed", CONNECTION_DOES_NOT_EXIST);
    }

    static SQLException statementClosed() {
        return new SQLException("statement is closed");
    }

    static SQLException resultSetClosed() {
        return new SQLException("result set is closed");
    }

    private static <T> T sentinel(Class<T> type, String message, String sqlState) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "closed " + type.getSimpleName();
                };
            }
            // setClientInfo declares only this subclass; a plain SQLException would surface as undeclared.
            if (List.of(method.getExceptionTypes()).contains(SQLClientInfoException.class)) {
                throw new SQLClientInfoException(message, sqlState, Map.of());
            }
            throw new SQLException(message, sqlState);
        };
        Class<?>[] interfaces = {type};
        // Runs only in the class initializer, which the JVM runs once on one thread.
        INTERFACE_SETS.add(List.of(interfaces));
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), interfaces, handler));
    }
}
