package dev.slotpool.jdbc;

import org.h2.jdbc.JdbcCallableStatement;
import org.h2.jdbc.JdbcPreparedStatement;
import org.h2.jdbc.JdbcStatement;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.CallableStatement;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProxyStatementTest extends BorrowFixture {

    @Test
    void statementsLeftOpenAreClosedAtReturn() throws SQLException {
        Statement statement = proxy.createStatement();
        PreparedStatement prepared = proxy.prepareStatement("select 1");
        CallableStatement callable = proxy.prepareCall("call 1");
        JdbcStatement physicalStatement = statement.unwrap(JdbcStatement.class);
        JdbcPreparedStatement physicalPrepared = prepared.unwrap(JdbcPreparedStatement.class);
        JdbcCallableStatement physicalCallable = callable.unwrap(JdbcCallableStatement.class);

        proxy.close();

        assertThat(physicalStatement.isClosed()).isTrue();
        assertThat(physicalPrepared.isClosed()).isTrue();
        assertThat(physicalCallable.isClosed()).isTrue();
        assertThat(statement.isClosed()).isTrue();
        assertThat(prepared.isClosed()).isTrue();
        assertThat(callable.isClosed()).isTrue();
        assertThatThrownBy(() -> prepared.executeQuery()).hasMessageContaining("statement is closed");
    }

    @Test
    void everyStatementMethodAfterReturnThrowsStatementIsClosed() throws Exception {
        CallableStatement callable = proxy.prepareCall("call 1");
        proxy.close();
        recorder.calls.clear();

        List<String> didNotThrow = new ArrayList<>();
        for (Method m : CallableStatement.class.getMethods()) {
            if (Set.of("close", "isClosed").contains(m.getName())) {
                continue;
            }
            try {
                m.invoke(callable, ProxyConnectionLifecycleTest.defaultArguments(m));
                didNotThrow.add(m.toString());
            } catch (InvocationTargetException e) {
                if (!(e.getCause() instanceof SQLException s) || !s.getMessage().contains("statement is closed")) {
                    didNotThrow.add(m + " threw " + e.getCause());
                }
            }
        }
        callable.close();

        assertThat(didNotThrow).isEmpty();
        assertThat(recorder.calls).isEmpty();
    }

    @Test
    void statementClosedTwiceByTheHolderIsClosedOnce() throws SQLException {
        Statement statement = proxy.createStatement();
        statement.close();
        statement.close();

        proxy.close();

        assertThat(recorder.callsNamed("Statement.close")).hasSize(1);
        assertThat(statement.isClosed()).isTrue();
    }

    @Test
    void statementsClosedByTheHolderLeaveTheOpenList() throws Exception {
        List<Statement> statements = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            statements.add(proxy.createStatement());
        }
        List<Statement> stillOpen = new ArrayList<>();
        for (int i = 0; i < statements.size(); i++) {
            if (i % 2 == 0) {
                statements.get(i).close();
            } else {
                stillOpen.add(statements.get(i));
            }
        }
        recorder.calls.clear();

        assertThat(openStatements()).containsExactlyElementsOf(stillOpen);
        proxy.close();
        assertThat(recorder.callsNamed("Statement.close")).hasSize(10);
    }

    /** The proxy's private list, read reflectively: a long borrow must not accumulate closed statements. */
    private List<Object> openStatements() throws ReflectiveOperationException {
        Field field = ProxyConnection.class.getDeclaredField("openStatements");
        field.setAccessible(true);
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) field.get(proxy);
        return list;
    }

    @Test
    void getConnectionAnswersTheProxy() throws SQLException {
        assertThat(proxy.createStatement().getConnection()).isSameAs(proxy);
        assertThat(proxy.prepareStatement("select 1").getConnection()).isSameAs(proxy);
        assertThat(proxy.prepareCall("call 1").getConnection()).isSameAs(proxy);
    }

    @Test
    void resultSetsAnswerTheProxyStatement() throws SQLException {
        Statement statement = proxy.createStatement();
        PreparedStatement prepared = proxy.prepareStatement("select 1");
        PreparedStatement insert = proxy.prepareStatement("insert into item values (7, 'x')",
                Statement.RETURN_GENERATED_KEYS);

        assertThat(statement.executeQuery("select 1").getStatement()).isSameAs(statement);
        assertThat(statement.execute("select 1")).isTrue();
        assertThat(statement.getResultSet().getStatement()).isSameAs(statement);
        assertThat(prepared.executeQuery().getStatement()).isSameAs(prepared);
        insert.executeUpdate();
        assertThat(insert.getGeneratedKeys().getStatement()).isSameAs(insert);
    }

    @Test
    void resultSetOfAClosedStatementIsClosed() throws SQLException {
        Statement statement = proxy.createStatement();
        ResultSet rs = statement.executeQuery("select 1");
        proxy.close();

        assertThat(rs.isClosed()).isTrue();
        assertThatThrownBy(rs::next).hasMessageContaining("result set is closed");
        assertThatThrownBy(rs::getStatement).hasMessageContaining("result set is closed");
        rs.close();
    }

    @Test
    void metaDataAnswersTheProxyAndClosesWithTheConnection() throws SQLException {
        DatabaseMetaData metaData = proxy.getMetaData();
        ResultSet tables = metaData.getTables(null, null, "ITEM", null);

        assertThat(metaData.getConnection()).isSameAs(proxy);
        assertThat(metaData.isWrapperFor(DatabaseMetaData.class)).isTrue();
        assertThat(metaData.unwrap(DatabaseMetaData.class)).isSameAs(metaData);
        assertThat(metaData.getDatabaseProductName()).isNotBlank();
        assertThat(tables.next()).isTrue();
        assertThat(tables.getStatement()).isNull();

        proxy.close();
        recorder.calls.clear();

        assertThatThrownBy(() -> metaData.getTables(null, null, "ITEM", null))
                .hasMessageContaining("connection is closed");
        assertThatThrownBy(tables::next).hasMessageContaining("result set is closed");
        assertThat(recorder.calls).isEmpty();
    }

    @Test
    void statementWorkTouchesTheLease() throws SQLException {
        Statement statement = proxy.createStatement();
        int before = lease.touches;

        statement.executeQuery("select 1");
        int afterQuery = lease.touches;
        statement.addBatch("insert into item values (1, 'a')");
        statement.executeBatch();

        assertThat(afterQuery).isEqualTo(before + 1);
        assertThat(lease.touches).isEqualTo(afterQuery + 2);
    }

    @Test
    void movingTheCursorTouchesTheLeaseButReadingValuesAndBindingParametersDoNot() throws SQLException {
        PreparedStatement prepared = proxy.prepareStatement("select x from system_range(1, 3) where x >= ?");
        int before = lease.touches;
        prepared.setInt(1, 2);
        assertThat(lease.touches).as("binding stays in the driver").isEqualTo(before);

        ResultSet rs = prepared.executeQuery();
        int afterQuery = lease.touches;
        while (rs.next()) {
            rs.getInt(1);
        }

        assertThat(afterQuery).isEqualTo(before + 1);
        assertThat(lease.touches).as("three moves, two rows and the end").isEqualTo(afterQuery + 3);
    }

    @Test
    void connectionWorkTouchesTheLease() throws SQLException {
        int before = lease.touches;

        proxy.prepareStatement("select 1");
        proxy.setAutoCommit(false);
        proxy.commit();

        assertThat(lease.touches).isEqualTo(before + 3);
    }
}
