package dev.slotpool;

import java.time.Instant;

/**
 * A pooler's own view of one database, as its admin console reports it (PgBouncer's {@code SHOW POOLS}, summed over
 * the database's users): the fleet's arithmetic seen from the pooler (docs/poolers.md, "Sizing a fleet").
 *
 * @param clientsActive  client connections (of every instance) linked to a server session or idle
 *                       ({@code cl_active})
 * @param clientsWaiting client connections with a transaction waiting for a server session ({@code cl_waiting})
 * @param serversActive  server sessions linked to a client ({@code sv_active})
 * @param serversIdle    server sessions free for the next transaction ({@code sv_idle})
 * @param serversUsed    idle server sessions PgBouncer checks before reuse ({@code sv_used}); active + idle + used
 *                       is what the pooler holds of the server's {@code max_connections}
 * @param maxWaitMicros  how long the oldest waiting client has waited ({@code maxwait}, {@code maxwait_us})
 * @param readAt         when the console answered
 */
public record PoolerView(int clientsActive, int clientsWaiting, int serversActive, int serversIdle, int serversUsed,
                         long maxWaitMicros, Instant readAt) {
}
