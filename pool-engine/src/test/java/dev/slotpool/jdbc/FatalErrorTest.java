package dev.slotpool.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FatalErrorTest extends BorrowFixture {

    @Test
    void fatalErrorEvictsAndIsRethrown() {
        SQLException gone = new SQLException("gone", "08006");
        recorder.failOn("Connection.createStatement", gone);

        assertThatThrownBy(proxy::createStatement).isSameAs(gone);
        assertThat(lease.evictions).containsExactly(gone);
    }

    @Test
    void nonFatalErrorDoesNotEvict() {
        SQLException syntax = new SQLException("bad syntax", "42000");
        recorder.failOn("Connection.createStatement", syntax);

        assertThatThrownBy(proxy::createStatement).isSameAs(syntax);
        assertThat(lease.evictions).isEmpty();
    }

    @Test
    void realDriverErrorThatIsNotFatalDoesNotEvict() throws SQLException {
        Statement statement = proxy.createStatement();

        assertThatThrownBy(() -> statement.executeQuery("select * from no_such_table")).isInstanceOf(SQLException.class);
        assertThat(lease.evictions).isEmpty();
    }

    @Test
    void fatalErrorFromAStatementEvicts() throws SQLException {
        SQLException reset = new SQLException("connection reset", "08S01");
        recorder.failOn("Statement.executeQuery", reset);
        Statement statement = proxy.createStatement();

        assertThatThrownBy(() -> statement.executeQuery("select 1")).isSameAs(reset);
        assertThat(lease.evictions).containsExactly(reset);
    }

    @Test
    void evictsOnceAndSkipsHygieneOnADeadConnection() throws SQLException {
        SQLException gone = new SQLException("gone", "08006");
        recorder.failOn("Statement.executeUpdate", gone);
        proxy.setAutoCommit(false);
        Statement statement = proxy.createStatement();
        assertThatThrownBy(() -> statement.executeUpdate("insert into item values (1, 'x')")).isSameAs(gone);
        assertThatThrownBy(() -> statement.executeUpdate("insert into item values (2, 'y')")).isSameAs(gone);
        recorder.calls.clear();

        proxy.close();

        assertThat(lease.evictions).containsExactly(gone);
        assertThat(recorder.calls).as("no rollback, restore or statement close on a dead connection").isEmpty();
        assertThat(lease.giveBacks).isEqualTo(1);
    }
}
