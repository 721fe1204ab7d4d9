package dev.slotpool.engine;

import dev.slotpool.PoolConfig;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.PreparedSwitchover;
import dev.slotpool.SlotPool;
import dev.slotpool.pool.ConnectionPool;
import dev.slotpool.pool.Suspension;
import dev.slotpool.pool.origin.OriginOperations;
import dev.slotpool.pool.origin.Weights;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A running pool's face ({@link SlotPool}): each call goes to the one class that owns it. */
final class StartedPool implements SlotPool {

    private final ConnectionPool pool;
    private final PoolConfig config;
    private final OriginOperations operations;
    private final Weights weights;
    private final Suspension suspension;

    StartedPool(ConnectionPool pool, PoolConfig config) {
        this.pool = pool;
        this.config = config;
        this.operations = pool.operations();
        this.weights = pool.weights();
        this.suspension = pool.suspension();
    }

    @Override
    public Connection getConnection() throws SQLException {
        return pool.borrow();
    }

    @Override
    public Connection getConnectionSince(long startNanos) throws SQLException {
        return pool.borrowSince(startNanos);
    }

    @Override
    public Connection getConnection(Map<String, String> labels) throws SQLException {
        return pool.borrow(labels);
    }

    @Override
    public Connection getConnectionForReads() throws SQLException {
        return pool.borrowForRead();
    }

    @Override
    public PoolConfig config() {
        return config;
    }

    @Override
    public PoolSnapshot snapshot() {
        return pool.snapshot();
    }

    @Override
    public List<String> select(String selector) {
        return operations.select(selector);
    }

    @Override
    public void drain(String origin, Duration timeout) {
        operations.drain(origin, timeout);
    }

    @Override
    public void markDown(String origin) {
        operations.markDown(origin);
    }

    @Override
    public void markUp(String origin) {
        operations.markUp(origin);
    }

    @Override
    public PreparedSwitchover prepareSwitchover(String from, String to, Duration timeout) {
        return pool.switchovers().prepare(from, to, timeout);
    }

    @Override
    public void rebalance(Map<String, Integer> weights) {
        this.weights.rebalance(weights);
    }

    @Override
    public void rebalanceToConfigured() {
        this.weights.rebalanceToConfigured();
    }

    @Override
    public boolean suspend(Duration timeout) throws InterruptedException {
        return suspension.suspend(timeout);
    }

    @Override
    public void resume() {
        suspension.resume();
    }

    @Override
    public boolean isSuspended() {
        return suspension.suspended();
    }

    @Override
    public void close() {
        pool.close();
    }

    @Override
    public boolean isClosed() {
        return pool.isClosed();
    }
}
