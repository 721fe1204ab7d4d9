package dev.slotpool.bench.pg;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * pgbench's core: borrow, add a delta to one account's balance, read the balance back, commit, return. One per
 * thread; it sums the deltas it committed, so the table's balances can be checked against what was applied.
 */
final class AccountTransaction {

    private static final String UPDATE = "UPDATE accounts SET abalance = abalance + ? WHERE aid = ?";
    private static final String SELECT = "SELECT abalance FROM accounts WHERE aid = ?";

    private final DataSource dataSource;
    private long committedDelta;

    AccountTransaction(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Runs one transaction; returns normally only when it committed and the connection went back to the pool,
     * with how long its work took: from {@code getConnection()}'s return to {@code commit()}'s. Not to
     * {@code close()}'s: HikariCP's close can wait until a waiter has taken the connection, so its end would
     * overlap the next transaction's work.
     */
    long run(int aid, int delta) throws SQLException {
        long work;
        try (Connection c = dataSource.getConnection()) {
            long lent = System.nanoTime();
            c.setAutoCommit(false);
            try (PreparedStatement update = c.prepareStatement(UPDATE);
                 PreparedStatement select = c.prepareStatement(SELECT)) {
                update.setInt(1, delta);
                update.setInt(2, aid);
                if (update.executeUpdate() != 1) {
                    throw new SQLException("no account " + aid);
                }
                select.setInt(1, aid);
                try (ResultSet rs = select.executeQuery()) {
                    if (!rs.next()) {
                        throw new SQLException("account " + aid + " vanished");
                    }
                    // Fetched and decoded like an application would; the value itself is not needed.
                    rs.getInt(1);
                }
                c.commit();
                work = System.nanoTime() - lent;
                // Counted here: a failure after the commit (closing) still leaves the delta in the table.
                committedDelta += delta;
            } catch (SQLException | RuntimeException e) {
                rollback(c, e);
                throw e;
            }
        }
        return work;
    }

    /** The sum of the deltas this instance committed. */
    long committedDelta() {
        return committedDelta;
    }

    /** Ends a failed transaction before the connection goes back, so the next borrower starts clean. */
    private static void rollback(Connection c, Exception cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
