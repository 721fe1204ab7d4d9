package dev.slotpool.e2e;

import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Transaction and return-hygiene behaviour every database must show through the pool, checked against a real
 * driver and server. Subclasses provide the database (a fresh, empty table {@code e2e_tx(id, note)} and a
 * schema {@link #otherSchema()} before each test) and the server-side views of a session.
 *
 * <p>Where a test must see the same physical connection twice, the pool has maxSize 1 and the test also
 * compares the server's session id, so a pool that silently replaced the connection cannot pass by accident.
 */
abstract class TransactionHygieneContract {

    private final List<SlotPoolDataSource> pools = new ArrayList<>();

    /** JDBC URL, user and password of the database under test. */
    abstract String url();

    abstract String username();

    abstract String password();

    /** A connection opened with the driver directly, bypassing the pool: the independent observer. */
    abstract Connection plain() throws SQLException;

    /** The server's identifier of the session behind {@code c} (backend pid, H2 session id). */
    abstract String sessionId(Connection c) throws SQLException;

    /** Whether the server reports that session as holding an open transaction with uncommitted work. */
    abstract boolean serverSeesOpenTransaction(Connection observer, String sessionId) throws SQLException;

    /** The session's isolation level as the server reports it, lower case ("read committed"). */
    abstract String serverIsolation(Connection c) throws SQLException;

    /** The session's current schema as the server reports it. */
    abstract String serverSchema(Connection c) throws SQLException;

    /** The schema connections start in, and a second one the tests create. */
    abstract String defaultSchema();

    abstract String otherSchema();

    /** Checks on the server that a transaction begun on {@code c} would be read-write (where the database has
     * such a notion at all). */
    abstract void assertServerTransactionsAreReadWrite(Connection c) throws SQLException;

    /** The driver's own statement and result set classes, to reach the physical objects behind the proxies. */
    abstract Class<? extends Statement> driverStatementType();

    abstract Class<? extends ResultSet> driverResultSetType();

    /** A builder for a small pool on the database under test. */
    SlotPoolBuilder pool(String name) {
        return SlotPoolDataSource.builder()
                .name(name)
                .url(url())
                .username(username())
                .password(password())
                .minSize(2)
                .maxSize(8)
                .borrowTimeout(Duration.ofSeconds(10));
    }

    /** Builds and remembers the pool so {@link #closePools()} closes it even when the test fails. */
    SlotPoolDataSource start(SlotPoolBuilder builder) {
        SlotPoolDataSource ds = builder.build();
        pools.add(ds);
        return ds;
    }

    @AfterEach
    void closePools() {
        pools.forEach(SlotPoolDataSource::close);
        pools.clear();
    }

    // ---- transactions --------------------------------------------------------------------------------------

    @Test
    void committedInsertIsVisibleFromAnotherConnection() throws SQLException {
        SlotPoolDataSource ds = start(pool("commit"));
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            insert(c, 1);
            // Held by us, so the pool must lend another physical connection: it must not see the row yet.
            try (Connection other = ds.getConnection()) {
                assertThat(sessionId(other)).isNotEqualTo(sessionId(c));
                assertThat(count(other, 1)).isZero();
            }
            c.commit();
            try (Connection other = ds.getConnection()) {
                assertThat(count(other, 1)).isEqualTo(1);
            }
        }
        try (Connection observer = plain()) {
            assertThat(count(observer, 1)).isEqualTo(1);
        }
    }

    @Test
    void rolledBackInsertIsNotVisible() throws SQLException {
        SlotPoolDataSource ds = start(pool("rollback"));
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            insert(c, 2);
            assertThat(count(c, 2)).isEqualTo(1);
            c.rollback();
            assertThat(count(c, 2)).isZero();
            try (Connection other = ds.getConnection()) {
                assertThat(count(other, 2)).isZero();
            }
        }
        try (Connection observer = plain()) {
            assertThat(count(observer, 2)).isZero();
        }
    }

    @Test
    void uncommittedWorkIsRolledBackWhenTheConnectionIsReturned() throws SQLException {
        SlotPoolDataSource ds = start(pool("rollback-at-return").minSize(1).maxSize(1));
        String session;
        try (Connection c = ds.getConnection(); Connection observer = plain()) {
            session = sessionId(c);
            c.setAutoCommit(false);
            insert(c, 3);
            // Precondition: the server really has the open transaction the pool must clean up.
            assertThat(serverSeesOpenTransaction(observer, session)).isTrue();
        }
        try (Connection observer = plain()) {
            // Rolled back, not committed (restoring auto-commit alone would commit it) and not left pending.
            assertThat(count(observer, 3)).isZero();
            assertThat(serverSeesOpenTransaction(observer, session)).isFalse();
        }
        try (Connection next = ds.getConnection()) {
            assertThat(sessionId(next)).as("maxSize 1: the same physical connection").isEqualTo(session);
            assertThat(next.getAutoCommit()).isTrue();
            // A still-open transaction would show its own uncommitted row to this session.
            assertThat(count(next, 3)).isZero();
        }
        try (Connection observer = plain()) {
            assertThat(count(observer, 3)).isZero();
        }
    }

    // ---- return hygiene ------------------------------------------------------------------------------------

    @Test
    void stateChangedByTheHolderIsResetForTheNextBorrower() throws SQLException {
        SlotPoolDataSource ds = start(pool("dirty-state").minSize(1).maxSize(1));
        String session;
        int originalIsolation;
        try (Connection c = ds.getConnection()) {
            session = sessionId(c);
            originalIsolation = c.getTransactionIsolation();
            assertThat(originalIsolation).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
            assertThat(c.getSchema()).isEqualTo(defaultSchema());

            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            c.setReadOnly(true);
            c.setSchema(otherSchema());
            // Preconditions: the server really took the changes, so a reset is needed.
            assertThat(serverIsolation(c)).isEqualTo("serializable");
            assertThat(serverSchema(c)).isEqualTo(otherSchema());
        }
        try (Connection next = ds.getConnection()) {
            assertThat(sessionId(next)).as("maxSize 1: the same physical connection").isEqualTo(session);
            assertThat(next.getTransactionIsolation()).isEqualTo(originalIsolation);
            assertThat(next.isReadOnly()).isFalse();
            assertThat(next.getSchema()).isEqualTo(defaultSchema());
            assertThat(serverIsolation(next)).isEqualTo("read committed");
            assertThat(serverSchema(next)).isEqualTo(defaultSchema());
            assertServerTransactionsAreReadWrite(next);
            // And it can write again, into the default schema's table.
            insert(next, 4);
            assertThat(count(next, 4)).isEqualTo(1);
        }
    }

    @Test
    void statementsLeftOpenByTheHolderAreClosedAtReturn() throws SQLException {
        SlotPoolDataSource ds = start(pool("statements"));
        Statement st;
        PreparedStatement ps;
        ResultSet rs;
        Statement physicalSt;
        Statement physicalPs;
        ResultSet physicalRs;
        try (Connection c = ds.getConnection()) {
            st = c.createStatement();
            rs = st.executeQuery("SELECT 1");
            ps = c.prepareStatement("SELECT count(*) FROM e2e_tx WHERE id = ?");
            ps.setInt(1, 5);
            ps.executeQuery();
            // The driver's objects, unwrapped while open: the proxies' flags alone would not prove the
            // driver's statements (and their server-side resources) were released.
            physicalSt = st.unwrap(driverStatementType());
            physicalPs = ps.unwrap(driverStatementType());
            physicalRs = rs.unwrap(driverResultSetType());
            assertThat(physicalSt).isNotSameAs(st);
            assertThat(st.isClosed()).isFalse();
            assertThat(ps.isClosed()).isFalse();
            assertThat(physicalPs.isClosed()).isFalse();
        }
        assertThat(st.isClosed()).as("plain statement").isTrue();
        assertThat(ps.isClosed()).as("prepared statement").isTrue();
        assertThat(rs.isClosed()).as("its result set").isTrue();
        assertThat(physicalSt.isClosed()).as("driver's plain statement").isTrue();
        assertThat(physicalPs.isClosed()).as("driver's prepared statement").isTrue();
        assertThat(physicalRs.isClosed()).as("driver's result set").isTrue();
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    static void insert(Connection c, int id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO e2e_tx (id, note) VALUES (?, ?)")) {
            ps.setInt(1, id);
            ps.setString(2, "row " + id);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }

    static int count(Connection c, int id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM e2e_tx WHERE id = ?")) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
