package dev.slotpool.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/** PgBouncer's refusals (SQLState 08P01 with its words) are told apart from a broken session (docs/poolers.md,
 * "Pooler signals"); the messages are PgBouncer 1.18's. */
class PoolerRefusalTest {

    @Test
    void pgbouncersRefusalsAreRecognised() {
        for (String m : new String[] {"FATAL: query_wait_timeout", "FATAL: no more connections allowed (max_client_conn)",
                "FATAL: database \"postgres\" is disabled", "ERROR: pgbouncer cannot connect to server",
                "FATAL: server login has been failing, try again later (server_login_retry)",
                "FATAL: client_login_timeout (server down)"}) {
            SQLException e = new SQLException(m, "08P01");
            assertThat(SqlErrors.isPoolerRefusal(e)).as(m).isTrue();
            assertThat(SqlErrors.isFatal(e)).as("still evicts: the pooler closed the connection").isTrue();
            assertThat(SqlErrors.isPoolerRefusal(new SQLException("wrapped", "08006", e))).isTrue();
        }
    }

    @Test
    void otherProtocolAndConnectionErrorsAreNot() {
        assertThat(SqlErrors.isPoolerRefusal(new SQLException("FATAL: query_wait_timeout", "08006"))).isFalse();
        assertThat(SqlErrors.isPoolerRefusal(new SQLException("An I/O error occurred", "08006"))).isFalse();
        assertThat(SqlErrors.isPoolerRefusal(new SQLException("protocol violation", "08P01"))).isFalse();
        assertThat(SqlErrors.isPoolerRefusal(new SQLException((String) null, "08P01"))).isFalse();
    }
}
