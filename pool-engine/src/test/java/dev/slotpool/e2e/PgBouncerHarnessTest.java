package dev.slotpool.e2e;

import dev.slotpool.PoolerView;
import dev.slotpool.testsupport.OwnThread;
import dev.slotpool.testsupport.PgBouncerServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.slotpool.e2e.E2e.pgBouncer;
import static dev.slotpool.e2e.E2e.admin;
import static dev.slotpool.e2e.E2e.pool;
import static dev.slotpool.e2e.E2e.console;
import static dev.slotpool.e2e.E2e.await;
import static dev.slotpool.e2e.E2e.queryLong;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The PgBouncer harness itself ({@link PgBouncerServer} as {@link E2e#pgBouncer} configures it; docs/poolers.md,
 * "In the suite"): a real PgBouncer in front of an embedded PostgreSQL answers queries, and its admin console's
 * commands do what the scenarios rely on.
 */
class PgBouncerHarnessTest {

    private static EmbeddedPostgres server;
    private static PgBouncerServer bouncer;

    @BeforeAll
    static void start() throws IOException, SQLException {
        PgBouncerServer.binary();
        server = EmbeddedPostgres.builder().start();
        bouncer = pgBouncer("harness", server.getPort(), Map.of()).start();
    }

    @AfterAll
    static void stop() throws IOException {
        if (bouncer != null) {
            bouncer.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void queriesGoThroughAndShowPoolsCountsThem() throws Exception {
        try (Connection c = DriverManager.getConnection(bouncer.url("postgres"))) {
            c.setAutoCommit(false);
            assertThat(queryLong(c, "SELECT 41 + 1")).isEqualTo(42);
            // Inside a transaction: the client holds a server session, which the console counts.
            PoolerView view = console(bouncer).showPools("postgres", Duration.ofSeconds(30));
            assertThat(view.clientsActive()).isGreaterThanOrEqualTo(1);
            assertThat(view.serversActive()).isGreaterThanOrEqualTo(1);
            assertThat(view.clientsWaiting()).isZero();
            c.rollback();
        }
        Map<String, String> pool = pool(bouncer);
        assertThat(pool).containsKeys("cl_active", "cl_waiting", "sv_active", "sv_idle", "maxwait");
    }

    @Test
    void pauseHoldsANewTransactionUntilResume() throws Exception {
        try (Connection c = DriverManager.getConnection(bouncer.url("postgres"))) {
            admin(bouncer, "PAUSE postgres");
            try {
                CompletableFuture<Long> held = OwnThread.supply(() -> queryLong(c, "SELECT 7"));
                await("a client waiting on the paused database", () -> pool(bouncer).get("cl_waiting"),
                        w -> w != null && Integer.parseInt(w) >= 1);
                assertThat(held).isNotDone();
                admin(bouncer, "RESUME postgres");
                assertThat(held.get(30, TimeUnit.SECONDS)).isEqualTo(7);
            } finally {
                resumeQuietly();
            }
        }
    }

    @Test
    void disableRefusesNewClientsUntilEnable() throws Exception {
        admin(bouncer, "DISABLE postgres");
        try {
            SQLException refused = catchThrowableOfType(SQLException.class,
                    () -> DriverManager.getConnection(bouncer.url("postgres")).close());
            assertThat((Throwable) refused).as("a new client of a disabled database").isNotNull();
            // PgBouncer 1.18's words; the SQLState is 08P01 (protocol violation), as for its other refusals.
            assertThat(refused.getMessage()).contains("is disabled");
            assertThat(refused.getSQLState()).isEqualTo("08P01");
        } finally {
            admin(bouncer, "ENABLE postgres");
        }
        try (Connection c = DriverManager.getConnection(bouncer.url("postgres"))) {
            assertThat(queryLong(c, "SELECT 1")).isEqualTo(1);
        }
    }

    @Test
    void killClosesTheClientsAndReconnectTheServerSessions() throws Exception {
        try (Connection c = DriverManager.getConnection(bouncer.url("postgres"))) {
            assertThat(queryLong(c, "SELECT 1")).isEqualTo(1);
            admin(bouncer, "RECONNECT postgres");
            assertThat(queryLong(c, "SELECT 2")).as("RECONNECT keeps clients").isEqualTo(2);
            admin(bouncer, "KILL postgres");
            SQLException killed = catchThrowableOfType(SQLException.class, () -> queryLong(c, "SELECT 3"));
            assertThat((Throwable) killed).as("a client of a killed database").isNotNull();
        } finally {
            resumeQuietly();
        }
        try (Connection c = DriverManager.getConnection(bouncer.url("postgres"))) {
            assertThat(queryLong(c, "SELECT 4")).isEqualTo(4);
        }
    }

    @Test
    void aRestartKeepsThePort() throws Exception {
        int port = bouncer.port();
        bouncer.restart();
        assertThat(bouncer.port()).isEqualTo(port);
        try (Connection c = DriverManager.getConnection(bouncer.url("postgres"))) {
            assertThat(queryLong(c, "SELECT 5")).isEqualTo(5);
        }
    }

    /** KILL leaves the database paused (PgBouncer's console: "KILL db ... then PAUSE"): resumed for the next test. */
    private static void resumeQuietly() {
        try {
            admin(bouncer, "RESUME postgres");
        } catch (IOException | SQLException e) {
            // not paused: RESUME says so, nothing to undo
        }
    }
}
