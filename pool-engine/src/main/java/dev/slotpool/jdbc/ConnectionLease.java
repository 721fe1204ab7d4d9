package dev.slotpool.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executor;

/**
 * What a {@link ProxyConnection} needs from the pool for the one borrow it stands for.
 *
 * <p>The lease object outlives a borrow (it is the pool's entry for one physical connection), so every call that
 * ends or marks a borrow names it by its stamp, which the pool hands to the proxy's constructor as it lends the
 * connection (the lease is never asked for it: by then the pool may already have taken the borrow back). A call
 * for a borrow that has ended (returned, aborted, taken back by the pool) does nothing, even if the connection has
 * been lent again since (S1 per borrow: a late {@code abort()} from another thread never reaches the next
 * borrower).
 * The proxy calls {@link #giveBack(long)} at most once, after it has restored the connection's state and closed
 * the statements its holder left open. The pool never touches the physical connection while a borrow is out.
 */
public interface ConnectionLease {

    /** The physical connection. Only the lease holder may use it (S1). */
    Connection physical();

    /** The connection's state as the pool created it; hygiene at return restores what the holder changed. */
    ConnectionDefaults defaults();

    /** The pool's {@link dev.slotpool.SqlExceptionOverride}, consulted before the built-in eviction rules; null
     * if none. */
    dev.slotpool.SqlExceptionOverride exceptionOverride();

    /** The physical connection's statement cache, or null when {@code statementCacheSize} is 0 (the default).
     * Only the lease holder may use it (S1). */
    default StatementCache statementCache() {
        return null;
    }

    /**
     * Whether each transaction may run on another server session (the origin is behind a transaction pooler,
     * docs/poolers.md): the holder's isolation level is then applied per transaction, never set for the session,
     * and a schema other than the configured one is refused.
     */
    default boolean sessionSharedPerTransaction() {
        return false;
    }

    /**
     * Behind Oracle DRCP, releases the connection's pooled server (docs/oracle.md, "DRCP"): called by the proxy
     * after the return's reset, before {@link #giveBack(long)}; nothing for any other origin.
     */
    default void releasePooledServer() throws SQLException {
    }

    /** Records JDBC activity now (feeds the abandoned-connection timer). Plain write: racy but benign. */
    void touch();

    /**
     * Marks the physical connection broken: it is closed at return instead of being reused. Nothing if the borrow
     * {@code stamp} has ended.
     *
     * @param cause the error that showed the connection is dead (SQLState class 08 or a vendor code)
     */
    void evict(SQLException cause, long stamp);

    /** Whether the borrow {@code stamp} has ended (returned, aborted, or taken back by the pool); the proxy then
     * acts closed. */
    boolean ended(long stamp);

    /** Returns the connection to the pool, ending the borrow {@code stamp}; nothing if it had already ended. */
    void giveBack(long stamp);

    /**
     * Ends the borrow {@code stamp} by aborting the physical connection through {@code executor} (JDBC's
     * {@code Connection.abort}, callable from any thread); false, doing nothing, if that borrow had already ended.
     */
    boolean abort(long stamp, Executor executor);

    /** The labels the connection carries (immutable view). */
    java.util.Map<String, String> labels();

    /** Replaces the connection's labels; called by the holder only. */
    void labels(java.util.Map<String, String> labels);
}
