package dev.slotpool.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.slotpool.testsupport.StubDatabase;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.lang.reflect.UndeclaredThrowableException;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every method of the six JDBC interfaces the pool proxies, called on the proxies over the stub driver: each one
 * reaches the driver's object of the same interface (the generated delegation and the hand-written methods
 * alike), and on a closed proxy each one fails with the message the proxies' class comments give, without
 * reaching the driver. Arguments are zeros and nulls, with a few chosen where the proxy needs one to go on; the
 * driver's answer (often "not supported") does not matter, only that the call got there.
 */
class EveryJdbcMethodTest {

    /** The methods that, by design, do not go to the driver's object of their interface. */
    private static final Map<String, String> ANSWERED_BY_THE_PROXY = Map.of(
            "Connection.close", "gives the lease back; the physical connection is the pool's",
            "Connection.isClosed", "the proxy's own state",
            "Connection.abort", "asks the pool (the lease) to abort the borrow",
            "Statement.getConnection", "the proxy connection",
            "ResultSet.getStatement", "the proxy statement",
            "DatabaseMetaData.getConnection", "the proxy connection");

    /** On a closed proxy these answer instead of failing, as JDBC says (close is idempotent, isClosed true,
     * isValid false), or go to the lease (abort). */
    private static final Set<String> ANSWER_WHEN_CLOSED = Set.of("Connection.close", "Connection.isClosed",
            "Connection.isValid", "Connection.abort", "Statement.close", "Statement.isClosed", "ResultSet.close",
            "ResultSet.isClosed");

    private static final Map<Class<?>, Object> ZEROS = Map.of(boolean.class, false, byte.class, (byte) 0,
            short.class, (short) 0, int.class, 0, long.class, 0L, float.class, 0f, double.class, 0d);

    private static final String DATABASE = "every-jdbc-method";

    private final List<String> calls = new ArrayList<>();
    private Connection physical;
    private FakeLease lease;
    private ProxyConnection proxy;

    @BeforeEach
    void borrow() throws SQLException {
        StubDatabase.reset(DATABASE);
        physical = recorded(Connection.class, DriverManager.getConnection("jdbc:stub:" + DATABASE));
        lease = new FakeLease(physical);
        proxy = new ProxyConnection(lease, FakeLease.STAMP);
    }

    @AfterEach
    void closePhysical() throws SQLException {
        physical.close();
    }

    static Stream<Arguments> methods() {
        return Stream.of(Connection.class, Statement.class, PreparedStatement.class, CallableStatement.class,
                        ResultSet.class, DatabaseMetaData.class)
                .flatMap(type -> Arrays.stream(type.getMethods())
                        .filter(m -> !Modifier.isStatic(m.getModifiers()))
                        .sorted(Comparator.comparing(Method::toGenericString))
                        .map(m -> Arguments.of(type, Named.of(m.getName()
                                + Arrays.toString(m.getParameterTypes()), m))));
    }

    @ParameterizedTest(name = "{0}.{1}")
    @MethodSource("methods")
    void everyMethodReachesTheDriver(Class<?> type, Method method) throws Exception {
        Object target = open(type);
        String key = key(method);
        calls.clear();

        call(target, method);

        // The driver's object is recorded under the interface the proxy was made for.
        String expected = type.getSimpleName() + "." + method.getName();
        if (ANSWERED_BY_THE_PROXY.containsKey(key)) {
            assertThat(calls).as("%s: %s", key, ANSWERED_BY_THE_PROXY.get(key)).doesNotContain(expected);
        } else {
            assertThat(calls).as("the driver's calls after %s on the proxy", method).contains(expected);
        }
    }

    @ParameterizedTest(name = "{0}.{1}")
    @MethodSource("methods")
    void everyMethodOfAClosedProxyFailsWithTheDocumentedMessage(Class<?> type, Method method) throws Exception {
        Object target = open(type);
        String message;
        if (type == Connection.class || type == DatabaseMetaData.class) {
            proxy.close();
            message = "connection is closed";
        } else if (type == ResultSet.class) {
            ((ResultSet) target).getStatement().close();
            message = "result set is closed";
        } else {
            proxy.close(); // closes the statement the holder left open
            message = "statement is closed";
        }
        String key = key(method);
        calls.clear();

        Throwable thrown = call(target, method);

        if (ANSWER_WHEN_CLOSED.contains(key)) {
            assertThat(thrown).as(key).isNull();
            return;
        }
        if (thrown instanceof UndeclaredThrowableException undeclared) {
            // getDriverMajorVersion and getDriverMinorVersion declare no SQLException (ProxyDatabaseMetaData).
            assertThat(method.getExceptionTypes()).as(key).doesNotContain(SQLException.class);
            thrown = undeclared.getCause();
        }
        assertThat(thrown).as(key).isInstanceOf(SQLException.class).hasMessage(message);
        if (message.equals("connection is closed")) {
            assertThat(((SQLException) thrown).getSQLState()).as(key).isEqualTo("08003");
        }
        assertThat(calls).as("the driver's calls after %s on a closed proxy", key).isEmpty();
    }

    /** A fresh proxy of the type, from the proxy connection, and its driver's calls forgotten. */
    private Object open(Class<?> type) throws SQLException {
        Object target;
        if (type == Connection.class) {
            target = proxy;
        } else if (type == Statement.class) {
            target = proxy.createStatement();
        } else if (type == PreparedStatement.class) {
            target = proxy.prepareStatement("select 1");
        } else if (type == CallableStatement.class) {
            target = proxy.prepareCall("{call p()}");
        } else if (type == ResultSet.class) {
            target = proxy.createStatement().executeQuery("select 1");
        } else {
            target = proxy.getMetaData();
        }
        assertThat(target).as("the proxy of %s", type.getSimpleName()).isInstanceOf(type)
                .isNotInstanceOf(Proxy.class);
        return target;
    }

    /** Calls the method; returns what it threw (the driver may refuse), or null. */
    private static Throwable call(Object target, Method method) {
        try {
            method.invoke(target, arguments(method));
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        } catch (IllegalAccessException e) {
            return fail("not callable: " + method, e);
        }
    }

    private static Object[] arguments(Method method) {
        Class<?>[] types = method.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> t = types[i];
            if (t == Class.class) {
                args[i] = Runnable.class; // not the proxy's type: unwrap and isWrapperFor ask the driver
            } else if (t == Executor.class) {
                args[i] = (Executor) Runnable::run;
            } else if (t == String.class) {
                args[i] = "x";
            } else if (t.isPrimitive()) {
                args[i] = ZEROS.get(t);
            }
        }
        return args;
    }

    /** The method as the tables above name it: its declaring interface and its name. */
    private static String key(Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }

    /** The driver's object, recording each call as {@code Interface.method}; what it returns of the six
     * interfaces is recorded too. */
    private <T> T recorded(Class<T> type, Object target) {
        InvocationHandler handler = (p, method, args) -> {
            if (method.getDeclaringClass() != Object.class) {
                calls.add(type.getSimpleName() + "." + method.getName());
            }
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            Class<?> returned = method.getReturnType();
            if (result != null && returned.getPackageName().equals("java.sql")
                    && returned.isInterface() && returned.isInstance(result)) {
                return recorded(returned, result);
            }
            return result;
        };
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
