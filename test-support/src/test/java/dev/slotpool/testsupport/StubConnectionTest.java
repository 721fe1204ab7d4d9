package dev.slotpool.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StubConnectionTest {

    private static final Executor DIRECT = Runnable::run;

    private StubDatabase db;
    private Connection c;

    @BeforeEach
    void open() throws SQLException {
        db = StubDatabase.reset("connection-test");
        c = DriverManager.getConnection(db.url());
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    private static String sqlState(Throwable e) {
        return ((SQLException) e).getSQLState();
    }

    @Test
    void startsWithDocumentedDefaults() throws SQLException {
        assertThat(c.getAutoCommit()).isTrue();
        assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
        assertThat(c.isReadOnly()).isFalse();
        assertThat(c.getCatalog()).isEqualTo("connection-test");
        assertThat(c.getSchema()).isEqualTo("PUBLIC");
        assertThat(c.getHoldability()).isEqualTo(ResultSet.HOLD_CURSORS_OVER_COMMIT);
        assertThat(c.getNetworkTimeout()).isZero();
        assertThat((Throwable) c.getWarnings()).isNull();
    }

    @Test
    void keepsSessionStateThatIsChanged() throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        c.setReadOnly(true);
        c.setCatalog("other");
        c.setSchema("APP");
        c.setHoldability(ResultSet.CLOSE_CURSORS_AT_COMMIT);
        c.setNetworkTimeout(DIRECT, 2500);

        assertThat(c.getAutoCommit()).isFalse();
        assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
        assertThat(c.isReadOnly()).isTrue();
        assertThat(c.getCatalog()).isEqualTo("other");
        assertThat(c.getSchema()).isEqualTo("APP");
        assertThat(c.getHoldability()).isEqualTo(ResultSet.CLOSE_CURSORS_AT_COMMIT);
        assertThat(c.getNetworkTimeout()).isEqualTo(2500);
        assertThat(c.getMetaData().isReadOnly()).isTrue();
    }

    @Test
    void rejectsInvalidSettings() {
        assertThatThrownBy(() -> c.setTransactionIsolation(Connection.TRANSACTION_NONE))
                .isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> c.setHoldability(42)).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> c.setNetworkTimeout(DIRECT, -1)).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> c.setNetworkTimeout(null, 10)).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> c.isValid(-1)).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY))
                .isInstanceOf(SQLFeatureNotSupportedException.class);
    }

    @Test
    void countsCommitsAndRollbacks() throws SQLException {
        StubConnection stub = c.unwrap(StubConnection.class);
        c.setAutoCommit(false);

        c.commit();
        c.rollback();
        c.rollback();

        assertThat(stub.commits()).isEqualTo(1);
        assertThat(stub.rollbacks()).isEqualTo(2);
    }

    @Test
    void switchingAutoCommitOnInsideATransactionCommitsIt() throws SQLException {
        StubConnection stub = c.unwrap(StubConnection.class);
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE t SET x = 1");
        }

        c.setAutoCommit(true);

        assertThat(stub.commits()).isEqualTo(1);
        c.setAutoCommit(false);
        c.setAutoCommit(true);
        assertThat(stub.commits()).as("no transaction was open the second time").isEqualTo(1);
    }

    @Test
    void commitAndRollbackFailInAutoCommitMode() {
        assertThatThrownBy(c::commit).extracting(StubConnectionTest::sqlState).isEqualTo("25000");
        assertThatThrownBy(c::rollback).extracting(StubConnectionTest::sqlState).isEqualTo("25000");
    }

    @Test
    void validationDelayIsAppliedAndCappedByTheTimeout() throws SQLException {
        db.validationDelay(Duration.ofMillis(30));
        long start = System.nanoTime();
        assertThat(c.isValid(0)).isTrue();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(30).toNanos());

        db.validationDelay(Duration.ofSeconds(5));
        start = System.nanoTime();
        assertThat(c.isValid(1)).as("validation slower than its timeout").isFalse();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofSeconds(1).toNanos());
    }

    @Test
    void aShorterNetworkTimeoutCapsValidationLikeThePostgresDriver() throws SQLException {
        db.validationDelay(Duration.ofSeconds(30));
        c.setNetworkTimeout(Runnable::run, 200);
        long start = System.nanoTime();
        assertThat(c.isValid(5)).as("validation cut short by the network timeout").isFalse();
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        // Well below the 5 s isValid timeout: the 200 ms network timeout ended it.
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(200)).isLessThan(Duration.ofSeconds(4));

        db.validationDelay(Duration.ofMillis(20));
        assertThat(c.isValid(5)).as("faster than the network timeout").isTrue();
    }

    @Test
    void keepsClientInfo() throws SQLException {
        c.setClientInfo("ApplicationName", "bench");
        assertThat(c.getClientInfo("ApplicationName")).isEqualTo("bench");

        Properties replacement = new Properties();
        replacement.setProperty("ClientUser", "carol");
        c.setClientInfo(replacement);

        assertThat(c.getClientInfo("ApplicationName")).isNull();
        assertThat(c.getClientInfo()).containsOnlyKeys("ClientUser");
        c.setClientInfo("ClientUser", null);
        assertThat(c.getClientInfo()).isEmpty();
    }

    @Test
    void answersMiscellaneousCallsPoolsMake() throws SQLException {
        assertThat(c.nativeSQL("SELECT 1")).isEqualTo("SELECT 1");
        assertThat(c.isWrapperFor(StubConnection.class)).isTrue();
        assertThat(c.isWrapperFor(String.class)).isFalse();
        assertThatThrownBy(() -> c.unwrap(String.class)).isInstanceOf(SQLException.class);
        c.clearWarnings();

        DatabaseMetaData meta = c.getMetaData();
        assertThat(meta.getDatabaseProductName()).isEqualTo("Stub");
        assertThat(meta.getConnection()).isSameAs(c);
        assertThat(meta.supportsResultSetType(ResultSet.TYPE_FORWARD_ONLY)).isTrue();
        assertThat(meta.unwrap(DatabaseMetaData.class)).isSameAs(meta);
        assertThatThrownBy(() -> meta.getTables(null, null, "%", null))
                .isInstanceOf(SQLFeatureNotSupportedException.class);
    }

    @Test
    void closedConnectionRejectsCallsWith08003() throws SQLException {
        c.close();

        assertThat(c.isClosed()).isTrue();
        assertThat(c.isValid(1)).isFalse();
        assertThatThrownBy(c::getAutoCommit).extracting(StubConnectionTest::sqlState).isEqualTo("08003");
        assertThatThrownBy(() -> c.prepareStatement("SELECT 1"))
                .extracting(StubConnectionTest::sqlState).isEqualTo("08003");
        assertThatThrownBy(() -> c.setClientInfo("a", "b")).isInstanceOf(SQLClientInfoException.class);
        assertThatThrownBy(() -> c.abort(null)).isInstanceOf(SQLException.class);
    }

    @Test
    void abortedConnectionIsClosedAndInvalid() throws SQLException {
        c.abort(DIRECT);

        assertThat(c.isClosed()).isTrue();
        assertThat(c.isValid(1)).isFalse();
        assertThat(c.toString()).contains("aborted");
        assertThatThrownBy(c::getSchema).extracting(StubConnectionTest::sqlState).isEqualTo("08003");
    }
}
