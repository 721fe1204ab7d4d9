package dev.slotpool.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

class ProxyConnectionHygieneTest extends BorrowFixture {

    @Test
    void unfinishedTransactionIsRolledBackAndAutoCommitRestored() throws SQLException {
        proxy.setAutoCommit(false);
        try (PreparedStatement insert = proxy.prepareStatement("insert into item values (?, ?)")) {
            insert.setInt(1, 1);
            insert.setString(2, "never committed");
            insert.executeUpdate();
        }
        recorder.calls.clear();

        proxy.close();

        assertThat(committedRows()).isZero();
        assertThat(real.getAutoCommit()).isTrue();
        assertThat(recorder.calls).containsExactly("Connection.rollback()", "Connection.setAutoCommit(true)",
                "Connection.clearWarnings()", "Connection.endRequest()");
        assertThat(lease.giveBacks).isEqualTo(1);
    }

    @Test
    void committedWorkIsKeptAndNeedsNoRollback() throws SQLException {
        proxy.setAutoCommit(false);
        try (Statement s = proxy.createStatement()) {
            s.executeUpdate("insert into item values (1, 'kept')");
        }
        proxy.commit();
        recorder.calls.clear();

        proxy.close();

        assertThat(committedRows()).isEqualTo(1);
        assertThat(recorder.calls).containsExactly("Connection.setAutoCommit(true)", "Connection.clearWarnings()", "Connection.endRequest()");
    }

    @Test
    void workAfterTheLastCommitIsRolledBack() throws SQLException {
        proxy.setAutoCommit(false);
        try (Statement s = proxy.createStatement()) {
            s.executeUpdate("insert into item values (1, 'kept')");
            proxy.commit();
            s.executeUpdate("insert into item values (2, 'dropped')");
        }

        proxy.close();

        assertThat(committedRows()).isEqualTo(1);
    }

    @Test
    void changedSettingsAreRestored() throws SQLException {
        int defaultIsolation = real.getTransactionIsolation();
        proxy.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        proxy.setReadOnly(true);
        proxy.setSchema("OTHER");
        proxy.setNetworkTimeout(Runnable::run, 5_000);
        assertThat(real.getSchema()).isEqualTo("OTHER");
        recorder.calls.clear();

        proxy.close();

        assertThat(real.getTransactionIsolation()).isEqualTo(defaultIsolation);
        assertThat(real.getSchema()).isEqualTo("PUBLIC");
        assertThat(recorder.calls).containsExactly(
                "Connection.setTransactionIsolation(" + defaultIsolation + ")",
                "Connection.setReadOnly(false)",
                "Connection.setSchema(PUBLIC)",
                recorder.callsNamed("Connection.setNetworkTimeout").get(0), "Connection.clearWarnings()", "Connection.endRequest()");
        assertThat(recorder.callsNamed("Connection.setNetworkTimeout").get(0)).endsWith(", 0)");
    }

    @Test
    void cleanReturnOnlyEndsTheRequest() throws SQLException {
        try (Statement s = proxy.createStatement()) {
            s.executeQuery("select 1").close();
        }
        recorder.calls.clear();

        proxy.close();

        assertThat(recorder.calls).as("no state to restore, no warnings to clear (statements carry their own)")
                .containsExactly("Connection.endRequest()");
        assertThat(lease.giveBacks).isEqualTo(1);
    }

    @Test
    void settingsPutBackByTheHolderAreNotRestoredAgain() throws SQLException {
        int defaultIsolation = real.getTransactionIsolation();
        proxy.setAutoCommit(false);
        proxy.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        proxy.setReadOnly(true);
        proxy.setTransactionIsolation(defaultIsolation);
        proxy.setReadOnly(false);
        proxy.setAutoCommit(true);
        recorder.calls.clear();

        proxy.close();

        assertThat(recorder.calls).as("no setter: only the warnings those calls may have left")
                .containsExactly("Connection.clearWarnings()", "Connection.endRequest()");
    }

    @Test
    void autoCommitOffWithoutWorkNeedsNoRollback() throws SQLException {
        proxy.setAutoCommit(false);
        proxy.getTransactionIsolation();
        recorder.calls.clear();

        proxy.close();

        assertThat(recorder.calls).containsExactly("Connection.setAutoCommit(true)", "Connection.clearWarnings()", "Connection.endRequest()");
    }

    @Test
    void failingHygieneEvictsAndStillGivesBack() throws SQLException {
        SQLException boom = new SQLException("rollback failed", "HY000");
        recorder.failOn("Connection.rollback", boom);
        proxy.setAutoCommit(false);
        try (Statement s = proxy.createStatement()) {
            s.executeUpdate("insert into item values (1, 'x')");
        }

        proxy.close();

        assertThat(lease.evictions).containsExactly(boom);
        assertThat(lease.giveBacks).isEqualTo(1);
        assertThat(proxy.isClosed()).isTrue();
    }

    @Test
    void rowWrittenThroughAnUpdatableResultSetAfterACommitIsRolledBack() throws SQLException {
        proxy.setAutoCommit(false);
        try (Statement s = proxy.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE)) {
            s.executeUpdate("insert into item values (1, 'original')");
            proxy.commit();
            ResultSet rs = s.executeQuery("select id, name from item");
            proxy.commit(); // the query alone changed nothing; only the row update below opens a transaction
            rs.next();
            rs.updateString("name", "changed");
            rs.updateRow();
        }

        proxy.close();

        assertThat(committedName(1)).isEqualTo("original");
    }

    @Test
    void savepointImpliesATransactionToRollBack() throws SQLException {
        proxy.setAutoCommit(false);
        proxy.setSavepoint();
        recorder.calls.clear();

        proxy.close();

        assertThat(recorder.calls).containsExactly("Connection.rollback()", "Connection.setAutoCommit(true)",
                "Connection.clearWarnings()", "Connection.endRequest()");
    }

    private static String committedName(int id) throws SQLException {
        try (Connection other = DriverManager.getConnection(URL);
             Statement s = other.createStatement();
             ResultSet rs = s.executeQuery("select name from item where id = " + id)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void holdabilityTypeMapClientInfoAndWarningsTheHolderChangedAreRestored() throws SQLException {
        int holdability = real.getHoldability();
        int other = holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT ? ResultSet.CLOSE_CURSORS_AT_COMMIT
                : ResultSet.HOLD_CURSORS_OVER_COMMIT;
        proxy.setHoldability(other);
        proxy.setTypeMap(new java.util.HashMap<>());
        proxy.getWarnings();
        recorder.calls.clear();

        proxy.close();

        assertThat(real.getHoldability()).isEqualTo(holdability);
        assertThat(recorder.calls).containsExactly("Connection.setHoldability(" + holdability + ")",
                recorder.callsNamed("Connection.setTypeMap").get(0), "Connection.clearWarnings()", "Connection.endRequest()");
    }

    @Test
    void aRequestIsOpenedAtBorrowAndEndedAtReturn() throws SQLException {
        ProxyConnection second = new ProxyConnection(lease, FakeLease.STAMP);
        second.close();

        assertThat(recorder.calls).containsExactly("Connection.beginRequest()", "Connection.endRequest()");
    }
}
