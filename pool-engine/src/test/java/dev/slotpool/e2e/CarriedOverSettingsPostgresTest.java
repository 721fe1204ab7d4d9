package dev.slotpool.e2e;

import dev.slotpool.testsupport.PostgresPasswords;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.PoolInitializationException;
import dev.slotpool.PoolEvent;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static dev.slotpool.e2e.E2e.await;
import static dev.slotpool.e2e.E2e.queryString;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Settings HikariCP users carry over, against a real PostgreSQL server whose role {@value #ROLE} must log in with
 * its password (scram-sha-256; initdb's trusts everyone): per-connection auto-commit, isolation and schema set at
 * creation and restored at return, the init SQL, and a refused login backing off at once.
 */
class CarriedOverSettingsPostgresTest {

    private static final String ROLE = "app";
    private static final String PASSWORD = "Pg-pw-7Hq2";

    private static EmbeddedPostgres pg;
    private static String url;

    @BeforeAll
    static void startServer() throws IOException, SQLException {
        pg = EmbeddedPostgres.builder().start();
        url = "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
        try (Connection c = superuser(); Statement st = c.createStatement()) {
            st.execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + PASSWORD + "'");
            st.execute("CREATE SCHEMA other AUTHORIZATION " + ROLE);
            PostgresPasswords.require(c);
        }
        // The reload is asynchronous: wait until a wrong password is refused.
        await("a wrong password refused", () -> {
            try (Connection c = DriverManager.getConnection(url, ROLE, "not-" + PASSWORD)) {
                return false;
            } catch (SQLException e) {
                return true;
            }
        }, refused -> refused);
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (pg != null) {
            pg.close();
        }
    }

    private static Connection superuser() throws SQLException {
        return DriverManager.getConnection(pg.getJdbcUrl("postgres", "postgres"));
    }

    @Test
    void sessionSettingsAndInitSqlApplyToNewConnectionsAndComeBackAtReturn() throws Exception {
        try (SlotPoolDataSource ds = SlotPoolDataSource.builder().name("carried").url(url).username(ROLE)
                .password(PASSWORD).minSize(1).maxSize(1).autoCommit(false).transactionIsolation("serializable")
                .schema("other").connectionInitSql("SET statement_timeout = '7s'").build()) {
            String backend;
            try (Connection c = ds.getConnection()) {
                backend = queryString(c, "SELECT pg_backend_pid()::text");
                assertThat(c.getAutoCommit()).isFalse();
                assertThat(queryString(c, "SHOW transaction_isolation")).isEqualTo("serializable");
                assertThat(queryString(c, "SELECT current_schema()")).isEqualTo("other");
                assertThat(queryString(c, "SHOW statement_timeout")).as("init SQL, committed").isEqualTo("7s");
                c.rollback();
                c.setAutoCommit(true);
                c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                c.setSchema("public");
                assertThat(queryString(c, "SELECT current_schema()")).isEqualTo("public");
            }
            try (Connection c = ds.getConnection()) {
                assertThat(c.getAutoCommit()).as("auto-commit restored").isFalse();
                assertThat(queryString(c, "SHOW transaction_isolation")).as("isolation restored")
                        .isEqualTo("serializable");
                assertThat(queryString(c, "SELECT current_schema()")).as("schema restored").isEqualTo("other");
                assertThat(queryString(c, "SHOW statement_timeout")).isEqualTo("7s");
                assertThat(queryString(c, "SELECT pg_backend_pid()::text")).as("the same connection")
                        .isEqualTo(backend);
            }
        }
    }

    /**
     * The start retries within the connect timeout and then reports the last failure: 5 s, so a connect on a loaded
     * machine (over 500 ms in a suite at load 25) still gets to run the init SQL whose error is asserted.
     */
    @Test
    void aFailingInitSqlFailsTheStartWithTheServersError() {
        E2e.RecordingListener events = new E2e.RecordingListener();
        assertThatThrownBy(() -> SlotPoolDataSource.builder().name("init-fails").url(url).username(ROLE)
                .password(PASSWORD).minSize(1).maxSize(1).connectTimeout(Duration.ofSeconds(5))
                // One attempt: every attempt fails the same way, so retrying them for 5 s proves nothing more.
                .initializationFailTimeout(Duration.ZERO)
                .connectionInitSql("SET ROLE postgres").listener(events).build())
                .isInstanceOf(PoolInitializationException.class)
                .hasMessageContaining("connectionInitSql failed").hasMessageContaining("permission denied")
                .hasMessageNotContaining(PASSWORD);
        assertThat(events.events).filteredOn(e -> e.type() == PoolEvent.Type.CREATION_FAILED).first()
                .satisfies(e -> assertThat(e.detail()).contains("connectionInitSql failed")
                        .doesNotContain(PASSWORD));
    }

    /** Measured on this server: with the fast back-off (50 ms doubling) 5 refused logins in the window, now 1. */
    @Test
    void aWrongPasswordIsTriedOnceAndThenBacksOffToTheMaximum() {
        E2e.RecordingListener events = new E2e.RecordingListener();
        try (SlotPoolDataSource ds = SlotPoolDataSource.builder().name("wrong-pw").url(url).username(ROLE)
                .password("not-" + PASSWORD).minSize(1).maxSize(1).downAfterFailures(0)
                .initializationFailTimeout(Duration.ofMillis(-1))
                .creationBackoffMax(Duration.ofMinutes(1)).listener(events).build()) {
            await("the first refused login", () -> failures(events), n -> n >= 1);
            long windowEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (System.nanoTime() - windowEnd < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
            assertThat(failures(events)).as("connect attempts in the second after the refusal (an upper bound)")
                    .isEqualTo(1);
            assertThat(events.events).filteredOn(e -> e.type() == PoolEvent.Type.CREATION_FAILED).first()
                    .satisfies(e -> assertThat(e.detail()).startsWith("authentication failed").contains("28P01")
                            .doesNotContain(PASSWORD));
        }
    }

    private static long failures(E2e.RecordingListener events) {
        return events.events.stream().filter(e -> e.type() == PoolEvent.Type.CREATION_FAILED).count();
    }
}
