package dev.slotpool.testsupport;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Scripted answers, the product name and read-only mode: what lets code that asks a server about itself run on the
 * stub. */
class StubAnswersTest {

    private StubDatabase db;

    @BeforeEach
    void resetDatabase() {
        db = StubDatabase.reset("answers-test");
    }

    @Test
    void aQueryContainingTheFragmentGetsTheScriptedRowByIndexAndLabel() throws SQLException {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("in_recovery", "t");
        row.put("timeline", 3L);
        row.put("lag_millis", null);
        db.answer("pg_is_in_recovery()", row);
        try (Connection c = DriverManager.getConnection(db.url()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT PG_IS_IN_RECOVERY() AS in_recovery, 3 AS timeline")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getBoolean("IN_RECOVERY")).isTrue();
            assertThat(rs.getInt(2)).isEqualTo(3);
            assertThat(rs.getString("timeline")).isEqualTo("3");
            assertThat(rs.getLong("lag_millis")).isZero();
            assertThat(rs.wasNull()).isTrue();
            assertThat(rs.getObject(3, Long.class)).isNull();
            assertThatThrownBy(() -> rs.getInt("nope")).isInstanceOf(SQLException.class);
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void otherQueriesAndPreparedOnesKeepOrGetTheirAnswer() throws SQLException {
        db.answer("from v$database", Map.of("database_role", "PHYSICAL STANDBY"));
        try (Connection c = DriverManager.getConnection(db.url())) {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1 FROM dual")) {
                rs.next();
                assertThat(rs.getInt("anything")).isEqualTo(1);
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT database_role FROM V$DATABASE")) {
                assertThat(ps.execute()).isTrue();
                ResultSet rs = ps.getResultSet();
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("PHYSICAL STANDBY");
            }
        }
    }

    @Test
    void answersChangeForLaterExecutionsAndTheProductNameIsReported() throws SQLException {
        db.productName("PostgreSQL").answer("pg_is_in_recovery", Map.of("r", true));
        try (Connection c = DriverManager.getConnection(db.url()); Statement st = c.createStatement()) {
            assertThat(c.getMetaData().getDatabaseProductName()).isEqualTo("PostgreSQL");
            assertThat(first(st, "select pg_is_in_recovery()")).isEqualTo("true");
            db.answer("pg_is_in_recovery", Map.of("r", false));
            assertThat(first(st, "select pg_is_in_recovery()")).isEqualTo("false");
        }
    }

    @Test
    void aReadOnlyDatabaseRefusesUpdatesWith25006AndKeepsTheConnection() throws SQLException {
        db.readOnly(true);
        try (Connection c = DriverManager.getConnection(db.url()); Statement st = c.createStatement()) {
            assertThatThrownBy(() -> st.executeUpdate("UPDATE t SET x = 1"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25006"));
            assertThat(first(st, "SELECT 1")).isEqualTo("1");
            db.readOnly(false);
            assertThat(st.executeUpdate("UPDATE t SET x = 1")).isZero();
        }
    }

    private static String first(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
