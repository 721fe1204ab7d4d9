package dev.slotpool.e2e;

import dev.slotpool.ServerRole;
import dev.slotpool.failover.RoleReader;
import dev.slotpool.failover.RoleReading;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/** The PostgreSQL role query against a real primary and standby: roles, replay lag, timelines after a promotion. */
class RoleReaderPostgresTest {

    private static RoleReading read(PgStandbyPair pair, int server) throws SQLException {
        try (Connection c = DriverManager.getConnection(pair.url(server))) {
            return RoleReader.read(c);
        }
    }

    private static void update(PgStandbyPair pair) throws SQLException {
        try (Connection c = DriverManager.getConnection(pair.url(0)); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE accounts SET balance = balance + 1 WHERE id = 1");
        }
    }

    @Test
    void primaryStandbyLagPromotionAndTheOldPrimaryOnItsOldTimeline() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair()) {
            RoleReading primary = read(pair, 0);
            assertThat(primary.role()).isEqualTo(ServerRole.PRIMARY);
            assertThat(primary.timeline()).isEqualTo(1);
            RoleReading standby = read(pair, 1);
            assertThat(standby.role()).isEqualTo(ServerRole.STANDBY);
            assertThat(standby.cluster()).as("a standby's family is its primary's").isEqualTo(primary.cluster())
                    .isNotBlank();
            assertThat(standby.lagBytes()).isZero();
            assertThat(standby.lagMillis()).as("caught up: no lag, however old the last replayed transaction").isZero();

            // A replayed transaction first: the lag in time counts from the last one replayed.
            update(pair);
            E2e.await("the update replayed", () -> pair.query(1, "SELECT balance FROM accounts WHERE id = 1"),
                    "1"::equals);
            pair.pauseReplay(1);
            update(pair);
            RoleReading behind = E2e.await("the standby received WAL it does not replay", () -> read(pair, 1),
                    r -> r.lagBytes() > 0);
            assertThat(behind.lagMillis()).isPositive();
            System.out.printf("ROLES standby with replay paused: %d bytes and %d ms behind%n", behind.lagBytes(),
                    behind.lagMillis());
            pair.resumeReplay(1);
            E2e.await("caught up again", () -> read(pair, 1), r -> r.lagBytes() == 0 && r.lagMillis() == 0);

            // Promotion needs replay running: a paused standby would promote only after resuming anyway.
            pair.stopAbruptly(0);
            pair.promote(1);
            RoleReading promoted = read(pair, 1);
            assertThat(promoted.role()).isEqualTo(ServerRole.PRIMARY);
            assertThat(promoted.timeline()).as("the new timeline at once, before any checkpoint").isEqualTo(2);

            pair.restart(0);
            RoleReading old = read(pair, 0);
            assertThat(old.role()).as("the old primary still claims to be primary").isEqualTo(ServerRole.PRIMARY);
            assertThat(old.timeline()).isEqualTo(1);
        }
    }

    @Test
    void anOrdinaryUserReadsTheRoleAndASessionMadeReadOnlyDoesNotMakeThePrimaryReadOnly() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair()) {
            try (Connection admin = DriverManager.getConnection(pair.url(0)); Statement st = admin.createStatement()) {
                st.execute("CREATE ROLE app LOGIN");
            }
            try (Connection app = DriverManager.getConnection(pair.url(0).replace("user=postgres", "user=app"))) {
                RoleReading r = RoleReader.read(app);
                assertThat(r.role()).as("%s", r).isEqualTo(ServerRole.PRIMARY);
                assertThat(r.cluster()).isNotBlank();
                assertThat(r.timeline()).isEqualTo(1);
            }
            readOnlySession(pair);
        }
    }

    private static void readOnlySession(PgStandbyPair pair) throws Exception {
        try (Connection c = DriverManager.getConnection(pair.url(0))) {
            try (Statement st = c.createStatement()) {
                st.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
            }
            assertThat(RoleReader.read(c).role()).isEqualTo(ServerRole.PRIMARY);
            try (Connection admin = DriverManager.getConnection(pair.url(0)); Statement st = admin.createStatement()) {
                st.execute("ALTER SYSTEM SET default_transaction_read_only = on");
                st.execute("SELECT pg_reload_conf()");
            }
            E2e.await("the server's configuration read-only", () -> read(pair, 0).role(),
                    r -> r == ServerRole.READ_ONLY);
        }
    }
}
