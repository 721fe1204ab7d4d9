package dev.slotpool.e2e;

import dev.slotpool.PoolerView;
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

import static dev.slotpool.e2e.E2e.await;
import static dev.slotpool.e2e.E2e.queryLong;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The PgBouncer harness itself (docs/poolers.md, "In the suite"): a real PgBouncer in front of an embedded
 * PostgreSQL answers queries, and its admin console's commands do what the scenarios rely on.
 */
class PgBouncerHarnessTest {

    private static EmbeddedPostgres server;
    private static PgBouncer bouncer;

    @BeforeAll
    static void start() throws IOException, SQLException {
        PgBouncer.binary();
        server = EmbeddedPostgres.builder().start();
        bouncer = new PgBouncer("harness", server.getPort(), Map.of()).start();
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
        try (Connection c = DriverManager.getConnection(bouncer.url())) {
            c.setAutoCommit(false);
            assertThat(queryLong(c, "SELECT 41 + 1")).isEqualTo(42);
            // Inside a transaction: the client holds a server session, which the console counts.
            PoolerView view = bouncer.console().showPools("postgres", Duration.ofSeconds(30));
            assertThat(view.clientsActive()).isGreaterThanOrEqualTo(1);
            assertThat(view.serversActive()).isGreaterThanOrEqualTo(1);
            assertThat(view.clientsWaiting()).isZero();
            c.rollback();
        }
        Map<String, String> pool = bouncer.pool();
        assertThat(pool).containsKeys("cl_active", "cl_waiting", "sv_active", "sv_idle", "maxwait");
    }

    @Test
    void pauseHoldsANewTransactionUntilResume() throws Exception {
        try (Connection c = DriverManager.getConnection(bouncer.url())) {
            bouncer.admin("PAUSE postgres");
            try {
                CompletableFuture<Long> held = CompletableFuture.supplyAsync(() -> {
                    try {
                        return queryLong(c, "SELECT 7");
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                await("a client waiting on the paused database", () -> bouncer.pool().get("cl_waiting"),
                        w -> w != null && Integer.parseInt(w) >= 1);
                assertThat(held).isNotDone();
                bouncer.admin("RESUME postgres");
                assertThat(held.get(30, TimeUnit.SECONDS)).isEqualTo(7);
            } finally {
                resumeQuietly();
            }
        }
    }

    @Test
    void disableRefusesNewClientsUntilEnable() throws Exception {
        bouncer.admin("DISABLE postgres");
        try {
            SQLException refused = catchThrowableOfType(SQLException.class,
                    () -> DriverManager.getConnection(bouncer.url()).close());
            assertThat((Throwable) refused).as("a new client of a disabled database").isNotNull();
            // PgBouncer 1.18's words; the SQLState is 08P01 (protocol violation), as for its other refusals.
            assertThat(refused.getMessage()).contains("is disabled");
            assertThat(refused.getSQLState()).isEqualTo("08P01");
        } finally {
            bouncer.admin("ENABLE postgres");
        }
        try (Connection c = DriverManager.getConnection(bouncer.url())) {
            assertThat(queryLong(c, "SELECT 1")).isEqualTo(1);
        }
    }

    @Test
    void killClosesTheClientsAndReconnectTheServerSessions() throws Exception {
        try (Connection c = DriverManager.getConnection(bouncer.url())) {
            assertThat(queryLong(c, "SELECT 1")).isEqualTo(1);
            bouncer.admin("RECONNECT postgres");
            assertThat(queryLong(c, "SELECT 2")).as("RECONNECT keeps clients").isEqualTo(2);
            bouncer.admin("KILL postgres");
            SQLException killed = catchThrowableOfType(SQLException.class, () -> queryLong(c, "SELECT 3"));
            assertThat((Throwable) killed).as("a client of a killed database").isNotNull();
        } finally {
            resumeQuietly();
        }
        try (Connection c = DriverManager.getConnection(bouncer.url())) {
            assertThat(queryLong(c, "SELECT 4")).isEqualTo(4);
        }
    }

    @Test
    void aRestartKeepsThePort() throws Exception {
        int port = bouncer.port();
        bouncer.restart();
        assertThat(bouncer.port()).isEqualTo(port);
        try (Connection c = DriverManager.getConnection(bouncer.url())) {
            assertThat(queryLong(c, "SELECT 5")).isEqualTo(5);
        }
    }

    /** KILL leaves the database paused (PgBouncer's console: "KILL db ... then PAUSE"): resumed for the next test. */
    private static void resumeQuietly() {
        try {
            bouncer.admin("RESUME postgres");
        } catch (IOException | SQLException e) {
            // not paused: RESUME says so, nothing to undo
        }
    }
}
