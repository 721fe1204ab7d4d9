package dev.slotpool.failover;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolConfig;
import dev.slotpool.kernel.Events;
import dev.slotpool.kernel.PoolLifecycle;
import dev.slotpool.kernel.PoolThreads;
import dev.slotpool.origins.Origins;
import dev.slotpool.sessions.Connector;
import dev.slotpool.slots.Capacity;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.HoldTime;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.slots.Signals;
import dev.slotpool.table.SlotTable;

/**
 * The door to failover (docs/failover.md): origin state changes ({@link OriginOperations}), detection and probes
 * ({@link FailureDetector}), paced drains, rebalance, roles ({@link RoleWatch}) and planned switchovers. It builds
 * them, each complete at construction, and tells them what the pool's signals mean for them
 * ({@link #closed}); the rest of the pool reaches failover through it alone.
 */
public final class Failover {

    private final PacedDrains drains;
    private final RoleWatch roles;
    private final Weights weights;
    private final OriginOperations operations;
    private final FailureDetector detector;
    private final Probes probes;
    private final DetectionRounds rounds;
    private final Switchovers switchovers;

    public Failover(PoolConfig config, Origins origins, SlotTable<PooledConnection> table, Capacity capacity,
                    Closing closing, Events events, Connector connector, HoldTime holdTime, PoolThreads threads,
                    PoolLifecycle lifecycle, Signals signals) {
        this.drains = new PacedDrains(table, closing);
        this.roles = new RoleWatch(new OriginRoles(), threads);
        this.weights = new Weights(origins, events, signals);
        this.operations = new OriginOperations(config, origins, table, closing, drains,
                new AbortDeadlines(origins, table, closing),
                new Rebalancer(origins, table, config, capacity, closing, events, signals), events, signals, roles);
        this.detector = new FailureDetector(config, origins, table, operations, events, holdTime, signals, roles);
        this.probes = new Probes(config, origins, table, capacity, closing, operations, connector, holdTime, signals,
                lifecycle, new ProbeOutcomes(detector, operations, roles));
        this.rounds = new DetectionRounds(config, origins, table, closing, detector, probes);
        this.switchovers = new Switchovers(config, operations, new SwitchoverPause(operations, config.ticker(), signals),
                roles, capacity, connector, threads);
    }

    /**
     * A connection's close is done: a broken one counts as an eviction for detection (unless the pool is
     * closing), and a draining origin whose last connection it was turns DOWN.
     */
    public void closed(PooledConnection e, CloseReason reason, boolean poolOpen) {
        if (reason == CloseReason.BROKEN && e.broken != null && poolOpen) {
            detector.evicted(e.origin, e.broken);
        }
        operations.finishDrain(e.origin);
    }

    /** The pool closes: the role watchers and a switchover's worker end their sessions. */
    public void stop() {
        roles.close();
        switchovers.close();
    }

    /** Waits for the role watchers' and a switchover's threads until {@code deadline} (System.nanoTime). */
    public void join(long deadline) {
        roles.join(deadline);
        switchovers.join(deadline);
    }

    /** Starts the probes that are due and have room (creators call it before they plan: a close made room). */
    public void startDueProbes(long now) {
        probes.startDue(now);
    }

    public OriginOperations operations() {
        return operations;
    }

    public FailureDetector detector() {
        return detector;
    }

    public PacedDrains drains() {
        return drains;
    }

    public RoleWatch roles() {
        return roles;
    }

    public Weights weights() {
        return weights;
    }

    public DetectionRounds detectionRounds() {
        return rounds;
    }

    public Switchovers switchovers() {
        return switchovers;
    }
}
