package dev.slotpool.failover;

import dev.slotpool.ServerRole;

/**
 * One answer of a server about its role (docs/failover.md, "Primary and standbys").
 *
 * @param role      what the server says it is
 * @param cluster   which replication family the server belongs to, the same on a primary and its physical standbys:
 *                  PostgreSQL's system identifier, Oracle's DBID; null when unknown. Timelines compare only within
 *                  one (independent primaries each have their own history)
 * @param timeline  the history it is on, to tell an old primary from a promoted one (the promoted one's is higher):
 *                  PostgreSQL's timeline of a primary (from its current WAL file), Oracle's {@code RESETLOGS_CHANGE#}
 *                  (a failover opens the new primary with RESETLOGS); 0 when unknown (a PostgreSQL standby, or not
 *                  asked)
 * @param lagBytes  a standby's WAL received but not replayed yet; -1 when unknown or not a standby
 * @param lagMillis a standby's replay lag: 0 when it replayed all it received, else the age of the last transaction
 *                  it replayed; -1 when unknown or not a standby
 * @param detail    what the server answered, in words, for the event log, the snapshot and the console
 */
public record RoleReading(ServerRole role, String cluster, long timeline, long lagBytes, long lagMillis,
                          String detail) {

    /** The reading of a database the pool has no role query for. */
    public static RoleReading unknown(String detail) {
        return new RoleReading(ServerRole.UNKNOWN, null, 0, -1, -1, detail);
    }

    /** Whether borrows that may write can be served by this server: a primary, or a server not asked. */
    public boolean takesWrites() {
        return role == ServerRole.PRIMARY || role == ServerRole.UNKNOWN;
    }
}
