package dev.slotpool.pool;

import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.ServerRole;
import dev.slotpool.pool.ground.Capacity;
import dev.slotpool.pool.ground.Connector;
import dev.slotpool.pool.ground.Events;
import dev.slotpool.pool.ground.Origin;
import dev.slotpool.pool.ground.OriginStatus;
import dev.slotpool.pool.ground.RoleReading;
import dev.slotpool.pool.origin.OriginOperations;
import dev.slotpool.pool.origin.RoleWatch;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The pool's side of {@link RoleWatch} (docs/failover.md, "Primary and standbys"): an origin out for its role is
 * DOWN with its server's answer as the reason (not marked detected, so no probe brings it back), its watch
 * session's room is claimed like a probe's (S3), and it is UP again only from the status the role set (an
 * operator's change in between wins).
 *
 * <p>With reads to standbys on (docs/architecture.md, "Reads to standbys"), a standby is not taken out: it stays UP,
 * kept for reads ({@link Origin#keepForReads}), its connections lent to read borrows only, and it takes them while
 * its replica lag, as the watch last read it, is within {@code maxReplicaLag}; a lost watch session, or a lag
 * unknown or beyond the bound, stops its reads until a reading within the bound. Promoted, it takes writes again.
 */
final class RoleGate {

    private final RoleWatch watch;
    private final OriginOperations operations;
    private final Capacity capacity;
    private final Connector connector;
    private final Events events;
    /** Tells waiters that entries they may take appeared without a release (a standby's connections, promoted). */
    private final Runnable writableGrew;
    private final boolean readsToStandbys;
    private final long maxLagMillis;

    RoleGate(RoleWatch watch, OriginOperations operations, Capacity capacity, Connector connector, Events events,
             Runnable writableGrew, boolean readsToStandbys, Duration maxReplicaLag) {
        this.watch = watch;
        this.operations = operations;
        this.capacity = capacity;
        this.connector = connector;
        this.events = events;
        this.writableGrew = writableGrew;
        this.readsToStandbys = readsToStandbys;
        this.maxLagMillis = maxReplicaLag.toMillis();
    }

    /** Whether a new connection of {@code o} whose server answered {@code role} may be published: lent to any
     * borrow, or, for a standby kept for reads, to read borrows only. */
    boolean admits(Origin o, RoleReading role) {
        watch.register(o.name, () -> new Side(o));
        return watch.admits(o.name, role) || !o.takesWrites();
    }

    private final class Side implements RoleWatch.Watched {
        private final Origin o;
        /** The status the role set: the only one the role may turn back UP. */
        private volatile OriginStatus setByRole;

        Side(Origin o) {
            this.o = o;
        }

        @Override
        public String name() {
            return o.name;
        }

        @Override
        public boolean claimRoom() {
            return capacity.claimIfRoom(o);
        }

        @Override
        public void releaseRoom() {
            capacity.unclaim(o);
        }

        @Override
        public Connection connect() throws SQLException {
            Connection c = connector.connect(o);
            try {
                connector.setUp(c);
                return c;
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e;
            }
        }

        @Override
        public boolean watchable() {
            return o.parent == null;
        }

        @Override
        public void outForRole(String reason) {
            RoleReading r = watch.roles().reading(o.name);
            if (readsToStandbys && r != null && r.role() == ServerRole.STANDBY) {
                keepForReads(r, reason);
                return;
            }
            if (!o.takesWrites()) {
                o.keepForReads(false, false);
            }
            OriginStatus set = operations.outForRole(o, reason, setByRole);
            if (set != null) {
                setByRole = set;
            }
        }

        /** A standby kept for reads: UP (from the status the role set, if it set one), its reads by its lag. */
        private void keepForReads(RoleReading r, String reason) {
            boolean readable = withinLag(r);
            String verdict = readsVerdict(r, readable);
            o.readsVerdict(verdict);
            o.keepForReads(true, readable);
            events.emit(PoolEvent.Type.ORIGIN_STATE, o.name, null, "kept for reads: " + reason + "; " + verdict,
                    System.Logger.Level.INFO);
            OriginStatus set = setByRole;
            if (set != null && set.state() == OriginState.DOWN && o.status() == set) {
                operations.upIfStill(o, set, "kept for reads: " + reason);
            }
        }

        /** Racy but benign: the watch's thread and a creator's (a new connection's reading) may each store their
         * verdict, the older last; the watch's next reading, within {@code RoleWatch.CHECK_NANOS}, sets it right. */
        @Override
        public void read(RoleReading r) {
            if (o.takesWrites()) {
                return;
            }
            boolean readable = r != null && r.role() == ServerRole.STANDBY && withinLag(r);
            String verdict = r == null ? "takes no reads: its role could not be read" : readsVerdict(r, readable);
            o.readsVerdict(verdict); // at every reading, so the snapshot shows the current lag
            if (readable != o.servesReads()) {
                o.keepForReads(true, readable);
                events.emit(PoolEvent.Type.ORIGIN_STATE, o.name, null, verdict, System.Logger.Level.INFO);
            }
        }

        private boolean withinLag(RoleReading r) {
            return r.lagMillis() >= 0 && r.lagMillis() <= maxLagMillis;
        }

        private String readsVerdict(RoleReading r, boolean readable) {
            String lag = r.lagMillis() < 0 ? "replica lag unknown [" + r.detail() + "]"
                    : "replica lag " + r.lagMillis() + " ms";
            return (readable ? "takes reads: " : "takes no reads: ") + lag + " (bound " + maxLagMillis + " ms)";
        }

        @Override
        public void backForRole(String reason) {
            if (!o.takesWrites()) {
                o.keepForReads(false, false);
                events.emit(PoolEvent.Type.ORIGIN_STATE, o.name, null, "takes writes again: " + reason,
                        System.Logger.Level.INFO);
                writableGrew.run();
            }
            OriginStatus set = setByRole;
            if (set != null && set.state() == OriginState.DOWN && o.status() == set) {
                operations.upIfStill(o, set, reason);
            }
        }
    }
}
