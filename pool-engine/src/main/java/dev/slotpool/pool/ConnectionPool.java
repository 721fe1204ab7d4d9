package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.LabelingCallback;
import dev.slotpool.LimitSnapshot;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolInitializationException;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.PreparedSwitchover;
import dev.slotpool.Sizing;
import dev.slotpool.Ticker;
import dev.slotpool.failover.Failover;
import dev.slotpool.failover.OriginOperations;
import dev.slotpool.failover.Weights;
import dev.slotpool.jdbc.ProxyConnection;
import dev.slotpool.kernel.Events;
import dev.slotpool.kernel.Kernel;
import dev.slotpool.kernel.Loggers;
import dev.slotpool.kernel.PoolLifecycle;
import dev.slotpool.lending.Borrows;
import dev.slotpool.lending.Lending;
import dev.slotpool.lending.Returns;
import dev.slotpool.origins.Origins;
import dev.slotpool.sessions.Connector;
import dev.slotpool.sizing.Sizer;
import dev.slotpool.slots.Capacity;
import dev.slotpool.slots.Closer;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.slots.Signals;
import dev.slotpool.slots.Slots;
import dev.slotpool.snapshots.PoolerViews;
import dev.slotpool.snapshots.Snapshots;
import dev.slotpool.supply.Creator;
import dev.slotpool.supply.FirstConnection;
import dev.slotpool.table.Parking;
import dev.slotpool.table.SlotTable;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The pool's face and its life from construction to close: borrows go to {@link Borrows}, returns come back through
 * {@link Returns}. It builds one door per feature, each building its own parts, and gives each only what it needs
 * (docs/architecture.md, "Map"): {@link Kernel} (lifecycle, threads, events, user code), {@link Slots} (table,
 * capacity, closes, hold time), {@link Origins}, the {@link Connector}, {@link Failover}, {@link Snapshots},
 * {@link Lending} (borrows and returns), creation on {@link Creator} threads, timers on the {@link Housekeeper},
 * and {@link Suspension}; they tell it what happened through its {@link Signals}.
 */
public final class ConnectionPool {

    final PoolConfig config;
    final String name;
    final Ticker ticker;
    final SlotTable<PooledConnection> table;
    final Events events;
    final Origins origins;
    final Capacity capacity;
    final Closer closer;
    final Closing closing;
    /** Origin state changes, detection, drains, rebalance, roles and switchovers (docs/failover.md). */
    final Failover failover;
    final Creator creator;
    final Housekeeper housekeeper;
    private final PoolerViews poolerViews;
    private final Suspension suspension;
    private final Snapshots snapshots;
    /** Adaptive sizing (docs/architecture.md, "Adaptive sizing"); null under FIXED. */
    private final Sizer sizer;

    /** Whether the pool is open: the one shutdown state, read by every class that must know. */
    private final PoolLifecycle lifecycle;

    private final Borrows borrows;

    public ConnectionPool(PoolConfig config) {
        this.config = config;
        this.name = config.name();
        this.ticker = config.ticker();
        Kernel kernel = new Kernel(config);
        this.lifecycle = kernel.lifecycle();
        this.events = kernel.events();
        this.origins = new Origins(config, events);
        // The features tell the pool what happened through it; no signal is sent before the threads start below.
        Signals signals = new PoolSignals();
        Slots slots = new Slots(config, kernel, signals);
        this.table = slots.table();
        this.capacity = slots.capacity();
        this.closer = slots.closer();
        this.closing = slots.closing();
        Connector connector = new Connector(config, kernel.userCode());
        this.failover = new Failover(config, origins, table, capacity, closing, events, connector, slots.holdTime(),
                kernel.threads(), lifecycle, signals);
        this.snapshots = new Snapshots(config, origins, table, capacity, closing, failover.detector(), lifecycle,
                failover.roles().roles());
        this.poolerViews = snapshots.views();
        Lending lending = new Lending(config, kernel, slots, origins, failover, snapshots, signals);
        this.borrows = lending.borrows();
        this.creator = new Creator(config, table, capacity, origins, closing, events, connector, lending.returns(),
                failover, slots.holdTime(), lifecycle);
        this.sizer = config.sizing() == Sizing.ADAPTIVE ? SizingSide.sizer(config, origins.configured(), table,
                closing, events, signals, ticker.nanoTime()) : null;
        this.housekeeper = new Housekeeper(config, table, capacity, closing, failover, borrows.outage(), sizer,
                events, signals, lifecycle);
        this.suspension = new Suspension(failover.operations(), snapshots, capacity, config.housekeepingPeriod());
        ProxyConnection.prepareClasses();
        events.started(config);
        Loggers.POOL.log(System.Logger.Level.INFO, () -> "[" + name + "] starting: " + FirstConnection.describe(origins)
                + "; minSize " + config.minSize() + ", maxSize " + config.maxSize());
        try {
            closer.start();
            creator.start();
            housekeeper.start();
            poolerViews.start();
        } catch (Throwable e) {
            // A pool thread that cannot start (PoolThreads) fails the pool; those already running see it closed.
            lifecycle.beginClose();
            creator.stop();
            housekeeper.stop();
            closer.finish(System.nanoTime());
            throw e;
        }
    }

    /** What the pool does with its features' signals: the one place that knows who acts on each. */
    private final class PoolSignals implements Signals {

        /** On the closer's thread: detection counts an eviction, a drain may end, the creators may refill. */
        @Override
        public void closed(PooledConnection e, CloseReason reason) {
            boolean open = !lifecycle.closed();
            failover.closed(e, reason, open);
            if (open) {
                creator.signal();
            }
        }

        @Override
        public void creationWanted() {
            creator.signal();
        }

        @Override
        public void borrowerShort() {
            creator.shortage();
        }

        @Override
        public void housekeepingDue() {
            housekeeper.wake();
        }
    }

    // ---- borrow ------------------------------------------------------------------------------------------

    /** Borrows a connection, waiting up to the borrow timeout ({@link Borrows}). */
    public Connection borrow() throws SQLException {
        return borrows.borrow();
    }

    /**
     * Borrows a connection on a clock started at {@code start} (the pool's {@link Ticker} time): for a caller that
     * asked before the pool ran (a bean-style DataSource's first use, while it was being started), so that the
     * time before counts against the borrow timeout too.
     */
    public Connection borrowSince(long start) throws SQLException {
        return borrows.borrowSince(start);
    }

    /** Borrows the cheapest connection for {@code labels} (see {@link LabelingCallback}). */
    public Connection borrow(Map<String, String> labels) throws SQLException {
        return borrows.borrow(labels);
    }

    /** A read borrow: a standby that takes reads, else any (docs/architecture.md, "Reads to standbys"). */
    public Connection borrowForRead() throws SQLException {
        return borrows.borrowForRead();
    }

    // ---- state -------------------------------------------------------------------------------------------

    public PoolSnapshot snapshot() {
        return snapshots.take();
    }

    /** The counts and states without the slots ({@link Snapshots#counts}): for a failure message or a wait. */
    private PoolSnapshot counts() {
        return snapshots.counts();
    }

    /** Whether close() has begun: borrows fail from then on. A volatile read ({@link PoolLifecycle}), for
     * {@code DataSource.isClosed()}. */
    public boolean isClosed() {
        return lifecycle.closed();
    }

    public PoolConfig config() {
        return config;
    }

    // ---- operations (docs/failover.md) -----------------------------------------------------------------

    /** The origins a selector names ({@link OriginOperations#select}). */
    public List<String> select(String selector) {
        return failover.operations().select(selector);
    }

    public void drain(String selector, Duration timeout) {
        failover.operations().drain(selector, timeout);
    }

    public void markDown(String selector) {
        failover.operations().markDown(selector);
    }

    public void markUp(String selector) {
        failover.operations().markUp(selector);
    }

    public PreparedSwitchover prepareSwitchover(String from, String to, Duration timeout) {
        return failover.switchovers().prepare(from, to, timeout);
    }

    public void rebalance(Map<String, Integer> weights) {
        failover.weights().rebalance(weights);
    }

    public void rebalanceToConfigured() {
        failover.weights().rebalanceToConfigured();
    }

    /** Each configured origin's adaptive limit; empty under FIXED sizing. */
    public List<LimitSnapshot> limits() {
        return sizer == null ? List.of() : sizer.snapshot();
    }

    /** Pins an origin's adaptive limit, applied at the sizer's next tick ({@link Sizer#pin}). */
    public void pinLimit(String origin, int limit) {
        adaptive().pin(origin, limit);
        housekeeper.wake();
    }

    /** Hands an origin's limit back to the controller ({@link Sizer#release}). */
    public void releaseLimit(String origin) {
        adaptive().release(origin);
        housekeeper.wake();
    }

    private Sizer adaptive() {
        if (sizer == null) {
            throw new IllegalStateException("pool '" + name + "' has sizing FIXED: no limit to pin");
        }
        return sizer;
    }

    /** Checkpoint and restore: see {@link Suspension}. */
    public boolean suspend(Duration timeout) throws InterruptedException {
        return suspension.suspend(timeout);
    }

    public void resume() {
        suspension.resume();
    }

    public boolean isSuspended() {
        return suspension.suspended();
    }

    /** For tests that act on an origin directly. */
    OriginOperations operations() {
        return failover.operations();
    }

    Weights weights() {
        return failover.weights();
    }

    /** A pool that has opened its first connection (see {@link FirstConnection}): closed again, and the failure
     * thrown, if none comes. */
    public static ConnectionPool startedWithFirstConnection(PoolConfig config) {
        ConnectionPool pool = new ConnectionPool(config);
        try {
            FirstConnection.await(config, pool.origins);
        } catch (PoolInitializationException e) {
            pool.close();
            throw e;
        }
        return pool;
    }

    /**
     * Closes the pool: see {@link dev.slotpool.SlotPoolDataSource#close()}. Idempotent; a second call while the
     * first runs waits for it, at most as long as a close may take ({@link Shutdown#longestNanos}). Takes at most
     * shutdownTimeout for borrowed connections and running connects together, plus a second at each of three steps
     * for pool threads still in a driver call (creators, the housekeeper, the keepalive, the role watchers and a
     * switchover's worker; interrupted connects; closes); those end on their own and close what they hold. A close
     * whose steps threw leaves the pool closed to borrowers, and the next close() runs the steps again (each is
     * idempotent) rather than find the pool closing for ever.
     */
    public void close() {
        long waitEnd = System.nanoTime() + Shutdown.longestNanos(config);
        while (true) {
            if (lifecycle.done()) {
                return;
            }
            // A single CAS decides which caller runs the steps (S4: no lock); the others wait below.
            if (lifecycle.beginClose()) {
                runShutdown();
                return;
            }
            if (lifecycle.closing()) {
                // The pool is already closed to borrowers (its lifecycle is out of OPEN): past the bound, or when
                // this thread is interrupted, waiting for the other close() would only hang this caller.
                if (System.nanoTime() - waitEnd >= 0 || Thread.currentThread().isInterrupted()) {
                    return;
                }
                Parking.park(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
    }

    private void runShutdown() {
        poolerViews.close();
        boolean done = false;
        try {
            new Shutdown(config, table, origins, closing, failover, creator, housekeeper, closer).run();
            done = true;
        } finally {
            lifecycle.endClose(done);
        }
    }
}
