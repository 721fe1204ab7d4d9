package dev.slotpool;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A started pool, as the engine implements it: borrows, the snapshot and the origin operations, each one call.
 * Applications hold a {@link SlotPoolDataSource}, whose methods of the same names come here once its pool runs;
 * its settings and its start are the DataSource's, not this face's. The engine is found by {@link SlotPoolEngine}.
 * The DataSource checks the arguments described there before it calls these.
 */
public interface SlotPool extends AutoCloseable {

    /**
     * See {@link SlotPoolDataSource#getConnection()}.
     *
     * @return a borrowed connection
     * @throws SQLException when none could be borrowed in time
     */
    Connection getConnection() throws SQLException;

    /**
     * Borrows as {@link #getConnection()} does, with the borrow timeout counted from {@code startNanos} (a
     * {@link System#nanoTime()} reading) instead of from this call: for a caller that asked before the pool ran (a
     * bean-style DataSource's first use, while it was being started), so that the time before counts too.
     *
     * @param startNanos when the caller asked, a {@link System#nanoTime()} reading
     * @return a borrowed connection
     * @throws SQLException when none could be borrowed in time
     */
    Connection getConnectionSince(long startNanos) throws SQLException;

    /**
     * See {@link SlotPoolDataSource#getConnection(Map)}.
     *
     * @param labels the labels the connection is to carry
     * @return a borrowed connection with those labels
     * @throws SQLException when none could be borrowed and configured in time
     */
    Connection getConnection(Map<String, String> labels) throws SQLException;

    /**
     * A read borrow: see {@link SlotPoolDataSource#forReads()}.
     *
     * @return a borrowed connection for reads
     * @throws SQLException when none could be borrowed in time
     */
    Connection getConnectionForReads() throws SQLException;

    /** {@return the validated settings the pool runs with} */
    PoolConfig config();

    /** {@return a snapshot of the pool}: see {@link SlotPoolDataSource#snapshot()}. */
    PoolSnapshot snapshot();

    /**
     * See {@link SlotPoolDataSource#select(String)}.
     *
     * @param selector an origin's name or a selector of origins
     * @return the names of the origins it selects
     */
    List<String> select(String selector);

    /**
     * See {@link SlotPoolDataSource#drain(String, Duration)}.
     *
     * @param origin  the origin's name
     * @param timeout when the connections still borrowed are aborted
     */
    void drain(String origin, Duration timeout);

    /**
     * See {@link SlotPoolDataSource#markDown(String)}.
     *
     * @param origin the origin's name
     */
    void markDown(String origin);

    /**
     * See {@link SlotPoolDataSource#markUp(String)}.
     *
     * @param origin the origin's name
     */
    void markUp(String origin);

    /**
     * See {@link SlotPoolDataSource#prepareSwitchover(String, String, Duration)}.
     *
     * @param from    the primary
     * @param to      its standby, to be promoted
     * @param timeout how long {@code from}'s transactions may run on, and then how long {@code to} may take to
     *                catch up
     * @return what happened and what the operator does next
     */
    PreparedSwitchover prepareSwitchover(String from, String to, Duration timeout);

    /**
     * See {@link SlotPoolDataSource#rebalance(Map)}.
     *
     * @param weights each origin's new weight, by name
     */
    void rebalance(Map<String, Integer> weights);

    /** See {@link SlotPoolDataSource#rebalanceToConfigured()}. */
    void rebalanceToConfigured();

    /**
     * See {@link SlotPoolDataSource#suspend(Duration)}.
     *
     * @param timeout when the connections still borrowed are aborted
     * @return whether every connection was closed in time
     * @throws InterruptedException if interrupted while waiting (the pool stays suspended)
     */
    boolean suspend(Duration timeout) throws InterruptedException;

    /** See {@link SlotPoolDataSource#resume()}. */
    void resume();

    /** {@return whether the pool is suspended}: see {@link SlotPoolDataSource#isSuspended()}. */
    boolean isSuspended();

    /** See {@link SlotPoolDataSource#close()}. */
    @Override
    void close();

    /** {@return whether {@link #close()} has begun} */
    boolean isClosed();
}
