package dev.slotpool.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FailureInjectionTest {

    private StubDatabase db;

    @BeforeEach
    void resetDatabase() {
        db = StubDatabase.reset("failure-test");
    }

    @AfterEach
    void releaseHungConnects() {
        StubDatabase.reset("failure-test");
    }

    private Connection open() throws SQLException {
        return DriverManager.getConnection(db.url());
    }

    private static String sqlState(Throwable e) {
        return ((SQLException) e).getSQLState();
    }

    @Test
    void downDatabaseRefusesConnectsWith08001() throws SQLException {
        db.down(true);

        assertThatThrownBy(this::open)
                .isInstanceOf(SQLException.class)
                .hasMessage("stub database failure-test is down")
                .extracting(FailureInjectionTest::sqlState).isEqualTo("08001");

        db.down(false);
        open().close();
        assertThat(db.failedConnects()).isEqualTo(1);
        assertThat(db.opened()).isEqualTo(1);
    }

    @Test
    void failNextConnectsFailsExactlyThatMany() throws SQLException {
        db.failNextConnects(2);

        assertThatThrownBy(this::open).extracting(FailureInjectionTest::sqlState).isEqualTo("08001");
        assertThatThrownBy(this::open).extracting(FailureInjectionTest::sqlState).isEqualTo("08001");
        open().close();

        assertThat(db.connectAttempts()).isEqualTo(3);
        assertThat(db.failedConnects()).isEqualTo(2);
        assertThat(db.opened()).isEqualTo(1);
    }

    @Test
    void failRateOneAlwaysFails() {
        db.failRate(1.0);

        for (int i = 0; i < 200; i++) {
            assertThatThrownBy(this::open).extracting(FailureInjectionTest::sqlState).isEqualTo("08001");
        }
        assertThat(db.opened()).isZero();
    }

    @Test
    void failRateZeroNeverFails() throws SQLException {
        db.failRate(0.0);

        for (int i = 0; i < 200; i++) {
            open().close();
        }
        assertThat(db.failedConnects()).isZero();
        assertThat(db.opened()).isEqualTo(200);
    }

    @Test
    void killedConnectionsFailWith08006AndAreInvalid() throws SQLException {
        Connection victim = open();
        Statement statement = victim.createStatement();

        db.killLiveConnections();

        assertThatThrownBy(() -> statement.executeQuery("SELECT 1"))
                .hasMessage("connection reset")
                .extracting(FailureInjectionTest::sqlState).isEqualTo("08006");
        assertThatThrownBy(victim::getAutoCommit).extracting(FailureInjectionTest::sqlState).isEqualTo("08006");
        assertThatThrownBy(victim::createStatement).extracting(FailureInjectionTest::sqlState).isEqualTo("08006");
        assertThat(victim.isValid(1)).isFalse();

        try (Connection survivor = open(); Statement s = survivor.createStatement()) {
            assertThat(survivor.isValid(1)).isTrue();
            s.executeQuery("SELECT 1").close();
        }
        victim.close();
        assertThat(db.live()).isZero();
    }

    @Test
    void nonFatalQueryFailuresLeaveTheConnectionUsable() throws SQLException {
        db.failNextQueries(2, "40001");
        try (Connection c = open(); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("UPDATE t")).extracting(FailureInjectionTest::sqlState)
                    .isEqualTo("40001");
            assertThatThrownBy(() -> s.executeQuery("SELECT 1")).extracting(FailureInjectionTest::sqlState)
                    .isEqualTo("40001");
            s.executeQuery("SELECT 1").close();

            assertThat(c.isValid(1)).isTrue();
        }
        assertThat(db.queries()).isEqualTo(3);
    }

    @Test
    void fatalQueryFailureBreaksTheConnection() throws SQLException {
        db.failNextQueries(1, "08S01");
        try (Connection c = open(); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("SELECT 1")).extracting(FailureInjectionTest::sqlState)
                    .isEqualTo("08S01");

            assertThat(c.isValid(1)).isFalse();
            assertThatThrownBy(() -> s.execute("SELECT 1")).extracting(FailureInjectionTest::sqlState)
                    .isEqualTo("08006");
        }
    }

    @Test
    void hungConnectFailsWhenItsThreadIsInterrupted() throws Exception {
        db.hangConnects(true);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean interruptFlagKept = new AtomicBoolean();
        Thread connector = new Thread(() -> {
            try {
                open().close();
            } catch (Throwable e) {
                failure.set(e);
                interruptFlagKept.set(Thread.currentThread().isInterrupted());
            }
        });
        connector.start();
        awaitHung(connector);

        connector.interrupt();
        connector.join(TimeUnit.SECONDS.toMillis(10));

        assertThat(connector.isAlive()).as("connect returned after the interrupt").isFalse();
        assertThat(failure.get()).isInstanceOf(SQLException.class);
        assertThat(sqlState(failure.get())).isEqualTo("08001");
        assertThat(interruptFlagKept).isTrue();
        assertThat(db.failedConnects()).isEqualTo(1);
        assertThat(db.opened()).isZero();
    }

    @Test
    void hungConnectCompletesWhenReleased() throws Exception {
        db.hangConnects(true);
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread connector = new Thread(() -> {
            try (Connection c = open()) {
                outcome.set(c.isValid(1));
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        connector.start();
        awaitHung(connector);

        db.hangConnects(false);
        connector.join(TimeUnit.SECONDS.toMillis(10));

        assertThat(connector.isAlive()).as("connect returned after the release").isFalse();
        assertThat(outcome.get()).isEqualTo(true);
        assertThat(db.opened()).isEqualTo(1);
    }

    /** Waits until the thread is blocked inside a hung connect, so the test proves the connect really hangs. */
    private void awaitHung(Thread connector) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (db.connectAttempts() == 0 || connector.getState() != Thread.State.WAITING) {
            if (System.nanoTime() > deadline) {
                fail("connect did not hang; thread state " + connector.getState());
            }
            Thread.sleep(1);
        }
        Thread.sleep(50);
        assertThat(connector.getState()).isEqualTo(Thread.State.WAITING);
        assertThat(db.opened()).isZero();
    }
}
