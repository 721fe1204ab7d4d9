package dev.slotpool.origins;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The pool's WAL questions to PostgreSQL: a planned switchover's (docs/failover.md, "Planned switchover"), how
 * far the primary has written its WAL and whether a standby has replayed up to a position; the role watch's
 * (docs/failover.md, "Reads to standbys"), how far the primary has flushed and a standby has received. Runs on a pool thread, on a session no user
 * holds; each query is bounded by {@code timeoutSeconds}. Other databases have no such question here: a planned
 * switchover of Oracle Data Guard is the broker's ({@code SWITCHOVER TO}), which this pool follows as a promotion.
 */
public final class WalPositions {

    private final int timeoutSeconds;

    public WalPositions(int timeoutSeconds) {
        this.timeoutSeconds = timeoutSeconds;
    }

    /** Refuses a session whose server is not PostgreSQL, naming the product. */
    public void requirePostgresql(Connection c) throws SQLException {
        String product = c.getMetaData().getDatabaseProductName();
        if (product == null || !product.toLowerCase(Locale.ROOT).contains("postgresql")) {
            throw new SQLException("a planned switchover checks the standby's catch-up on PostgreSQL only (the server"
                    + " is " + product + ")");
        }
    }

    /**
     * The end of the WAL the primary has generated, e.g. {@code 0/3000060}: its insert position, not its write
     * position ({@code pg_current_wal_lsn()}). With {@code synchronous_commit=off} commits sit in the WAL buffers
     * until the WAL writer writes them out, a page at a time, so the write position can trail transactions already
     * committed, and a standby that replayed up to it would be promoted without them.
     */
    public String generated(Connection c) throws SQLException {
        return ask(c, "SELECT pg_current_wal_insert_lsn()::text", null, 1)[0];
    }

    /**
     * The end of the WAL the primary has flushed: what a standby streaming from it can have received (a WAL sender
     * sends flushed WAL only); -1 when the server answers no position (a standby) or not one of PostgreSQL's form.
     */
    public long flushed(Connection c) throws SQLException {
        return lsn(ask(c, "SELECT pg_current_wal_flush_lsn()::text", null, 1)[0]);
    }

    /** The end of the WAL a standby has received and flushed by streaming; -1 when the server answers no position
     * (a primary, or a standby that has streamed nothing) or not one of PostgreSQL's form. */
    public long received(Connection c) throws SQLException {
        return lsn(ask(c, "SELECT pg_last_wal_receive_lsn()::text", null, 1)[0]);
    }

    /** A position as PostgreSQL writes it ({@code 16/B374D848}: high and low 32 bits in hex) as a number; -1 when
     * it is not one. */
    static long lsn(String text) {
        int slash = text == null ? -1 : text.indexOf('/');
        if (slash < 1 || slash > 8 || text.length() - slash - 1 < 1 || text.length() - slash - 1 > 8
                || !text.chars().allMatch(ch -> ch == '/' || Character.digit(ch, 16) >= 0)) {
            return -1;
        }
        try {
            return Long.parseLong(text.substring(0, slash), 16) << 32 | Long.parseLong(text.substring(slash + 1), 16);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Whether the standby has replayed the WAL up to {@code position}; also what it has replayed, and whether the
     * server is a standby still ({@link Replay#promoted}: promoted by someone else meanwhile).
     */
    public Replay replayed(Connection c, String position) throws SQLException {
        String[] row = ask(c, "SELECT pg_is_in_recovery()::text, pg_last_wal_replay_lsn()::text,"
                + " (pg_wal_lsn_diff(pg_last_wal_replay_lsn(), ?::pg_lsn) >= 0)::text", position, 3);
        boolean promoted = !"true".equals(row[0]);
        return new Replay(row[1], !promoted && "true".equals(row[2]), promoted);
    }

    /**
     * A standby's replayed position and whether it reached the one asked about.
     *
     * @param promoted the server is no longer a standby ({@code pg_is_in_recovery()} is false): it takes writes, so
     *                 the switchover has ended and the old primary must not take them again
     */
    public record Replay(String position, boolean reached, boolean promoted) {
    }

    private String[] ask(Connection c, String sql, String parameter, int columns) throws SQLException {
        String[] row;
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setQueryTimeout(timeoutSeconds);
            if (parameter != null) {
                ps.setString(1, parameter);
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("no row from " + sql);
                }
                row = new String[columns];
                for (int i = 0; i < row.length; i++) {
                    row[i] = rs.getString(i + 1);
                }
            }
        }
        if (!c.getAutoCommit()) {
            c.rollback();
        }
        return row;
    }
}
