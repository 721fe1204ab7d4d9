package dev.slotpool.jdbc;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With auto-commit off, every call that may reach the server without a statement's {@code executeX} may open a
 * transaction (pgjdbc's metadata queries do; other drivers look types up or build server-side objects), so the
 * return rolls back after it. NonExecutePathsPostgresTest shows the leak each would cause on a real server.
 */
class NonExecutePathsTest extends BorrowFixture {

    @BeforeEach
    void autoCommitOff() throws SQLException {
        proxy.setAutoCommit(false);
        recorder.calls.clear();
    }

    @Test
    void metadataQuery() throws SQLException {
        proxy.getMetaData().getTables(null, null, "%", null).close();

        assertRolledBackAtReturn();
    }

    @Test
    void metadataQueryAfterACommit() throws SQLException {
        DatabaseMetaData metadata = proxy.getMetaData();
        proxy.commit();
        metadata.getColumns(null, null, "ITEM", "%").close();

        assertRolledBackAtReturn();
    }

    @Test
    void metadataResultSetReadAfterACommit() throws SQLException {
        ResultSet tables = proxy.getMetaData().getTables(null, null, "%", null);
        proxy.commit();
        tables.next(); // a driver may fetch a metadata result's rows lazily
        tables.close();

        assertRolledBackAtReturn();
    }

    @Test
    void typeMap() throws SQLException {
        proxy.getTypeMap();

        assertRolledBackAtReturn();
    }

    @Test
    void arrayOfAType() throws SQLException {
        proxy.createArrayOf("INTEGER", new Object[] {1});

        assertRolledBackAtReturn();
    }

    @Test
    void largeObjects() throws SQLException {
        proxy.createClob();

        assertRolledBackAtReturn();
    }

    @Test
    void nativeSql() throws SQLException {
        proxy.nativeSQL("select 1");

        assertRolledBackAtReturn();
    }

    @Test
    void driverConnectionAfterUnwrap() throws SQLException {
        proxy.commit();
        Connection physical = proxy.unwrap(org.h2.jdbc.JdbcConnection.class);
        try (Statement s = physical.createStatement()) {
            s.executeUpdate("insert into item values (1, 'through the driver')");
        }

        assertRolledBackAtReturn();
        assertThat(committedRows()).isZero();
    }

    @Test
    void driverConnectionAfterUnwrapIsPutBackAsConfigured() throws SQLException {
        proxy.setAutoCommit(true);
        Connection physical = proxy.unwrap(org.h2.jdbc.JdbcConnection.class);
        physical.setAutoCommit(false);
        try (Statement s = physical.createStatement()) {
            s.executeUpdate("insert into item values (1, 'through the driver')");
        }

        proxy.close();

        assertThat(real.getAutoCommit()).isTrue();
        assertThat(committedRows()).as("rolled back, not committed by restoring auto-commit").isZero();
    }

    @Test
    void unwrapToThePoolsOwnTypeIsNotTheDriver() throws SQLException {
        proxy.unwrap(Connection.class);
        recorder.calls.clear();

        proxy.close();

        assertThat(recorder.calls).as("nothing reached the server: no rollback")
                .doesNotContain("Connection.rollback()");
    }

    private void assertRolledBackAtReturn() {
        recorder.calls.clear();
        proxy.close();
        assertThat(recorder.calls).containsSubsequence("Connection.rollback()", "Connection.setAutoCommit(true)");
        assertThat(lease.giveBacks).isEqualTo(1);
    }
}
