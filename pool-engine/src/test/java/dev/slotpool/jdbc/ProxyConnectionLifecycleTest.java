package dev.slotpool.jdbc;

import dev.slotpool.LabeledConnection;
import org.h2.jdbc.JdbcConnection;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProxyConnectionLifecycleTest extends BorrowFixture {

    /** The methods that stay callable on a closed connection (abort is a no-op there, as JDBC says). */
    private static final Set<String> ALLOWED_AFTER_CLOSE = Set.of("close", "isClosed", "isValid", "abort");

    @Test
    void closeGivesBackExactlyOnceAndSecondCloseIsHarmless() {
        proxy.close();
        proxy.close();

        assertThat(lease.giveBacks).isEqualTo(1);
        assertThat(lease.evictions).isEmpty();
        assertThat(proxy.isClosed()).isTrue();
    }

    /** A borrow is whole once the pool has lent the connection: the proxy must come to exist whatever the driver
     * does at the borrow, or the connection stays lent with nobody to return it. */
    @Test
    void aDriverThatFailsToBeginTheRequestStillGetsAProxyThatEvictsTheConnection() {
        recorder.failOn("Connection.beginRequest", new IllegalStateException("driver bug"));

        ProxyConnection next = new ProxyConnection(lease, FakeLease.STAMP);
        next.close();

        assertThat(lease.evictions).singleElement()
                .satisfies(e -> assertThat(e.getCause()).hasMessage("driver bug"));
        assertThat(lease.giveBacks).isEqualTo(1);
    }

    @Test
    void everyMethodAfterCloseThrowsConnectionIsClosed() throws Exception {
        proxy.close();
        int touchesAtReturn = lease.touches;
        recorder.calls.clear();

        List<String> didNotThrow = callEveryMethod(proxy);

        assertThat(didNotThrow).isEmpty();
        assertThat(proxy.isClosed()).isTrue();
        assertThat(proxy.isValid(1)).isFalse();
        assertThat(recorder.calls).as("nothing reaches the physical connection after return").isEmpty();
        assertThat(lease.touches).as("nor the lease, which may be lent again").isEqualTo(touchesAtReturn);
        assertThat(lease.evictions).as("the sentinel's 08003 is not a dead connection").isEmpty();
        assertThat(lease.giveBacks).isEqualTo(1);
    }

    @Test
    void reclaimedLeaseActsClosedWithoutTouchingThePhysicalConnection() throws Exception {
        proxy.createStatement();
        lease.reclaimed = true;
        recorder.calls.clear();

        List<String> didNotThrow = callEveryMethod(proxy);
        proxy.close();

        assertThat(didNotThrow).isEmpty();
        assertThat(proxy.isClosed()).isTrue();
        assertThat(recorder.calls).as("the holder's statements are not closed: the pool owns them now").isEmpty();
        assertThat(lease.giveBacks).isZero();
    }

    @Test
    void aStatementAsksIsClosedAfterTheLeaseWasReclaimedAndHearsTrue() throws SQLException {
        var statement = proxy.createStatement();
        var prepared = proxy.prepareStatement("select 1");
        lease.reclaimed = true;

        assertThat(statement.isClosed()).isTrue();
        assertThat(prepared.isClosed()).isTrue();
    }

    @Test
    void statementsAreClosedWhenTheLeaseIsReclaimed() throws SQLException {
        var statement = proxy.createStatement();
        lease.reclaimed = true;

        assertThatThrownBy(() -> statement.executeQuery("select 1")).hasMessageContaining("statement is closed");
        assertThat(statement.isClosed()).isTrue();
        assertThat(real.isClosed()).isFalse();
    }

    @Test
    void abortEndsTheBorrowThroughTheLeaseOnceAndTheProxyActsClosed() throws SQLException {
        proxy.abort(Runnable::run);
        proxy.abort(Runnable::run);
        proxy.close();

        assertThat(lease.aborts).as("the pool aborts the physical connection, once").isEqualTo(1);
        assertThat(lease.giveBacks).as("an aborted borrow is not given back").isZero();
        assertThat(recorder.callsNamed("Connection.abort")).as("the proxy leaves the physical connection to the pool")
                .isEmpty();
        assertThat(proxy.isClosed()).isTrue();
    }

    @Test
    void unwrapAnswersTheProxyForItsOwnInterfacesAndTheDriverOtherwise() throws SQLException {
        assertThat(proxy.unwrap(Connection.class)).isSameAs(proxy);
        assertThat(proxy.unwrap(LabeledConnection.class)).isSameAs(proxy);
        assertThat(proxy.isWrapperFor(LabeledConnection.class)).isTrue();
        assertThat(proxy.unwrap(JdbcConnection.class)).isSameAs(real);
        assertThat(proxy.isWrapperFor(JdbcConnection.class)).isTrue();
    }

    @Test
    void labelsAreAppliedAndRemovedCopyOnWrite() throws SQLException {
        LabeledConnection labeled = proxy.unwrap(LabeledConnection.class);
        labeled.applyLabel("role", "reporting");
        Map<String, String> afterFirst = labeled.labels();
        labeled.applyLabel("tz", "UTC");
        labeled.applyLabel("tz", "UTC");

        assertThat(afterFirst).containsExactly(Map.entry("role", "reporting"));
        assertThat(lease.labels()).isEqualTo(Map.of("role", "reporting", "tz", "UTC"));
        assertThat(lease.labelWrites).as("re-applying the same value writes nothing").isEqualTo(2);
        assertThatThrownBy(() -> labeled.labels().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);

        labeled.removeLabel("role");
        labeled.removeLabel("absent");

        assertThat(lease.labels()).isEqualTo(Map.of("tz", "UTC"));
        assertThat(lease.labelWrites).isEqualTo(3);
    }

    @Test
    void labelsCannotBeChangedAfterClose() {
        proxy.close();

        assertThatThrownBy(() -> proxy.applyLabel("k", "v")).hasMessageContaining("connection is closed");
        assertThat(lease.labelWrites).isZero();
    }

    /** Calls every Connection and LabeledConnection method but the allowed ones; returns those that did not throw. */
    private static List<String> callEveryMethod(ProxyConnection target) throws IllegalAccessException {
        List<String> didNotThrow = new ArrayList<>();
        List<Method> methods = new ArrayList<>(List.of(Connection.class.getMethods()));
        methods.addAll(List.of(LabeledConnection.class.getMethods()));
        for (Method m : methods) {
            if (ALLOWED_AFTER_CLOSE.contains(m.getName())) {
                continue;
            }
            try {
                m.invoke(target, defaultArguments(m));
                didNotThrow.add(m.toString());
            } catch (InvocationTargetException e) {
                if (!(e.getCause() instanceof SQLException s) || !s.getMessage().contains("connection is closed")) {
                    didNotThrow.add(m + " threw " + e.getCause());
                }
            }
        }
        return didNotThrow;
    }

    static Object[] defaultArguments(Method m) {
        Class<?>[] types = m.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            if (types[i] == boolean.class) {
                args[i] = false;
            } else if (types[i] == int.class) {
                args[i] = 0;
            } else if (types[i] == long.class) {
                args[i] = 0L;
            } else if (types[i].isPrimitive()) {
                args[i] = (byte) 0;
            }
        }
        return args;
    }
}
