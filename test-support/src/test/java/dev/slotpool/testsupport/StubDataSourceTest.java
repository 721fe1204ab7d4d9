package dev.slotpool.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StubDataSourceTest {

    private static final String SECRET = "s3cr3t-Pa55";

    private StubDatabase db;

    @BeforeEach
    void resetDatabase() {
        db = StubDatabase.reset("datasource-test");
    }

    @AfterEach
    void releaseHungConnects() {
        StubDatabase.reset("datasource-test");
    }

    @Test
    void beanConfiguredDataSourceOpensCountedConnections() throws SQLException {
        StubDataSource ds = new StubDataSource();
        ds.setURL(db.url());
        ds.setUser("dave");
        ds.setPassword(SECRET);

        try (Connection c = ds.getConnection()) {
            assertThat(c.getMetaData().getUserName()).isEqualTo("dave");
            assertThat(c.isValid(1)).isTrue();
        }
        assertThat(ds.getUrl()).isEqualTo(ds.getURL()).isEqualTo(db.url());
        assertThat(db.opened()).isEqualTo(1);
        assertThat(db.closed()).isEqualTo(1);
    }

    @Test
    void dataSourceWithoutUrlFails() {
        assertThatThrownBy(() -> new StubDataSource().getConnection()).isInstanceOf(SQLException.class);
    }

    @Test
    void passwordNeverAppearsInMessagesOrToString() throws Exception {
        Properties props = new Properties();
        props.setProperty("user", "erin");
        props.setProperty("password", SECRET);

        db.down(true);
        assertNoSecret(catchThrowable(() -> DriverManager.getConnection(db.url(), props)));
        db.down(false);
        db.failNextConnects(1);
        assertNoSecret(catchThrowable(() -> DriverManager.getConnection(db.url(), props)));
        assertNoSecret(catchThrowable(() -> DriverManager.getConnection(db.url() + "?nope=" + SECRET, props)));
        assertNoSecret(catchThrowable(() -> DriverManager.getConnection(db.url() + "?failRate=1", props)));
        assertNoSecret(catchThrowable(() -> DriverManager.getConnection(db.url() + "?failRate=2", props)));
        assertNoSecret(interruptedHungConnect(props));

        Connection c = DriverManager.getConnection(db.url(), props);
        assertThat(c.toString()).doesNotContain(SECRET);
        assertThat(c.getMetaData().toString()).doesNotContain(SECRET);
        for (Field field : StubConnection.class.getDeclaredFields()) {
            field.setAccessible(true);
            assertThat(String.valueOf(field.get(c))).as(field.getName()).doesNotContain(SECRET);
        }
        db.killLiveConnections();
        assertNoSecret(catchThrowable(c::createStatement));
        c.close();
        assertNoSecret(catchThrowable(c::getAutoCommit));

        StubDataSource ds = new StubDataSource(db.url() + "?password=" + SECRET);
        ds.setUser("erin");
        ds.setPassword(SECRET);
        assertThat(ds.toString()).contains("erin").doesNotContain(SECRET);
        db.down(true);
        assertNoSecret(catchThrowable(() -> ds.getConnection("erin", SECRET)));
    }

    private Throwable interruptedHungConnect(Properties props) throws Exception {
        db.hangConnects(true);
        try {
            var executor = Executors.newSingleThreadExecutor();
            try {
                Future<Throwable> outcome = executor.submit(() -> {
                    Thread.currentThread().interrupt();
                    return catchThrowable(() -> DriverManager.getConnection(db.url(), props));
                });
                return outcome.get(10, TimeUnit.SECONDS);
            } finally {
                executor.shutdownNow();
            }
        } finally {
            db.hangConnects(false);
        }
    }

    private static void assertNoSecret(Throwable thrown) {
        assertThat(thrown).isInstanceOf(SQLException.class);
        StringWriter trace = new StringWriter();
        thrown.printStackTrace(new PrintWriter(trace));
        assertThat(trace.toString()).doesNotContain(SECRET);
    }
}
