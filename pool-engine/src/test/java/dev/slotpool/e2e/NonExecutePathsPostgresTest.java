package dev.slotpool.e2e;

import dev.slotpool.SlotPoolDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static dev.slotpool.e2e.E2e.queryString;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With auto-commit off, work that reaches the server without a statement's {@code executeX} (metadata, a type's
 * lookup, the driver's own objects after {@code unwrap}) may open a transaction; the return rolls it back like any
 * other, so the next borrower of the same session starts clean (docs/architecture.md, "Return hygiene"). Each test
 * borrows twice from a pool of one session and watches that session from a plain connection.
 */
class NonExecutePathsPostgresTest {

    private static EmbeddedPostgres pg;
    private static String url;
    private SlotPoolDataSource pool;

    @BeforeAll
    static void startServer() throws IOException {
        pg = EmbeddedPostgres.builder().start();
        url = pg.getJdbcUrl("postgres", "postgres");
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (pg != null) {
            pg.close();
        }
    }

    @BeforeEach
    void startPool() {
        pool = SlotPoolDataSource.builder().name("non-execute").url(url).username("postgres")
                .autoCommit(false).minSize(1).maxSize(1).borrowTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterEach
    void closePool() {
        pool.close();
    }

    @Test
    void aBorrowThatOnlyReadsTablesFromTheMetadataLeavesNoTransaction() throws SQLException {
        String session;
        try (Connection c = pool.getConnection()) {
            session = sessionId(c);
            c.commit(); // the session id query's transaction: only the metadata below is under test
            try (ResultSet tables = c.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
                tables.next();
            }
            assertThat(state(session)).as("precondition: the metadata query opened a transaction")
                    .isEqualTo("idle in transaction");
        }

        assertNextBorrowerStartsClean(session);
    }

    @Test
    void metadataReadAfterACommitIsRolledBackToo() throws SQLException {
        String session;
        try (Connection c = pool.getConnection()) {
            session = sessionId(c);
            DatabaseMetaData metadata = c.getMetaData();
            c.commit();
            metadata.getColumns(null, null, "pg_class", "%").close();
            assertThat(state(session)).isEqualTo("idle in transaction");
        }

        assertNextBorrowerStartsClean(session);
    }

    @Test
    void theDriverConnectionUsedAfterUnwrapLeavesNoTransaction() throws SQLException {
        String session;
        try (Connection c = pool.getConnection()) {
            session = sessionId(c);
            c.commit();
            try (Statement direct = ((Connection) c.unwrap(PGConnection.class)).createStatement()) {
                direct.execute("SELECT 1");
            }
            assertThat(state(session)).isEqualTo("idle in transaction");
        }

        assertNextBorrowerStartsClean(session);
    }

    @Test
    void restoringTheSchemaAtReturnLeavesNoTransactionAndSticks() throws SQLException {
        String session;
        try (Connection c = pool.getConnection()) {
            session = sessionId(c);
            c.commit();
            c.setSchema("pg_catalog");
        }

        assertNextBorrowerStartsClean(session);
        try (Connection next = pool.getConnection()) {
            queryString(next, "SELECT 1");
            next.rollback(); // a transaction the holder ends; the schema the return restored must survive it
            assertThat(queryString(next, "SELECT current_schema()")).isEqualTo("public");
        }
    }

    /** The same session, idle outside a transaction: read-only can be set (pgjdbc refuses it inside one, 25001). */
    private void assertNextBorrowerStartsClean(String session) throws SQLException {
        assertThat(state(session)).as("after the return").isEqualTo("idle");
        try (Connection next = pool.getConnection()) {
            assertThat(sessionId(next)).as("maxSize 1: the same session").isEqualTo(session);
            next.rollback(); // the session id query's own transaction
            next.setReadOnly(true);
            assertThat(queryString(next, "SHOW transaction_read_only")).isEqualTo("on");
        }
    }

    private static String sessionId(Connection c) throws SQLException {
        return queryString(c, "SELECT pg_backend_pid()");
    }

    /** The session's state as the server reports it ("idle", "idle in transaction"). */
    private static String state(String session) throws SQLException {
        try (Connection observer = DriverManager.getConnection(url);
             PreparedStatement ps = observer.prepareStatement("SELECT state FROM pg_stat_activity WHERE pid = ?")) {
            ps.setInt(1, Integer.parseInt(session));
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("backend %s exists", session).isTrue();
                return rs.getString(1);
            }
        }
    }
}
