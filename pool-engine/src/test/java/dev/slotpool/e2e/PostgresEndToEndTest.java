package dev.slotpool.e2e;

import dev.slotpool.CloseReason;
import dev.slotpool.SlotPoolDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static dev.slotpool.e2e.E2e.await;
import static dev.slotpool.e2e.E2e.queryLong;
import static dev.slotpool.e2e.E2e.queryString;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The pool against a real PostgreSQL server (embedded, one per class): transactions and return hygiene from
 * {@link TransactionHygieneContract}, plus eviction of a connection whose backend the server killed.
 */
class PostgresEndToEndTest extends TransactionHygieneContract {

    /** Set on the eviction tests' pools so pg_stat_activity shows exactly the pool's backends. */
    private static final String APP_NAME = "slotpool-e2e";

    private static EmbeddedPostgres pg;
    private static String url;

    @BeforeAll
    static void startServer() throws IOException, SQLException {
        pg = EmbeddedPostgres.builder().start();
        url = pg.getJdbcUrl("postgres", "postgres");
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE e2e_tx (id int PRIMARY KEY, note text)");
            st.execute("CREATE SCHEMA other");
        }
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (pg != null) {
            pg.close();
        }
    }

    @BeforeEach
    void emptyTable() throws SQLException {
        try (Connection c = plain(); Statement st = c.createStatement()) {
            st.execute("TRUNCATE e2e_tx");
        }
    }

    @Override
    String url() {
        return url;
    }

    @Override
    String username() {
        return "postgres";
    }

    @Override
    String password() {
        return null;
    }

    @Override
    Connection plain() throws SQLException {
        return DriverManager.getConnection(url);
    }

    @Override
    String sessionId(Connection c) throws SQLException {
        return queryString(c, "SELECT pg_backend_pid()");
    }

    @Override
    boolean serverSeesOpenTransaction(Connection observer, String sessionId) throws SQLException {
        try (PreparedStatement ps = observer.prepareStatement(
                "SELECT state, backend_xid IS NOT NULL FROM pg_stat_activity WHERE pid = ?")) {
            ps.setInt(1, Integer.parseInt(sessionId));
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("backend %s exists", sessionId).isTrue();
                boolean inTransaction = rs.getString(1).startsWith("idle in transaction");
                return inTransaction && rs.getBoolean(2);
            }
        }
    }

    @Override
    String serverIsolation(Connection c) throws SQLException {
        return queryString(c, "SHOW transaction_isolation");
    }

    @Override
    String serverSchema(Connection c) throws SQLException {
        return queryString(c, "SELECT current_schema()");
    }

    @Override
    String defaultSchema() {
        return "public";
    }

    @Override
    String otherSchema() {
        return "other";
    }

    @Override
    Class<? extends Statement> driverStatementType() {
        return org.postgresql.jdbc.PgStatement.class;
    }

    @Override
    Class<? extends ResultSet> driverResultSetType() {
        return org.postgresql.jdbc.PgResultSet.class;
    }

    /** pgjdbc applies read-only at BEGIN (readOnlyMode=transaction): a transaction shows what the server got. */
    @Override
    void assertServerTransactionsAreReadWrite(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try {
            assertThat(queryString(c, "SHOW transaction_read_only")).isEqualTo("off");
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    // ---- driver properties -----------------------------------------------------------------------------------

    /** The eviction tests count the pool's backends by application_name, so the property must reach the driver
     * of a pool configured with a URL alone (no explicit origin). */
    @Test
    void connectionPropertiesReachTheDriver() throws SQLException {
        SlotPoolDataSource ds = start(pool("properties").connectionProperty("ApplicationName", APP_NAME + "-props"));
        try (Connection c = ds.getConnection()) {
            assertThat(queryString(c, "SHOW application_name")).isEqualTo(APP_NAME + "-props");
        }
    }

    /** pgjdbc keeps client info (ApplicationName) per session: a holder's change must not reach the next one. */
    @Test
    void clientInfoTheHolderSetIsPutBackForTheNextBorrower() throws SQLException {
        SlotPoolDataSource ds = start(pool("client-info").minSize(1).maxSize(1)
                .connectionProperty("ApplicationName", APP_NAME + "-info"));
        try (Connection c = ds.getConnection()) {
            c.setClientInfo("ApplicationName", "holder-a");
            assertThat(queryString(c, "SHOW application_name")).isEqualTo("holder-a");
        }
        try (Connection c = ds.getConnection()) {
            assertThat(c.getClientInfo("ApplicationName")).isEqualTo(APP_NAME + "-info");
            assertThat(queryString(c, "SHOW application_name")).isEqualTo(APP_NAME + "-info");
        }
    }

    // ---- eviction of a connection whose backend was terminated ---------------------------------------------

    @Test
    void validationOnBorrowReplacesAConnectionWhoseBackendWasKilled() throws SQLException {
        awaitPoolBackends(0);
        var events = new E2e.RecordingListener();
        SlotPoolDataSource ds = start(pool("evict-validated")
                .minSize(1).maxSize(1)
                .validateAfterIdle(Duration.ZERO) // every borrow validates
                .connectionProperty("ApplicationName", APP_NAME)
                .listener(events));

        long killed = borrowBackendPid(ds);
        terminate(killed);

        // No error may reach the user: validation finds the dead connection and the pool lends a new one.
        long replacement = borrowBackendPid(ds);
        assertThat(replacement).isNotEqualTo(killed);
        assertThat(events.closed(CloseReason.VALIDATION_FAILED)).isEqualTo(1);

        assertServerHoldsExactlyThePoolsConnections(ds);
    }

    @Test
    void aConnectionThatFailsWithAFatalErrorIsEvicted() throws SQLException {
        awaitPoolBackends(0);
        var events = new E2e.RecordingListener();
        SlotPoolDataSource ds = start(pool("evict-unvalidated")
                .minSize(1).maxSize(1)
                .validateAfterIdle(Duration.ofHours(1)) // validation effectively off: the user meets the error
                .keepaliveInterval(Duration.ZERO)
                .connectionProperty("ApplicationName", APP_NAME)
                .listener(events));

        long killed = borrowBackendPid(ds);
        terminate(killed);

        try (Connection c = ds.getConnection()) {
            SQLException e = catchThrowableOfType(SQLException.class, () -> queryLong(c, "SELECT pg_backend_pid()"));
            assertThat((Throwable) e).as("the first statement on the killed backend fails").isNotNull();
            String state = String.valueOf(e.getSQLState());
            assertThat(state.startsWith("08") || state.equals("57P01"))
                    .as("SQLState %s of %s is a connection error (class 08) or admin_shutdown (57P01)", state, e)
                    .isTrue();
        }
        // The broken connection was closed at return, not lent again.
        long replacement = borrowBackendPid(ds);
        assertThat(replacement).isNotEqualTo(killed);
        assertThat(events.closed(CloseReason.BROKEN)).isEqualTo(1);

        assertServerHoldsExactlyThePoolsConnections(ds);
    }

    /** The server's view agrees with the pool's: as many backends as the snapshot's total, none after close. */
    private void assertServerHoldsExactlyThePoolsConnections(SlotPoolDataSource ds) {
        int total = ds.snapshot().total();
        assertThat(total).isEqualTo(1);
        awaitPoolBackends(total);
        ds.close();
        // Backends exit asynchronously after the client's goodbye.
        awaitPoolBackends(0);
    }

    private static long borrowBackendPid(SlotPoolDataSource ds) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return queryLong(c, "SELECT pg_backend_pid()");
        }
    }

    /** Kills a backend from outside the pool and waits (up to 5 s, server-side) until it has exited. */
    private static void terminate(long pid) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement ps = c.prepareStatement("SELECT pg_terminate_backend(?, 5000)")) {
            ps.setInt(1, (int) pid);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getBoolean(1)).as("backend %d terminated", pid).isTrue();
            }
        }
    }

    private static void awaitPoolBackends(int expected) {
        await("pg_stat_activity shows " + expected + " backend(s) with application_name " + APP_NAME,
                PostgresEndToEndTest::poolBackends, n -> n == expected);
    }

    private static long poolBackends() throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement ps = c.prepareStatement(
                     "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?")) {
            ps.setString(1, APP_NAME);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
