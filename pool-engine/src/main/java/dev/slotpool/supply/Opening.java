package dev.slotpool.supply;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.Ticker;
import dev.slotpool.failover.FailureDetector;
import dev.slotpool.failover.OriginOperations;
import dev.slotpool.failover.RoleGate;
import dev.slotpool.failover.RoleReader;
import dev.slotpool.failover.RoleReading;
import dev.slotpool.jdbc.ConnectionDefaults;
import dev.slotpool.kernel.Events;
import dev.slotpool.kernel.PoolLifecycle;
import dev.slotpool.kernel.Secrets;
import dev.slotpool.origins.ConnectAttempt;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.OriginStatus;
import dev.slotpool.origins.Origins;
import dev.slotpool.sessions.Connector;
import dev.slotpool.sessions.DrcpSession;
import dev.slotpool.slots.Capacity;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.table.Slot;
import dev.slotpool.table.SlotTable;

import java.sql.Connection;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Opens the connection a creator planned, on its {@link ConnectAttempt}'s thread (S6), and publishes it to the
 * longest waiter or closes what cannot be lent; or gives back what the plan claimed.
 */
final class Opening {

    private final Ticker ticker;
    private final Origins origins;
    private final SlotTable<PooledConnection> table;
    private final Capacity capacity;
    private final Closing closing;
    private final OriginOperations operations;
    private final FailureDetector detector;
    private final Placement placement;
    private final Events events;
    private final Connector connector;
    private final PooledConnection.ReturnPath returnPath;
    private final PoolLifecycle lifecycle;
    private final long maxLifetimeNanos;
    private final int statementCacheSize;
    private final RoleGate roles;

    Opening(PoolConfig config, Origins origins, SlotTable<PooledConnection> table, Capacity capacity, Closing closing,
            OriginOperations operations, FailureDetector detector, Placement placement, Events events,
            Connector connector, PooledConnection.ReturnPath returnPath, PoolLifecycle lifecycle, RoleGate roles) {
        this.ticker = config.ticker();
        this.origins = origins;
        this.table = table;
        this.capacity = capacity;
        this.closing = closing;
        this.operations = operations;
        this.detector = detector;
        this.placement = placement;
        this.events = events;
        this.connector = connector;
        this.returnPath = returnPath;
        this.lifecycle = lifecycle;
        long lifetime = config.maxLifetime().toNanos();
        this.maxLifetimeNanos = lifetime == 0 ? OriginStatus.NEVER : lifetime;
        this.statementCacheSize = config.statementCacheSize();
        this.roles = roles;
    }

    /** Undoes a claim whose attempt opened nothing that stays; a drained origin may now be empty. */
    void unclaim(Origin o) {
        capacity.unclaim(o);
        operations.finishDrain(o);
    }

    /**
     * Runs on the attempt's thread: connect, then publish, or close what cannot be lent. The connect and its
     * preparation (driver code, the credentials provider, the origin query) survive anything thrown ({@code Error}s
     * included) and release what was claimed for them. What follows only counts and moves the slot, and calls no
     * driver or user code that could throw (listeners go through {@link Events}): from the count of the opened
     * connection on, it is published or closed through its slot, never cancelled or counted again (S2, S3).
     */
    void open(Origin o, Slot<PooledConnection> slot, long start) {
        Connection c = null;
        RoleReading role;
        PooledConnection e;
        long now;
        try {
            c = connector.connect(o);
            connector.setUp(c);
            Origin landed = o.discovers() ? origins.landed(o, c) : o;
            role = RoleReader.read(c);
            ConnectionDefaults defaults = ConnectionDefaults.readFrom(c);
            DrcpSession drcp = DrcpSession.of(o, c); // the configured origin's: a discovered one has its settings
            if (drcp != null) {
                drcp.release(Map.of()); // the login's pooled server: an idle connection holds none
            }
            now = ticker.nanoTime();
            e = new PooledConnection(returnPath, landed, slot, c, defaults, statementCacheSize, now, now + lifetime(),
                    drcp);
        } catch (Throwable ex) {
            if (c != null) {
                closeQuietly(c);
                capacity.countOpenedAndClosed();
            }
            table.cancel(slot);
            unclaim(o);
            detector.connectFailed(o, Secrets.sanitize(ex, o.config, "could not connect"), ticker.nanoTime());
            return;
        }
        Origin landed = e.origin;
        placement.sampleConnect(now - start);
        o.health.sampleConnect(now - start);
        capacity.countOpened();
        detector.connected(o);
        capacity.landed(o, landed);
        if (landed != o) {
            operations.landedOnDetectedDown(landed);
        }
        if (!roles.admits(landed, role) || !o.isUp() || !landed.isUp() || origins.forgotten(landed)
                || lifecycle.closed()) {
            // The origin was drained or the pool closed while we were connecting, or the URL landed on a
            // discovered origin that is not UP, or the server does not take writes (RoleGate): do not lend it
            // (S7). Landings on a drained server back the group off, so a group whose URL keeps choosing it does
            // not spin.
            if (landed != o && o.isUp() && !lifecycle.closed()) {
                detector.landedOnOriginNotUp(o, landed, now);
            }
            table.publishHeld(slot, e);
            capacity.doneCreating(o);
            closing.closeOwned(e, CloseReason.ORIGIN_NOT_UP, false);
            return;
        }
        if (landed != o) {
            detector.landedOnOriginUp(o);
        }
        // Published before the creating counts drop, so a snapshot never misses the connection in between.
        table.publish(slot, e);
        capacity.doneCreating(o);
        events.emit(PoolEvent.Type.CREATED, landed.name, null, "slot " + slot.index());
        if (lifecycle.closed()) {
            // close() may have swept the table before this publish (it moves the lifecycle out of OPEN,
            // then sweeps; this publishes, then reads it: one of the two sees the other).
            closing.closeIfIdle(e, CloseReason.POOL_CLOSED);
        }
    }

    /** maxLifetime minus up to 2.5 % so connections made together do not all retire together. */
    private long lifetime() {
        if (maxLifetimeNanos == OriginStatus.NEVER) {
            return OriginStatus.NEVER;
        }
        return maxLifetimeNanos - ThreadLocalRandom.current().nextLong(maxLifetimeNanos / 40 + 1);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (Throwable ignored) {
            // Closing a connection we are giving up on; nothing else to do.
        }
    }
}
