package dev.slotpool.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StubDatabaseCountersTest {

    private StubDatabase db;

    @BeforeEach
    void resetDatabase() {
        db = StubDatabase.reset("counters-test");
    }

    private Connection open() throws SQLException {
        return DriverManager.getConnection(db.url());
    }

    @Test
    void namedReturnsTheSameInstanceUntilReset() {
        assertThat(StubDatabase.named("counters-test")).isSameAs(db);

        StubDatabase fresh = StubDatabase.reset("counters-test");

        assertThat(fresh).isNotSameAs(db);
        assertThat(StubDatabase.named("counters-test")).isSameAs(fresh);
    }

    @Test
    void resetDropsCountersAndSettings() throws SQLException {
        db.down(true);
        StubDatabase.reset();

        StubDatabase fresh = StubDatabase.named("counters-test");
        open().close();

        assertThat(fresh.opened()).isEqualTo(1);
        assertThat(db.connectAttempts()).isZero();
    }

    @Test
    void eachConnectionEndsExactlyOnce() throws SQLException {
        Connection closedTwice = open();
        Connection abortedThenClosed = open();
        Connection closedThenAborted = open();
        Connection stillOpen = open();

        closedTwice.close();
        closedTwice.close();
        abortedThenClosed.abort(Runnable::run);
        abortedThenClosed.close();
        abortedThenClosed.abort(Runnable::run);
        closedThenAborted.close();
        closedThenAborted.abort(Runnable::run);

        assertThat(db.opened()).isEqualTo(4);
        assertThat(db.closed()).isEqualTo(2);
        assertThat(db.aborted()).isEqualTo(1);
        assertThat(db.live()).isEqualTo(1);
        assertThat(abortedThenClosed.isClosed()).isTrue();

        stillOpen.close();
        assertThat(db.live()).isZero();
    }

    @Test
    void connectAttemptsIncludeFailures() throws SQLException {
        db.failNextConnects(1);
        try {
            open();
        } catch (SQLException expected) {
            // counted below
        }
        open().close();

        assertThat(db.connectAttempts()).isEqualTo(2);
        assertThat(db.failedConnects()).isEqualTo(1);
        assertThat(db.opened()).isEqualTo(1);
    }

    @Test
    void connectDelayIsApplied() throws SQLException {
        db.connectDelay(Duration.ofMillis(50));

        long start = System.nanoTime();
        open().close();

        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(50).toNanos());
    }

    @Test
    void everyStatementKindCountsItsExecutions() throws SQLException {
        try (Connection c = open();
             Statement s = c.createStatement();
             var ps = c.prepareStatement("UPDATE t SET x = ?");
             var cs = c.prepareCall("{call p()}")) {
            s.execute("SELECT 1");
            s.executeQuery("SELECT 1").close();
            s.executeUpdate("DELETE FROM t");
            ps.setInt(1, 7);
            ps.executeUpdate();
            ps.executeQuery().close();
            cs.execute();
        }

        assertThat(db.queries()).isEqualTo(6);
    }

    @Test
    void queryDelayIsApplied() throws SQLException {
        db.queryDelay(Duration.ofMillis(20));
        try (Connection c = open(); Statement s = c.createStatement()) {
            long start = System.nanoTime();
            s.executeQuery("SELECT 1").close();

            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(20).toNanos());
        }
    }

    @Test
    void isValidCallsAreCounted() throws SQLException {
        try (Connection c = open()) {
            c.isValid(1);
            c.isValid(0);
        }

        assertThat(db.validations()).isEqualTo(2);
        assertThat(db.queries()).isZero();
    }
}
