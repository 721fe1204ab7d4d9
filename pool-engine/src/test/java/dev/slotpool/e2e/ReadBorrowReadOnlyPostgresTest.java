package dev.slotpool.e2e;

import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * What a read borrow's {@code setReadOnly(true)} promises on a server that takes writes (docs/failover.md, "Reads to
 * standbys"): a read borrow that falls back to the primary. With pgjdbc's default {@code readOnlyMode=transaction}
 * every transaction it begins is read-only and a statement in auto-commit mode is not; with
 * {@code readOnlyMode=always} neither can write. Either way the connection takes writes again once returned.
 */
class ReadBorrowReadOnlyPostgresTest {

    private static EmbeddedPostgres pg;

    @BeforeAll
    static void startServer() throws IOException, SQLException {
        pg = EmbeddedPostgres.builder().start();
        try (Connection c = DriverManager.getConnection(pg.getJdbcUrl("postgres", "postgres"));
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE notes (id serial PRIMARY KEY, note text)");
        }
    }

    @AfterAll
    static void stopServer() throws IOException {
        pg.close();
    }

    private static SlotPoolBuilder pool() {
        return SlotPoolDataSource.builder().name("read-only").url(pg.getJdbcUrl("postgres", "postgres"))
                .minSize(1).maxSize(1).borrowTimeout(Duration.ofSeconds(10));
    }

    @Test
    void byDefaultEveryTransactionOfAReadBorrowIsReadOnlyButAnAutoCommitStatementIsNot() throws SQLException {
        try (SlotPoolDataSource ds = pool().build()) {
            try (Connection c = ds.forReads().getConnection()) {
                assertThat(c.isReadOnly()).isTrue();
                assertThat(write(c)).as("auto-commit: pgjdbc applies read-only at BEGIN only").isNull();
                c.setAutoCommit(false);
                assertThat(write(c)).as("in a transaction").isEqualTo("25006");
                c.rollback();
            }
            assertTakesWritesOnceReturned(ds);
        }
    }

    @Test
    void withReadOnlyModeAlwaysNoStatementOfAReadBorrowWrites() throws SQLException {
        try (SlotPoolDataSource ds = pool().connectionProperty("readOnlyMode", "always").build()) {
            try (Connection c = ds.forReads().getConnection()) {
                assertThat(write(c)).as("auto-commit").isEqualTo("25006");
                c.setAutoCommit(false);
                assertThat(write(c)).as("in a transaction").isEqualTo("25006");
                c.rollback();
            }
            assertTakesWritesOnceReturned(ds);
        }
    }

    private static void assertTakesWritesOnceReturned(SlotPoolDataSource ds) throws SQLException {
        try (Connection c = ds.getConnection()) {
            assertThat(c.isReadOnly()).isFalse();
            assertThat(write(c)).as("an ordinary borrow of the same connection writes").isNull();
        }
    }

    /** Inserts a row; the failure's SQLState, or null when it was written. */
    private static String write(Connection c) {
        SQLException e = catchThrowableOfType(SQLException.class, () -> {
            try (Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO notes (note) VALUES ('written')");
            }
        });
        return e == null ? null : e.getSQLState();
    }
}
