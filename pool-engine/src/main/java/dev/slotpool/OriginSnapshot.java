package dev.slotpool;

import java.util.List;

/**
 * One origin as a snapshot saw it.
 *
 * @param name          origin name
 * @param url           its JDBC URL with credentials redacted
 * @param service       service dimension, or null
 * @param database      database dimension, or null
 * @param instance      instance dimension, or null
 * @param host          host dimension, or null
 * @param state         UP, DRAINING or DOWN
 * @param stateReason   why it is in that state (e.g. "marked down", "3 consecutive connection failures")
 * @param refusingNewSessions UP, but its server refuses new sessions while the ones the pool has answer
 *                            ({@code downAfterFailures} connects failed in a row, docs/failover.md "Evidence"):
 *                            borrows are served by its sessions, none is closed for it, and new connects wait
 *                            for the creation back-off; false once a connect succeeds
 * @param role          what its server said it is when last asked (docs/failover.md, "Primary and standbys"):
 *                      PRIMARY, STANDBY, READ_ONLY, or UNKNOWN (not asked yet, or a database without a role query);
 *                      an origin whose server does not take writes is DOWN with the server's answer as its reason
 * @param replicaLagMillis a standby's replay lag when last asked (0 when it had replayed all it received), or -1
 * @param weight        current target weight
 * @param targetShare   weight as a percentage of all UP origins' weights
 * @param actualShare   live connections as a percentage of the pool's live connections (0 when it has none)
 * @param total         live connections (available + borrowed + closing)
 * @param available     idle connections
 * @param borrowed      lent connections
 * @param creating      connections being opened (room claimed, connect under way)
 * @param closing       connections being closed
 * @param borrows       borrows served by this origin since the pool started
 * @param consecutiveFailures the longer of its two runs of failures that count toward DOWN: failed connects
 *                            (and unanswered connect timeouts), and connections broken by connection-level errors
 * @param statementCacheHits      prepares served from a connection's statement cache since the pool started
 *                                (0 when {@code statementCacheSize} is 0)
 * @param statementCacheMisses    prepares with the cache on that found no idle statement and prepared one
 * @param statementCacheEvictions idle statements the cache closed to make room for one coming back
 * @param slots         the origin's slots
 * @param pooler        the pooler's own view of the origin's database, read from its admin console every
 *                      {@code housekeepingPeriod} when the origin has a {@code poolerAdminUrl}; null otherwise, or
 *                      when the last read failed (docs/poolers.md, "Sizing a fleet")
 * @param poolerError   why the last read of the pooler's admin console failed (the socket's or the console's
 *                      message, never its URL), or that the last read is stale ("stale: the console was last read
 *                      ... ms ago", next to the view it gave); null when it answered lately, was not read yet, or
 *                      there is none
 * @param reads         for a standby kept for reads (docs/failover.md, "Reads to standbys"): whether it takes reads
 *                      now and why, as its last reading said ("takes reads: replica lag 0 ms (bound 5000 ms)",
 *                      "takes no reads: replica lag 6000 ms (bound 5000 ms)", "takes no reads: replica lag unknown
 *                      [the reading, which says why] (bound 5000 ms)", "takes no reads: its role could not be read"); null for any other origin
 */
public record OriginSnapshot(String name, String url, String service, String database, String instance,
                             String host, OriginState state, String stateReason, boolean refusingNewSessions,
                             ServerRole role, long replicaLagMillis,
                             int weight, double targetShare,
                             double actualShare, int total, int available, int borrowed, int creating, int closing, long borrows,
                             int consecutiveFailures, long statementCacheHits, long statementCacheMisses,
                             long statementCacheEvictions, List<SlotSnapshot> slots, PoolerView pooler,
                             String poolerError, String reads) {

    /** An origin whose role was not read and that has no pooler view. */
    public OriginSnapshot(String name, String url, String service, String database, String instance,
                          String host, OriginState state, String stateReason, boolean refusingNewSessions,
                          int weight, double targetShare,
                          double actualShare, int total, int available, int borrowed, int creating, int closing,
                          long borrows, int consecutiveFailures, long statementCacheHits, long statementCacheMisses,
                          long statementCacheEvictions, List<SlotSnapshot> slots) {
        this(name, url, service, database, instance, host, state, stateReason, refusingNewSessions,
                ServerRole.UNKNOWN, -1, weight, targetShare, actualShare, total, available, borrowed, creating,
                closing, borrows, consecutiveFailures, statementCacheHits, statementCacheMisses,
                statementCacheEvictions, slots, null, null, null);
    }
}
