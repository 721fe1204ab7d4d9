package dev.slotpool.pool;

import dev.slotpool.OriginState;
import dev.slotpool.pool.ground.Capacity;
import dev.slotpool.pool.ground.Connector;
import dev.slotpool.pool.ground.Origin;
import dev.slotpool.pool.ground.OriginStatus;
import dev.slotpool.pool.ground.RoleReading;
import dev.slotpool.pool.origin.OriginOperations;
import dev.slotpool.pool.origin.RoleWatch;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The pool's side of {@link RoleWatch} (docs/failover.md, "Primary and standbys"): an origin out for its role is
 * DOWN with its server's answer as the reason (not marked detected, so no probe brings it back), its watch
 * session's room is claimed like a probe's (S3), and it is UP again only from the status the role set (an
 * operator's change in between wins).
 */
final class RoleGate {

    private final RoleWatch watch;
    private final OriginOperations operations;
    private final Capacity capacity;
    private final Connector connector;

    RoleGate(RoleWatch watch, OriginOperations operations, Capacity capacity, Connector connector) {
        this.watch = watch;
        this.operations = operations;
        this.capacity = capacity;
        this.connector = connector;
    }

    /** Whether a new connection of {@code o} whose server answered {@code role} may be lent. */
    boolean admits(Origin o, RoleReading role) {
        watch.register(o.name, () -> new Side(o));
        return watch.admits(o.name, role);
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
            OriginStatus set = operations.outForRole(o, reason, setByRole);
            if (set != null) {
                setByRole = set;
            }
        }

        @Override
        public void backForRole(String reason) {
            OriginStatus set = setByRole;
            if (set != null && set.state() == OriginState.DOWN && o.status() == set) {
                operations.upIfStill(o, set, reason);
            }
        }
    }
}
