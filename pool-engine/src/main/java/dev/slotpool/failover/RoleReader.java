package dev.slotpool.failover;

import dev.slotpool.ServerRole;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * Asks a connection's server for its role (docs/failover.md, "Primary and standbys"), with one query chosen by the
 * product the driver reports: PostgreSQL and Oracle have one; any other database reads as
 * {@link ServerRole#UNKNOWN} and takes writes. Runs on a pool thread, on a connection no user holds; a
 * query that fails reads UNKNOWN too (the reason in its detail) rather than failing the connection, so a user
 * without the privilege (Oracle's V$DATABASE needs SELECT_CATALOG_ROLE) keeps a working pool. A transaction the
 * query opened is rolled back, so the connection is left as it was found. The query is bounded whatever the
 * driver's settings: a query timeout of {@link #QUERY_TIMEOUT_SECONDS} (a server that answers cancels it) and a
 * network timeout of {@link #NETWORK_TIMEOUT_MILLIS} unless the session's own is shorter (a server that went silent
 * fails the read, and the driver closes the session), put back afterwards; so a silent standby reads as unknown
 * within seconds instead of holding its watcher until TCP gives up.
 */
public final class RoleReader {

    /**
     * PostgreSQL: {@code pg_is_in_recovery()} is the standby bit. The read-only setting is the server's
     * ({@code reset_val}: configuration, database or role), not one a session set, because the pool's own
     * {@code readOnly} setting may have set the session's. The timeline comes from the current WAL file's name
     * rather than {@code pg_control_checkpoint()}: a promoted server writes on its new timeline at once but
     * checkpoints it only later. The system identifier names the family a primary shares with its standbys. The
     * lag compares the
     * WAL received with the WAL replayed, because on an idle primary the last replayed transaction grows old while
     * the standby is fully caught up; replay may be ahead of what was received by streaming (a standby first
     * replays the WAL it started with), which is no lag. That comparison holds only while WAL keeps arriving: once
     * the standby's WAL receiver stops streaming (the primary lost, refusing it, or its WAL sender ended), what was
     * received stops growing and replay catches up with it while the primary commits on, so the lag is then
     * unknown. The receiver's status needs {@code pg_read_all_stats} (or {@code pg_monitor}); without it a user
     * sees only that a receiver runs ({@code 'running'}), which counts as streaming.
     */
    static final String POSTGRESQL = "SELECT pg_is_in_recovery() AS in_recovery,"
            + " (SELECT system_identifier FROM pg_control_system())::text AS cluster,"
            + " current_setting('transaction_read_only') AS transaction_read_only,"
            + " (SELECT reset_val FROM pg_settings WHERE name = 'default_transaction_read_only') AS default_read_only,"
            + " CASE WHEN NOT pg_is_in_recovery()"
            + " THEN ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int END AS timeline,"
            + " greatest(pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()), 0)::bigint AS lag_bytes,"
            + " CASE WHEN pg_last_wal_replay_lsn() >= pg_last_wal_receive_lsn() THEN 0"
            + " ELSE (extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000)::bigint END AS lag_millis,"
            + " CASE WHEN pg_is_in_recovery()"
            + " THEN coalesce((SELECT coalesce(status, 'running') FROM pg_stat_wal_receiver), 'none') END AS receiver";

    /** The receiver states in which received WAL keeps up with the primary's ({@link #POSTGRESQL}). */
    private static final Set<String> STREAMING = Set.of("streaming", "running");

    /** Oracle: the Data Guard role and how the database is open; the incarnation's start as the timeline; the
     * DBID, which a standby shares with its primary, as the family. */
    static final String ORACLE = "SELECT DATABASE_ROLE, OPEN_MODE, RESETLOGS_CHANGE#, DBID FROM V$DATABASE";

    /** The role query's query timeout, and that of the role watch's other questions. */
    public static final int QUERY_TIMEOUT_SECONDS = 5;
    /** The role query's network timeout (unless the session has a shorter one): longer than the query timeout, so a
     * server that answers is cancelled first and keeps the session. */
    static final int NETWORK_TIMEOUT_MILLIS = 10_000;

    /** For the network timeout: drivers want an executor, but the pool thread reading the role just waits. */
    private static final Executor INLINE = Runnable::run;

    private RoleReader() {
    }

    /** The role of the connection's server; never throws for a failed query (see the class comment). */
    public static RoleReading read(Connection c) {
        String product;
        try {
            product = c.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            return RoleReading.unknown("the driver did not name its database: " + describe(e));
        }
        String lower = product == null ? "" : product.toLowerCase(Locale.ROOT);
        if (lower.contains("postgresql")) {
            return ask(c, POSTGRESQL, RoleReader::postgresql);
        }
        if (lower.contains("oracle")) {
            return ask(c, ORACLE, RoleReader::oracle);
        }
        return RoleReading.unknown("no role query for " + product);
    }

    private interface Interpretation {
        RoleReading of(ResultSet rs) throws SQLException;
    }

    private static RoleReading ask(Connection c, String sql, Interpretation interpretation) {
        RoleReading reading;
        boolean failed = false;
        int restore = boundNetworkTimeout(c);
        try (Statement st = c.createStatement()) {
            st.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
            try (ResultSet rs = st.executeQuery(sql)) {
                reading = rs.next() ? interpretation.of(rs) : RoleReading.unknown("the role query returned no row");
            }
        } catch (SQLException e) {
            failed = true;
            reading = RoleReading.unknown("the role query failed: " + describe(e));
        }
        if (restore >= 0) {
            try {
                c.setNetworkTimeout(INLINE, restore);
            } catch (SQLException | RuntimeException e) {
                // The session is then broken (a timeout closes it); its next use finds it.
            }
        }
        try {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
        } catch (SQLException e) {
            // The connection is then broken; its next use (validation, the creator's publish) finds it. A failed
            // query's own error says more than the rollback's after it.
            return failed ? reading : RoleReading.unknown("rollback after the role query failed: " + describe(e));
        }
        return reading;
    }

    /** Sets the role query's network timeout; the session's own to put back after, or -1 when it was left as it
     * was (its own is shorter, or the driver has none). */
    private static int boundNetworkTimeout(Connection c) {
        try {
            int own = c.getNetworkTimeout();
            if (own > 0 && own <= NETWORK_TIMEOUT_MILLIS) {
                return -1;
            }
            c.setNetworkTimeout(INLINE, NETWORK_TIMEOUT_MILLIS);
            return own;
        } catch (SQLException | UnsupportedOperationException | AbstractMethodError e) {
            return -1; // a driver without network timeouts: the query timeout alone bounds it
        }
    }

    static RoleReading postgresql(ResultSet rs) throws SQLException {
        boolean inRecovery = rs.getBoolean("in_recovery");
        String cluster = rs.getString("cluster");
        boolean serverReadOnly = "on".equalsIgnoreCase(rs.getString("default_read_only"));
        long timeline = rs.getLong("timeline");
        long lagBytes = rs.getLong("lag_bytes");
        if (rs.wasNull()) {
            lagBytes = -1;
        }
        long lagMillis = rs.getLong("lag_millis");
        if (rs.wasNull()) {
            lagMillis = -1;
        }
        if (inRecovery) {
            String receiver = rs.getString("receiver");
            if (!STREAMING.contains(receiver)) {
                return new RoleReading(ServerRole.STANDBY, cluster, 0, -1, -1,
                        "standby (pg_is_in_recovery() is true), its WAL receiver not streaming ("
                                + ("none".equals(receiver) ? "none running" : receiver) + ")");
            }
            return new RoleReading(ServerRole.STANDBY, cluster, 0, lagBytes, lagMillis,
                    "standby (pg_is_in_recovery() is true)");
        }
        if (serverReadOnly) {
            return new RoleReading(ServerRole.READ_ONLY, cluster, timeline, -1, -1,
                    "read-only (default_transaction_read_only is on in the server's configuration)");
        }
        return new RoleReading(ServerRole.PRIMARY, cluster, timeline, -1, -1, "primary on timeline " + timeline);
    }

    static RoleReading oracle(ResultSet rs) throws SQLException {
        String role = String.valueOf(rs.getString("DATABASE_ROLE")).trim().toUpperCase(Locale.ROOT);
        String openMode = String.valueOf(rs.getString("OPEN_MODE")).trim().toUpperCase(Locale.ROOT);
        long incarnation = rs.getLong("RESETLOGS_CHANGE#");
        String dbid = rs.getString("DBID");
        String said = "DATABASE_ROLE " + role + ", OPEN_MODE " + openMode;
        if (role.equals("PRIMARY")) {
            return openMode.equals("READ WRITE")
                    ? new RoleReading(ServerRole.PRIMARY, dbid, incarnation, -1, -1, "primary (" + said + ")")
                    : new RoleReading(ServerRole.READ_ONLY, dbid, incarnation, -1, -1, "read-only (" + said + ")");
        }
        if (role.endsWith("STANDBY") || role.equals("FAR SYNC")) {
            return new RoleReading(ServerRole.STANDBY, dbid, 0, -1, -1, "standby (" + said + ")");
        }
        return RoleReading.unknown("unknown role (" + said + ")");
    }

    /** The SQLState and message; messages of these queries carry no secret (no URL, no credentials). */
    private static String describe(SQLException e) {
        return e.getSQLState() == null ? String.valueOf(e.getMessage()) : e.getSQLState() + " " + e.getMessage();
    }
}
