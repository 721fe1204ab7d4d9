package dev.slotpool.jdbc;

import dev.slotpool.SqlExceptionOverride;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Tells an error that kills the connection from one that only fails the statement: the first evicts the
 * connection, so the pool never lends a dead one again; the second leaves it alone, since evicting on every
 * constraint violation would turn an application bug into a reconnect storm.
 */
public final class SqlErrors {

    /**
     * SQLStates that mean the connection is gone, besides the whole of class 08 (connection exception).
     * 0A000 (feature not supported) is deliberately absent: it describes the call, not the connection.
     */
    private static final Set<String> FATAL_STATES = Set.of(
            "57P01",  // PostgreSQL admin_shutdown: the server terminated the backend
            "57P02",  // PostgreSQL crash_shutdown: another backend crashed, the server is restarting
            "57P03",  // PostgreSQL cannot_connect_now: the server is starting up or shutting down
            "JZ0C0",  // Sybase jConnect / jTDS: connection is already closed
            "JZ0C1"); // Sybase jConnect / jTDS: connection closed by an I/O error

    /**
     * Vendor error codes that mean the connection is gone. Codes are not namespaced by vendor, so a code here
     * can also evict on another driver's unrelated error; that costs one reconnect, never a wrong result.
     */
    private static final Set<Integer> FATAL_CODES = Set.of(
            28,     // ORA-00028: your session has been killed
            3113,   // ORA-03113: end-of-file on communication channel
            3114,   // ORA-03114: not connected to ORACLE
            1033,   // ORA-01033: ORACLE initialization or shutdown in progress
            1034,   // ORA-01034: ORACLE not available
            1089,   // ORA-01089: immediate shutdown in progress
            1090,   // ORA-01090: shutdown in progress
            17002,  // Oracle JDBC: I/O error
            17008,  // Oracle JDBC: closed connection
            17410,  // Oracle JDBC: no more data to read from socket
            17447,  // Oracle JDBC: OALL8 is in an inconsistent state
            90067,  // H2: connection is broken
            90098); // H2: the database has been closed

    /**
     * Vendor error codes of a refused login: retrying at once cannot help, and it can lock the account.
     */
    private static final Set<Integer> AUTHENTICATION_CODES = Set.of(
            1017,   // ORA-01017: invalid username/password; logon denied
            28000,  // ORA-28000: the account is locked
            28001); // ORA-28001: the password has expired

    /**
     * What a pooler in front of the database (PgBouncer) says when it refuses work rather than losing a session:
     * sent with SQLState 08P01 (docs/poolers.md, "Pooler signals").
     */
    private static final List<String> POOLER_REFUSALS = List.of(
            "query_wait_timeout",                     // waited longer for a server session (e.g. while PAUSEd)
            "no more connections allowed",            // max_client_conn reached
            "is disabled",                            // DISABLE db
            "pgbouncer cannot connect to server",     // the server behind it does not answer
            "server login has been failing",          // server_login_retry
            "client_login_timeout");                  // the login waited for a server that is down

    /** Bounds the walk over causes and next-exceptions: both chains can be cyclic in broken drivers. */
    private static final int MAX_LINKS = 64;

    private SqlErrors() {
    }

    /**
     * Whether an error on a lent connection evicts it: the override's decision first (null: none), else
     * {@link #isFatal}. The override is the lease's, which the pool guards (its user code goes through
     * {@code dev.slotpool.kernel.UserCode}): one that throws is ignored for this error, never turning a statement
     * error into a different one.
     */
    public static boolean evicts(SQLException e, SqlExceptionOverride override) {
        if (override != null) {
            SqlExceptionOverride.Decision d = override.adjudicate(e);
            if (d == SqlExceptionOverride.Decision.EVICT) {
                return true;
            }
            if (d == SqlExceptionOverride.Decision.DO_NOT_EVICT) {
                return false;
            }
        }
        return isFatal(e) || isReadOnlyRefusal(e);
    }

    /**
     * Whether {@code e} or anything chained to it is a write refused because the transaction is read-only
     * (SQLState 25006): its server may have turned standby, so the connection is evicted and the pool reads its
     * origin's role again (docs/failover.md, "Primary and standbys").
     */
    public static boolean isReadOnlyRefusal(SQLException e) {
        return anyLink(e, s -> "25006".equals(s.getSQLState()));
    }

    /**
     * Whether {@code e}, any exception chained to it by {@link SQLException#getNextException()}, or any cause
     * shows that the connection it came from is dead.
     */
    public static boolean isFatal(SQLException e) {
        return anyLink(e, SqlErrors::isFatalLink);
    }

    /**
     * Whether {@code e} or anything chained to it is a refused login: SQLState class 28 (invalid authorization,
     * such as 28000 or PostgreSQL's 28P01) or an Oracle login code (ORA-01017, ORA-28000, ORA-28001).
     */
    public static boolean isAuthenticationFailure(SQLException e) {
        return anyLink(e, s -> (s.getSQLState() != null && s.getSQLState().startsWith("28"))
                || AUTHENTICATION_CODES.contains(s.getErrorCode()));
    }

    /**
     * Whether {@code e} or anything chained to it is a pooler refusing work (PgBouncer's SQLState 08P01 with one of
     * its refusal messages, such as {@code query_wait_timeout}): about the origin's capacity, not a broken server
     * session, so it never counts toward DOWN as a connection error does.
     */
    public static boolean isPoolerRefusal(SQLException e) {
        return anyLink(e, s -> "08P01".equals(s.getSQLState()) && s.getMessage() != null
                && POOLER_REFUSALS.stream().anyMatch(s.getMessage()::contains));
    }

    /** Whether {@code test} holds for {@code e} or an exception chained to it (next exceptions and causes,
     * breadth first, at most {@link #MAX_LINKS}: a driver's chain may loop). */
    private static boolean anyLink(SQLException e, Predicate<SQLException> test) {
        ArrayDeque<Throwable> pending = new ArrayDeque<>();
        pending.add(e);
        for (int seen = 0; seen < MAX_LINKS && !pending.isEmpty(); seen++) {
            Throwable t = pending.poll();
            if (t instanceof SQLException s) {
                if (test.test(s)) {
                    return true;
                }
                if (s.getNextException() != null) {
                    pending.add(s.getNextException());
                }
            }
            if (t.getCause() != null) {
                pending.add(t.getCause());
            }
        }
        return false;
    }

    private static boolean isFatalLink(SQLException e) {
        if (e instanceof SQLRecoverableException || e instanceof SQLNonTransientConnectionException) {
            return true;
        }
        String state = e.getSQLState();
        if (state != null && (state.startsWith("08") || FATAL_STATES.contains(state))) {
            return true;
        }
        return FATAL_CODES.contains(e.getErrorCode());
    }
}
