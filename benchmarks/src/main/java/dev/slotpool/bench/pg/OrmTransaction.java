package dev.slotpool.bench.pg;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The fleet workload's transaction (docs/poolers.md, "The table"): three prepared statements as an ORM runs them,
 * a read, an update and an insert with 1, 2 and 3 parameters of different types, so a statement bound to another
 * statement's parameters fails rather than passing unnoticed.
 */
final class OrmTransaction {

    /** Rows of {@code fleet_account}. */
    static final int ACCOUNTS = 1000;

    private static final String READ = "SELECT balance FROM fleet_account WHERE id = ?";
    private static final String UPDATE = "UPDATE fleet_account SET balance = balance + ? WHERE id = ?";
    private static final String INSERT = "INSERT INTO fleet_history (account, amount, note) VALUES (?, ?, ?)";

    private OrmTransaction() {
    }

    /** Creates the two tables, through a connection to the server itself (not the pooler). */
    static void createSchema(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE fleet_account (id int PRIMARY KEY, balance bigint NOT NULL)");
            st.execute("CREATE TABLE fleet_history (account int NOT NULL, amount bigint NOT NULL, note text)");
            st.execute("INSERT INTO fleet_account SELECT g, 0 FROM generate_series(1, " + ACCOUNTS + ") g");
            st.execute("VACUUM ANALYZE fleet_account");
        }
    }

    /**
     * Runs the transaction on a borrowed connection (auto-commit off); returns normally only when it committed.
     * A failure rolls back before it is thrown, so the connection goes back with no transaction open.
     */
    static void run(Connection c, int id, long amount) throws SQLException {
        c.setAutoCommit(false);
        try {
            try (PreparedStatement read = c.prepareStatement(READ)) {
                read.setInt(1, id);
                try (ResultSet rs = read.executeQuery()) {
                    if (!rs.next()) {
                        throw new SQLException("account " + id + " not found");
                    }
                    rs.getLong(1);
                }
            }
            try (PreparedStatement update = c.prepareStatement(UPDATE)) {
                update.setLong(1, amount);
                update.setInt(2, id);
                if (update.executeUpdate() != 1) {
                    throw new SQLException("account " + id + " not updated");
                }
            }
            try (PreparedStatement insert = c.prepareStatement(INSERT)) {
                insert.setInt(1, id);
                insert.setLong(2, amount);
                insert.setString(3, "fleet");
                insert.executeUpdate();
            }
            c.commit();
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException r) {
                e.addSuppressed(r);
            }
            throw e;
        }
    }
}
