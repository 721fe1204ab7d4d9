package dev.slotpool.jdbc;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a cached statement's close asks of the driver to make it fresh (docs/statement-cache.md, "Back to the
 * cache"): parameters and batch are cleared only if the holder left some, warnings always. Recorded on a real
 * driver (H2) behind the proxy.
 */
class StatementCacheResetTest extends BorrowFixture {

    private static final String SQL = "select id from item where id = ?";

    @BeforeEach
    void cacheOn() {
        lease.statementCache = new StatementCache(4);
    }

    /** The driver calls of one close of a cached statement, after {@code use} ran on it. */
    private List<String> resetCalls(ThrowingUse use) throws Exception {
        PreparedStatement ps = proxy.prepareStatement(SQL);
        use.on(ps);
        recorder.calls.clear();
        ps.close();
        return recorder.calls;
    }

    @Test
    void aStatementNobodyBoundOrBatchedIsOnlyClearedOfWarnings() throws Exception {
        assertThat(resetCalls(ps -> { })).containsExactly("PreparedStatement.clearWarnings()");
        assertThat(resetCalls(ps -> ps.setMaxRows(3)))
                .as("a setting is put back; it is not a parameter")
                .containsExactly("PreparedStatement.clearWarnings()", "PreparedStatement.setMaxRows(0)");
        assertThat(lease.statementCache.hits()).isEqualTo(1);
    }

    @Test
    void everyParameterSetterMakesTheCloseClearTheParameters() throws Exception {
        List<Method> setters = Arrays.stream(PreparedStatement.class.getMethods())
                .filter(m -> m.getName().startsWith("set") && !Modifier.isStatic(m.getModifiers())
                        && m.getParameterCount() >= 2 && m.getParameterTypes()[0] == int.class)
                .toList();
        assertThat(setters).as("JDBC's parameter setters by index").hasSizeGreaterThan(40);
        for (Method setter : setters) {
            List<String> calls = resetCalls(ps -> invokeWithDefaults(setter, ps));
            assertThat(calls).as("close after %s", setter).contains("PreparedStatement.clearParameters()");
            assertThat(resetCalls(ps -> { })).as("the next lending, unbound").doesNotContain(
                    "PreparedStatement.clearParameters()");
        }
    }

    @Test
    void aBatchIsClearedOnlyWhenOneWasAdded() throws Exception {
        assertThat(resetCalls(ps -> {
            ps.setInt(1, 1);
            ps.addBatch();
        })).containsExactly("PreparedStatement.clearParameters()", "PreparedStatement.clearBatch()",
                "PreparedStatement.clearWarnings()");
        assertThat(resetCalls(ps -> ps.setInt(1, 1))).containsExactly("PreparedStatement.clearParameters()",
                "PreparedStatement.clearWarnings()");
    }

    @Test
    void aCallableStatementsParametersAreClearedAtEveryClose() throws Exception {
        for (int i = 0; i < 2; i++) {
            CallableStatement call = proxy.prepareCall("call 1");
            recorder.calls.clear();
            call.close();
            assertThat(recorder.calls).as("lending %d", i).containsExactly("CallableStatement.clearParameters()",
                    "CallableStatement.clearWarnings()");
        }
    }

    /** Calls a setter with zero or null arguments after the index; what the driver says of them does not matter. */
    private static void invokeWithDefaults(Method setter, PreparedStatement ps) throws IllegalAccessException {
        Class<?>[] types = setter.getParameterTypes();
        Object[] args = new Object[types.length];
        args[0] = 1;
        for (int i = 1; i < types.length; i++) {
            args[i] = zero(types[i]);
        }
        try {
            setter.invoke(ps, args);
        } catch (InvocationTargetException e) {
            // H2 refuses some of these (a null stream, an unsupported type): the proxy saw the call all the same.
        }
    }

    private static Object zero(Class<?> type) {
        if (!type.isPrimitive()) {
            return null;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == float.class) {
            return 0f;
        }
        if (type == double.class) {
            return 0d;
        }
        if (type == byte.class) {
            return (byte) 0;
        }
        if (type == short.class) {
            return (short) 0;
        }
        return 0;
    }

    @FunctionalInterface
    private interface ThrowingUse {
        void on(PreparedStatement ps) throws Exception;
    }
}
