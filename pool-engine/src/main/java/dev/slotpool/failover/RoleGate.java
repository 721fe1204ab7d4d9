package dev.slotpool.failover;

import dev.slotpool.PoolEvent;
import dev.slotpool.ServerRole;
import dev.slotpool.kernel.Events;
import dev.slotpool.origins.Origin;
import dev.slotpool.sessions.Connector;
import dev.slotpool.slots.Capacity;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.table.SlotTable;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The pool's side of {@link RoleWatch} (docs/failover.md, "Primary and standbys"): an origin out for its role is
 * DOWN with its server's answer as the reason (not marked detected, so no probe brings it back); the verdict and
 * the status it composes with (an operator's, a suspension's) are {@link OriginOperations}'s. The watch session is
 * the pool's own ({@link Capacity#claimSession}: room, S3, but no creation), held only while the origin's status
 * is one the pool holds by its own findings; a drain waiting for it ends when it closes.
 *
 * <p>With reads to standbys on (docs/architecture.md, "Reads to standbys"), a standby is not taken out: it stays UP,
 * kept for reads ({@link Origin#keepForReads}), its connections lent to read borrows only, and it takes them while
 * its replica lag, as the watch last read it, is within {@code maxReplicaLag}; a lost watch session, or a lag
 * unknown or beyond the bound, stops its reads until a reading within the bound. Promoted, it takes writes again.
 */
public final class RoleGate {

    private final RoleWatch watch;
    private final OriginOperations operations;
    private final Capacity capacity;
    private final Connector connector;
    private final Events events;
    /** Tells waiters that entries they may take appeared without a release (a standby's connections, promoted). */
    private final SlotTable<PooledConnection> table;
    private final boolean readsToStandbys;
    private final long maxLagMillis;

    public RoleGate(RoleWatch watch, OriginOperations operations, Capacity capacity, Connector connector, Events events,
             SlotTable<PooledConnection> table, boolean readsToStandbys, Duration maxReplicaLag) {
        this.watch = watch;
        this.operations = operations;
        this.capacity = capacity;
        this.connector = connector;
        this.events = events;
        this.table = table;
        this.readsToStandbys = readsToStandbys;
        this.maxLagMillis = maxReplicaLag.toMillis();
    }

    /** Whether a new connection of {@code o} whose server answered {@code role} may be published: lent to any
     * borrow, or, for a standby kept for reads, to read borrows only. */
    public boolean admits(Origin o, RoleReading role) {
        watch.register(o.name, () -> new Side(o));
        return watch.admits(o.name, role) || o.keptForReads();
    }

    private final class Side implements RoleWatch.Watched {
        private final Origin o;

        Side(Origin o) {
            this.o = o;
        }

        @Override
        public String name() {
            return o.name;
        }

        @Override
        public boolean claimRoom() {
            return capacity.claimSession(o);
        }

        @Override
        public void releaseRoom() {
            capacity.releaseSession(o);
            operations.finishDrain(o); // a drain of the origin waited for this session
        }

        @Override
        public boolean mayHoldSession() {
            return operations.mayWatch(o);
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
        public void holdWrites() {
            o.holdWrites();
        }

        @Override
        public void releaseWrites() {
            o.releaseWrites();
            if (readsToStandbys && o.takesWrites()) {
                table.sharedMayHaveGrown(); // its entries were reserved while held (PooledConnection.TAKES_WRITES)
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
            if (o.keptForReads()) {
                o.keepForReads(false, false);
            }
            operations.outForRole(o, reason);
        }

        /** A standby kept for reads: UP (from the DOWN the role set, if it set one), its reads by its lag. */
        private void keepForReads(RoleReading r, String reason) {
            boolean readable = withinLag(r);
            String verdict = readsVerdict(r, readable);
            o.readsVerdict(verdict);
            o.keepForReads(true, readable);
            events.emit(PoolEvent.Type.ORIGIN_STATE, o.name, null, "kept for reads: " + reason + "; " + verdict,
                    System.Logger.Level.INFO);
            operations.inForRole(o, "kept for reads: " + reason);
        }

        @Override
        public long lagBoundMillis() {
            return readsToStandbys ? maxLagMillis : -1;
        }

        /** Racy but benign: the watch's thread and a creator's (a new connection's reading) may each store their
         * verdict, the older last; the watch's next reading, within {@code RoleWatch.CHECK_NANOS}, sets it right. */
        @Override
        public void read(RoleReading r) {
            if (!o.keptForReads()) {
                return;
            }
            // A reading with no answer (UNKNOWN: its query failed) stops reads until the next that answers.
            boolean unread = r == null || r.role() == ServerRole.UNKNOWN;
            boolean readable = !unread && r.role() == ServerRole.STANDBY && withinLag(r);
            String verdict = unread ? "takes no reads: its role could not be read" : readsVerdict(r, readable);
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
            if (o.keptForReads()) {
                o.keepForReads(false, false);
                events.emit(PoolEvent.Type.ORIGIN_STATE, o.name, null, "takes writes again: " + reason,
                        System.Logger.Level.INFO);
                table.sharedMayHaveGrown();
            }
            operations.inForRole(o, reason);
        }
    }
}
