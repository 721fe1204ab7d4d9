package dev.slotpool.e2e;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The harness itself: a standby that streams, refuses writes, is promoted, and an old primary that returns. */
class PgStandbyPairTest {

    @Test
    void aStandbyStreamsRefusesWritesIsPromotedAndTheOldPrimaryReturnsOnTheOldTimeline() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair()) {
            assertThat(pair.inRecovery(0)).isFalse();
            assertThat(pair.inRecovery(1)).isTrue();
            try (Connection c = DriverManager.getConnection(pair.url(0)); Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE accounts SET balance = 7 WHERE id = 1");
            }
            E2e.await("the update replayed on the standby",
                    () -> pair.query(1, "SELECT balance FROM accounts WHERE id = 1"), "7"::equals);
            try (Connection c = DriverManager.getConnection(pair.url(1)); Statement st = c.createStatement()) {
                assertThatThrownBy(() -> st.executeUpdate("UPDATE accounts SET balance = 8 WHERE id = 1"))
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25006"));
            }
            long before = pair.timeline(1);

            pair.stopAbruptly(0);
            pair.promote(1);
            assertThat(pair.inRecovery(1)).isFalse();
            E2e.await("server 1's checkpoint on the new timeline", () -> pair.timeline(1), t -> t > before);

            pair.restart(0);
            assertThat(pair.inRecovery(0)).as("the old primary claims to be primary").isFalse();
            assertThat(pair.timeline(0)).isLessThan(pair.timeline(1));
        }
    }
}
