package dev.slotpool.failover;

import dev.slotpool.ServerRole;
import dev.slotpool.origins.WalPositions;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Whether a standby's replication stream still moves (docs/failover.md, "Reads to standbys"), for one standby's
 * watcher ({@code RoleWatch}). A stream can stall while the standby's WAL receiver still says "streaming" (a
 * network path that swallows packets: the receiver notices only at its {@code wal_receiver_timeout}, 60 s by
 * default); its received WAL then stops growing, replay catches up with it, and WAL received against WAL replayed
 * reads as no lag. So at each reading the standby's receive position is compared with the primary's flushed
 * position: once the primary was seen past it and it has not moved for longer than the lag bound since, the
 * standby is missing WAL older than the bound, and its lag is unknown. The primary's position needs a session to
 * the primary of the standby's family: opened, with its room (S3), only once the receive position stood still
 * between two readings, and held while it stands still, until the watcher ends, or while that origin is the family's
 * primary and its status lets the pool hold sessions to it. Without a position from either side (no room on the
 * primary, a failed query, a server that names none) nothing is judged and the reading stands.
 */
final class ReceiveProgress {

    /** What the watch needs of the primary's origin to hold a session to it (see {@link RoleWatch.Watched}). */
    interface Reachable {
        boolean watchable();

        boolean mayHoldSession();

        boolean claimRoom();

        void releaseRoom();

        Connection connect() throws SQLException;
    }

    /** The network timeout of the session to the primary, the pool's own: a silent primary fails the read. */
    private static final int NETWORK_TIMEOUT_MILLIS = 10_000;
    private static final Executor INLINE = Runnable::run;
    private static final long NONE = Long.MIN_VALUE;

    private final OriginRoles roles;
    private final Function<String, Reachable> origins;
    private final WalPositions positions;

    /** The standby's receive position last read, and when it was first read at that value (nanoTime). */
    private long received = -1;
    private long receivedSince;
    /** When the primary was first seen past {@link #received} (nanoTime), or {@link #NONE}. */
    private long behindSince = NONE;
    /** How long the receive position had not moved at the last check that found the stream stalled; -1 when the
     * last check did not. */
    private long stalledMillis = -1;

    /** The session to the family's primary, its origin, and whether its room is held. */
    private Connection primary;
    private Reachable primaryOrigin;
    private boolean room;

    ReceiveProgress(OriginRoles roles, Function<String, Reachable> origins, int timeoutSeconds) {
        this.roles = roles;
        this.origins = origins;
        this.positions = new WalPositions(timeoutSeconds);
    }

    /**
     * The reading {@code r} of the standby on {@code session}, or, when its stream stalled for longer than
     * {@code boundMillis}, the same reading with its lag unknown and why. Only a standby whose lag is known is
     * judged.
     */
    RoleReading check(RoleReading r, Connection session, long boundMillis) {
        stalledMillis = -1;
        if (primaryOrigin != null && !primaryOrigin.mayHoldSession()) {
            close(); // drained, marked down or suspended: its sessions close, this one too
        }
        if (r.role() != ServerRole.STANDBY || r.lagMillis() < 0 || r.cluster() == null) {
            return r;
        }
        long now;
        try {
            long position = positions.received(session);
            now = System.nanoTime();
            if (position < 0) {
                return r;
            }
            if (position != received) {
                received = position;
                receivedSince = now;
                behindSince = NONE;
                close(); // a moving stream needs no comparison
                return r;
            }
            long flushed = primaryFlushed(r.cluster());
            if (behindSince == NONE && flushed > position) {
                // Taken after the primary answered: by then it had flushed past the position, no earlier known.
                behindSince = System.nanoTime();
            }
        } catch (SQLException | RuntimeException e) {
            return r; // the standby's own position unread: the role reading alone decides
        }
        if (behindSince == NONE || TimeUnit.NANOSECONDS.toMillis(now - behindSince) <= boundMillis) {
            return r;
        }
        stalledMillis = TimeUnit.NANOSECONDS.toMillis(now - receivedSince);
        return stalled(r, stalledMillis);
    }

    /** How long the receive position had not moved at the last {@link #check}, if it found the stream stalled;
     * else -1. */
    long stalledMillis() {
        return stalledMillis;
    }

    /** The reading with its lag unknown for a stream whose receive position has not moved for {@code millis}. */
    static RoleReading stalled(RoleReading r, long millis) {
        return new RoleReading(r.role(), r.cluster(), r.timeline(), -1, -1, r.detail()
                + ", its WAL receive position has not moved for " + millis + " ms while the primary's has");
    }

    /** The primary's flushed position, or -1 when there is no primary to ask or it did not answer. */
    private long primaryFlushed(String cluster) {
        String name = roles.primaryOf(cluster);
        Reachable origin = name == null ? null : origins.apply(name);
        if (primaryOrigin != null && (origin != primaryOrigin || !primaryOrigin.mayHoldSession())) {
            close();
        }
        if (origin == null || !origin.watchable() || !origin.mayHoldSession()) {
            return -1;
        }
        if (primary == null) {
            primaryOrigin = origin;
            room = origin.claimRoom();
            if (!room) {
                primaryOrigin = null;
                return -1;
            }
            try {
                primary = origin.connect();
                primary.setNetworkTimeout(INLINE, NETWORK_TIMEOUT_MILLIS);
            } catch (SQLException | RuntimeException e) {
                close();
                return -1;
            }
        }
        try {
            return positions.flushed(primary);
        } catch (SQLException | RuntimeException e) {
            close(); // a session that failed a query is not kept; the next round opens another
            return -1;
        }
    }

    /** Closes the session to the primary and gives its room back. */
    void close() {
        if (primary != null) {
            try {
                primary.close();
            } catch (SQLException | RuntimeException ignored) {
                // gone either way
            }
            primary = null;
        }
        if (room) {
            room = false;
            primaryOrigin.releaseRoom();
        }
        primaryOrigin = null;
    }
}
