package dev.slotpool;

import java.sql.SQLException;

/**
 * Decides, before the built-in rules, whether an error on a lent connection evicts it (closes it at return
 * instead of lending it again). The built-in rules evict on connection-level errors (SQLState class 08, a few
 * server-shutdown states, vendor fatal codes) and keep the connection otherwise; an override can evict on an error
 * they keep (a driver's own code for a dead session) or keep a connection they would evict.
 *
 * <p>Called on the holder's thread for every {@link SQLException} a lent connection, statement or result set
 * throws, so keep it cheap. An override that throws is ignored for that error (the built-in rules decide). An
 * eviction it asks for does not count toward marking the origin DOWN unless the built-in rules also call the error
 * connection-level.
 */
@FunctionalInterface
public interface SqlExceptionOverride {

    /** What to do with the connection an error came from. */
    enum Decision {
        /** Close the connection at return. */
        EVICT,
        /** Keep it, whatever the built-in rules say. */
        DO_NOT_EVICT,
        /** Let the built-in rules decide. */
        CONTINUE_WITH_BUILT_IN_RULES
    }

    /**
     * The decision for {@code e}, thrown by a lent connection or one of its statements or result sets.
     *
     * @param e the error
     * @return what to do with the connection
     */
    Decision adjudicate(SQLException e);
}
