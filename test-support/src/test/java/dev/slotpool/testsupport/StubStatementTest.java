package dev.slotpool.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.math.BigDecimal;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StubStatementTest {

    private StubDatabase db;
    private Connection c;

    @BeforeEach
    void open() throws SQLException {
        db = StubDatabase.reset("statement-test");
        c = DriverManager.getConnection(db.url());
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    @Test
    void queryReturnsOneRowWithTheIntegerOne() throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            assertThat(rs.isBeforeFirst()).isTrue();
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(1);
            assertThat(rs.getLong("anything")).isEqualTo(1L);
            assertThat(rs.getString(1)).isEqualTo("1");
            assertThat(rs.getObject(1)).isEqualTo(1);
            assertThat(rs.getObject(1, BigDecimal.class)).isEqualTo(BigDecimal.ONE);
            assertThat(rs.wasNull()).isFalse();
            assertThatThrownBy(() -> rs.getInt(2)).isInstanceOf(SQLException.class);
            assertThat(rs.next()).isFalse();
            assertThat(rs.next()).isFalse();
            assertThat(rs.isAfterLast()).isTrue();
            assertThatThrownBy(() -> rs.getInt(1)).isInstanceOf(SQLException.class);
        }
    }

    @Test
    void executeReportsAResultSetAndUpdatesReportZeroRows() throws SQLException {
        try (Statement s = c.createStatement()) {
            assertThat(s.execute("SELECT 1")).isTrue();
            ResultSet rs = s.getResultSet();
            assertThat(rs.next()).isTrue();
            assertThat(s.getUpdateCount()).isEqualTo(-1);
            assertThat(s.getMoreResults()).isFalse();
            assertThat(rs.isClosed()).isTrue();

            assertThat(s.executeUpdate("UPDATE t SET x = 1")).isZero();
            assertThat(s.getUpdateCount()).isZero();
            assertThat(s.getResultSet()).isNull();
        }
    }

    @Test
    void reexecutingOrClosingTheStatementClosesItsResultSet() throws SQLException {
        Statement s = c.createStatement();
        ResultSet first = s.executeQuery("SELECT 1");
        ResultSet second = s.executeQuery("SELECT 1");

        assertThat(first.isClosed()).isTrue();
        assertThat(second.isClosed()).isFalse();

        s.close();
        s.close();
        assertThat(second.isClosed()).isTrue();
        assertThatThrownBy(() -> s.executeQuery("SELECT 1")).isInstanceOf(SQLException.class);
    }

    @Test
    void closeOnCompletionClosesTheStatementWithItsResultSet() throws SQLException {
        Statement s = c.createStatement();
        s.closeOnCompletion();
        ResultSet rs = s.executeQuery("SELECT 1");
        s.executeQuery("SELECT 1").close();

        assertThat(rs.isClosed()).isTrue();
        assertThat(s.isClosed()).isTrue();
    }

    @Test
    void keepsStatementSettings() throws SQLException {
        try (Statement s = c.createStatement()) {
            s.setQueryTimeout(5);
            s.setFetchSize(100);
            s.setMaxRows(10);
            s.setPoolable(true);

            assertThat(s.getQueryTimeout()).isEqualTo(5);
            assertThat(s.getFetchSize()).isEqualTo(100);
            assertThat(s.getMaxRows()).isEqualTo(10);
            assertThat(s.isPoolable()).isTrue();
            assertThat(s.getConnection()).isSameAs(c);
            assertThatThrownBy(() -> s.setQueryTimeout(-1)).isInstanceOf(SQLException.class);
        }
    }

    @Test
    void batchIsOneExecution() throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)")) {
            for (int i = 0; i < 3; i++) {
                ps.setInt(1, i);
                ps.addBatch();
            }
            assertThat(ps.executeBatch()).containsExactly(0, 0, 0);
            assertThat(ps.executeBatch()).isEmpty();
        }
        assertThat(db.queries()).isEqualTo(2);
    }

    @Test
    void preparedStatementsAcceptParametersAndArePoolable() throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT ? FROM t WHERE y = ?")) {
            ps.setString(1, "a");
            ps.setNull(2, Types.INTEGER);
            ps.clearParameters();
            assertThat(ps.isPoolable()).isTrue();
            assertThatThrownBy(() -> ps.setInt(0, 1)).isInstanceOf(SQLException.class);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getStatement()).isSameAs(ps);
            }
        }
    }

    @Test
    void callableStatementsExecuteButHaveNoOutParameters() throws SQLException {
        try (CallableStatement cs = c.prepareCall("{call p(?)}")) {
            cs.setInt(1, 1);
            assertThat(cs.execute()).isTrue();
            assertThatThrownBy(() -> cs.registerOutParameter(1, Types.INTEGER))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
        }
        assertThat(db.queries()).isEqualTo(1);
    }

    @Test
    void statementOfAClosedConnectionIsClosed() throws SQLException {
        Statement s = c.createStatement();
        c.close();

        assertThat(s.isClosed()).isTrue();
        assertThatThrownBy(() -> s.execute("SELECT 1")).isInstanceOf(SQLException.class);
        assertThat(db.queries()).isZero();
    }

    @Test
    void interruptedQueryFailsAndKeepsTheInterruptFlag() throws SQLException {
        db.queryDelay(Duration.ofSeconds(5));
        try (Statement s = c.createStatement()) {
            Throwable thrown;
            boolean flagKept;
            Thread.currentThread().interrupt();
            try {
                thrown = catchThrowable(() -> s.execute("SELECT 1"));
            } finally {
                flagKept = Thread.interrupted();
            }
            assertThat(thrown).isInstanceOf(SQLException.class);
            assertThat(flagKept).as("interrupt flag kept").isTrue();
        }
    }
}
