package dev.slotpool.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What a {@link ProxyConnection} needs from the pool for the one borrow it stands for.
 *
 * <p>A lease is valid from the borrow until {@link #giveBack()}; the proxy calls {@code giveBack()} exactly
 * once, after it has restored the connection's state and closed the statements its holder left open.
 * The pool never touches the physical connection while a lease is out (invariant S1).
 */
public interface ConnectionLease {

    /** The physical connection. Only the lease holder may use it (S1). */
    Connection physical();

    /** The connection's state as the pool created it; hygiene at return restores what the holder changed. */
    ConnectionDefaults defaults();

    /** Records JDBC activity now (feeds the abandoned-connection timer). Plain write: racy but benign. */
    void touch();

    /**
     * Marks the physical connection broken: it is closed at return instead of being reused.
     *
     * @param cause the error that showed the connection is dead (SQLState class 08 or a vendor code)
     */
    void evict(SQLException cause);

    /** Whether the pool reclaimed this lease (abandoned or time-to-live timer); the proxy then acts closed. */
    boolean reclaimed();

    /** Returns the connection to the pool. Called once by the proxy's {@code close()}. */
    void giveBack();

    /** The labels the connection carries (immutable view). */
    java.util.Map<String, String> labels();

    /** Replaces the connection's labels; called by the holder only. */
    void labels(java.util.Map<String, String> labels);
}
