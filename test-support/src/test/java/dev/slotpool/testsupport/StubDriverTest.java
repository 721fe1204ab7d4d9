package dev.slotpool.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StubDriverTest {

    private StubDatabase db;

    @BeforeEach
    void resetDatabase() {
        db = StubDatabase.reset("driver-test");
    }

    @Test
    void driverManagerFindsTheDriverByUrl() throws SQLException {
        assertThat(DriverManager.getDriver("jdbc:stub:driver-test")).isInstanceOf(StubDriver.class);

        try (Connection c = DriverManager.getConnection("jdbc:stub:driver-test", "alice", "pw")) {
            StubConnection stub = c.unwrap(StubConnection.class);
            assertThat(stub.database()).isSameAs(db);
            assertThat(c.getMetaData().getUserName()).isEqualTo("alice");
            assertThat(c.getMetaData().getURL()).isEqualTo("jdbc:stub:driver-test");
        }
        assertThat(db.opened()).isEqualTo(1);
    }

    @Test
    void foreignUrlsAreLeftToOtherDrivers() throws SQLException {
        StubDriver driver = new StubDriver();

        assertThat(driver.acceptsURL("jdbc:h2:mem:x")).isFalse();
        assertThat(driver.connect("jdbc:h2:mem:x", new Properties())).isNull();
        assertThat(driver.acceptsURL("jdbc:stub:x")).isTrue();
        assertThat(db.connectAttempts()).isZero();
    }

    @Test
    void userUrlParameterIsUsedWhenNoUserPropertyIsGiven() throws SQLException {
        try (Connection c = new StubDriver().connect("jdbc:stub:driver-test?user=bob&password=pw", null)) {
            assertThat(c.getMetaData().getUserName()).isEqualTo("bob");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "jdbc:stub:",
            "jdbc:stub:?failRate=0",
            "jdbc:stub:driver-test?bogus=1",
            "jdbc:stub:driver-test?connectDelayMs=-1",
            "jdbc:stub:driver-test?connectDelayMs=abc",
            "jdbc:stub:driver-test?queryDelayMs=NaN",
            "jdbc:stub:driver-test?failRate=1.5",
            "jdbc:stub:driver-test?failRate=0&failRate=0",
            "jdbc:stub:driver-test?queryDelayMs=1&queryDelayMicros=5"})
    void malformedUrlsAreRejectedBeforeAnyConnectAttempt(String url) {
        assertThatThrownBy(() -> DriverManager.getConnection(url))
                .isInstanceOf(SQLException.class)
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("22023");
        assertThat(db.connectAttempts()).isZero();
    }

    @Test
    void connectDelayFromUrlOverridesTheDatabaseSetting() throws SQLException {
        long start = System.nanoTime();
        DriverManager.getConnection("jdbc:stub:driver-test?connectDelayMs=40").close();

        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(40_000_000L);
    }

    @Test
    void fractionalQueryDelayFromUrlIsApplied() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:stub:driver-test?queryDelayMs=0.5");
             var statement = c.createStatement()) {
            long start = System.nanoTime();
            for (int i = 0; i < 10; i++) {
                statement.execute("SELECT 1");
            }
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(5_000_000L);
        }
        assertThat(db.queries()).isEqualTo(10);
    }

    @Test
    void queryDelayMayBeGivenInMicroseconds() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:stub:driver-test?queryDelayMicros=3000");
             var statement = c.createStatement()) {
            long start = System.nanoTime();
            statement.executeQuery("SELECT 1").close();
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(3_000_000L);
        }
    }

    @Test
    void failRateFromUrlOverridesTheDatabaseSetting() {
        for (int i = 0; i < 50; i++) {
            assertThatThrownBy(() -> DriverManager.getConnection("jdbc:stub:driver-test?failRate=1"))
                    .isInstanceOf(SQLException.class);
        }
        assertThat(db.failedConnects()).isEqualTo(50);
        assertThat(db.opened()).isZero();
    }
}
