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

    /** See {@link SlotPoolDataSource#getConnection()}. */
    Connection getConnection() throws SQLException;

    /**
     * Borrows as {@link #getConnection()} does, with the borrow timeout counted from {@code startNanos} (a
     * {@link System#nanoTime()} reading) instead of from this call: for a caller that asked before the pool ran (a
     * bean-style DataSource's first use, while it was being started), so that the time before counts too.
     */
    Connection getConnectionSince(long startNanos) throws SQLException;

    /** See {@link SlotPoolDataSource#getConnection(Map)}. */
    Connection getConnection(Map<String, String> labels) throws SQLException;

    /** A read borrow: see {@link SlotPoolDataSource#forReads()}. */
    Connection getConnectionForReads() throws SQLException;

    /** The validated settings the pool runs with. */
    PoolConfig config();

    /** See {@link SlotPoolDataSource#snapshot()}. */
    PoolSnapshot snapshot();

    /** See {@link SlotPoolDataSource#select(String)}. */
    List<String> select(String selector);

    /** See {@link SlotPoolDataSource#drain(String, Duration)}. */
    void drain(String origin, Duration timeout);

    /** See {@link SlotPoolDataSource#markDown(String)}. */
    void markDown(String origin);

    /** See {@link SlotPoolDataSource#markUp(String)}. */
    void markUp(String origin);

    /** See {@link SlotPoolDataSource#prepareSwitchover(String, String, Duration)}. */
    PreparedSwitchover prepareSwitchover(String from, String to, Duration timeout);

    /** See {@link SlotPoolDataSource#rebalance(Map)}. */
    void rebalance(Map<String, Integer> weights);

    /** See {@link SlotPoolDataSource#rebalanceToConfigured()}. */
    void rebalanceToConfigured();

    /** See {@link SlotPoolDataSource#suspend(Duration)}. */
    boolean suspend(Duration timeout) throws InterruptedException;

    /** See {@link SlotPoolDataSource#resume()}. */
    void resume();

    /** See {@link SlotPoolDataSource#isSuspended()}. */
    boolean isSuspended();

    /** See {@link SlotPoolDataSource#close()}. */
    @Override
    void close();

    /** Whether {@link #close()} has begun. */
    boolean isClosed();
}
