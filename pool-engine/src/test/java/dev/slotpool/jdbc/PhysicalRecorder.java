package dev.slotpool.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Wraps a real connection, and the statements it creates, to record every call made on them as
 * {@code "Type.method(args)"} and to make chosen calls fail.
 */
final class PhysicalRecorder {

    final List<String> calls = new ArrayList<>();
    private final Map<String, Exception> failures = new HashMap<>();

    Connection wrap(Connection real) {
        return proxy(Connection.class, real);
    }

    /** Makes every later call to {@code "Type.method"} (e.g. {@code "Statement.executeQuery"}) throw {@code e}:
     * an SQLException, or a RuntimeException for a driver that breaks the JDBC contract. */
    void failOn(String call, Exception e) {
        failures.put(call, e);
    }

    List<String> callsNamed(String call) {
        return calls.stream().filter(c -> c.startsWith(call + "(")).toList();
    }

    private <T> T proxy(Class<T> type, Object target) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return method.invoke(target, args);
            }
            String name = type.getSimpleName() + "." + method.getName();
            calls.add(name + "(" + (args == null ? "" : Arrays.stream(args).map(String::valueOf)
                    .collect(Collectors.joining(", "))) + ")");
            Exception failure = failures.get(name);
            if (failure != null) {
                throw failure;
            }
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            return result instanceof Statement && Statement.class.isAssignableFrom(method.getReturnType())
                    ? proxy(method.getReturnType(), result) : result;
        };
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
