package dev.slotpool.failover;

import dev.slotpool.ServerRole;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The role queries and what their answers mean, on the stub driver (a PostgreSQL or Oracle by its product name). */
class RoleReaderTest {

    private final StubDatabase db = StubDatabase.reset("role-reader");

    @AfterEach
    void reset() {
        StubDatabase.reset("role-reader");
    }

    private RoleReading read() throws SQLException {
        try (Connection c = DriverManager.getConnection(db.url())) {
            return RoleReader.read(c);
        }
    }

    private static Map<String, Object> pg(Object inRecovery, String defaultReadOnly, Object timeline, Object lagBytes,
                                          Object lagMillis) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("in_recovery", inRecovery);
        row.put("cluster", "7311");
        row.put("transaction_read_only", "t".equals(inRecovery) ? "on" : "off");
        row.put("default_read_only", defaultReadOnly);
        row.put("timeline", timeline);
        row.put("lag_bytes", lagBytes);
        row.put("lag_millis", lagMillis);
        row.put("receiver", "t".equals(inRecovery) ? "streaming" : null);
        return row;
    }

    @Test
    void aPostgresqlPrimaryTakesWritesAndTellsItsTimeline() throws SQLException {
        db.productName("PostgreSQL").answer("pg_is_in_recovery()", pg("f", "off", 3, null, null));
        RoleReading r = read();
        assertThat(r.role()).isEqualTo(ServerRole.PRIMARY);
        assertThat(r.takesWrites()).isTrue();
        assertThat(r.timeline()).isEqualTo(3);
        assertThat(r.cluster()).isEqualTo("7311");
        assertThat(r.lagBytes()).isEqualTo(-1);
        assertThat(r.lagMillis()).isEqualTo(-1);
        assertThat(r.detail()).isEqualTo("primary on timeline 3");
    }

    @Test
    void aPostgresqlServerInRecoveryIsAStandbyWithItsLag() throws SQLException {
        db.productName("PostgreSQL").answer("pg_is_in_recovery()", pg("t", "off", null, 8192L, 1500L));
        RoleReading r = read();
        assertThat(r.role()).isEqualTo(ServerRole.STANDBY);
        assertThat(r.takesWrites()).isFalse();
        assertThat(r.lagBytes()).isEqualTo(8192);
        assertThat(r.lagMillis()).isEqualTo(1500);
        assertThat(r.detail()).contains("pg_is_in_recovery() is true");
    }

    @Test
    void aStandbyWhoseWalReceiverIsNotStreamingHasNoKnownLag() throws SQLException {
        for (String receiver : new String[] {"none", "starting", "waiting", "stopping"}) {
            Map<String, Object> row = pg("t", "off", null, 0L, 0L);
            row.put("receiver", receiver);
            db.productName("PostgreSQL").answer("pg_is_in_recovery()", row);
            RoleReading r = read();
            assertThat(r.role()).isEqualTo(ServerRole.STANDBY);
            assertThat(r.lagBytes()).as(receiver).isEqualTo(-1);
            assertThat(r.lagMillis()).as("what it received is replayed, but it receives nothing: %s", receiver)
                    .isEqualTo(-1);
            assertThat(r.detail()).contains("not streaming",
                    receiver.equals("none") ? "none running" : receiver);
        }
    }

    @Test
    void aReceiverWhoseStatusTheUserMayNotSeeCountsAsStreaming() throws SQLException {
        Map<String, Object> row = pg("t", "off", null, 0L, 0L);
        row.put("receiver", "running");
        db.productName("PostgreSQL").answer("pg_is_in_recovery()", row);
        RoleReading r = read();
        assertThat(r.lagMillis()).isZero();
        assertThat(r.detail()).isEqualTo("standby (pg_is_in_recovery() is true)");
    }

    @Test
    void aPostgresqlPrimaryConfiguredReadOnlyTakesNoWrites() throws SQLException {
        db.productName("PostgreSQL").answer("pg_is_in_recovery()", pg("f", "on", 1, null, null));
        RoleReading r = read();
        assertThat(r.role()).isEqualTo(ServerRole.READ_ONLY);
        assertThat(r.takesWrites()).isFalse();
        assertThat(r.detail()).contains("default_transaction_read_only");
    }

    @Test
    void oracleRolesAndOpenModes() throws SQLException {
        db.productName("Oracle");
        assertThat(oracle("PRIMARY", "READ WRITE", 100)).isEqualTo(ServerRole.PRIMARY);
        assertThat(read().timeline()).isEqualTo(100);
        assertThat(read().cluster()).isEqualTo("1234567");
        assertThat(oracle("PRIMARY", "READ ONLY", 100)).isEqualTo(ServerRole.READ_ONLY);
        assertThat(oracle("PHYSICAL STANDBY", "READ ONLY WITH APPLY", 100)).isEqualTo(ServerRole.STANDBY);
        assertThat(oracle("PHYSICAL STANDBY", "MOUNTED", 100)).isEqualTo(ServerRole.STANDBY);
        assertThat(oracle("SNAPSHOT STANDBY", "READ WRITE", 100)).as("its writes are thrown away later")
                .isEqualTo(ServerRole.STANDBY);
        assertThat(oracle("LOGICAL STANDBY", "READ WRITE", 100)).isEqualTo(ServerRole.STANDBY);
        assertThat(oracle("FAR SYNC", "MOUNTED", 100)).isEqualTo(ServerRole.STANDBY);
        assertThat(oracle("SOMETHING NEW", "READ WRITE", 100)).isEqualTo(ServerRole.UNKNOWN);
        assertThat(read().detail()).isEqualTo("unknown role (DATABASE_ROLE SOMETHING NEW, OPEN_MODE READ WRITE)");
    }

    private ServerRole oracle(String role, String openMode, long resetlogs) throws SQLException {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("DATABASE_ROLE", role);
        row.put("OPEN_MODE", openMode);
        row.put("RESETLOGS_CHANGE#", resetlogs);
        row.put("DBID", 1234567L);
        db.answer("FROM V$DATABASE", row);
        return read().role();
    }

    @Test
    void aDatabaseWithoutARoleQueryIsUnknownAndTakesWrites() throws SQLException {
        RoleReading r = read();
        assertThat(r.role()).isEqualTo(ServerRole.UNKNOWN);
        assertThat(r.takesWrites()).isTrue();
        assertThat(r.detail()).isEqualTo("no role query for Stub");
        assertThat(db.queries()).as("nothing asked").isZero();
    }

    @Test
    void aFailedRoleQueryIsUnknownAndLeavesTheConnectionAsFound() throws SQLException {
        db.productName("Oracle").failNextQueries(1, "42000");
        try (Connection c = DriverManager.getConnection(db.url())) {
            c.setAutoCommit(false);
            RoleReading r = RoleReader.read(c);
            assertThat(r.role()).isEqualTo(ServerRole.UNKNOWN);
            assertThat(r.takesWrites()).isTrue();
            assertThat(r.detail()).startsWith("the role query failed: 42000");
            assertThat(c.unwrap(dev.slotpool.testsupport.StubConnection.class).rollbacks()).isEqualTo(1);
        }
    }
}
