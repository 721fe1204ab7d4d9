package dev.slotpool;

/**
 * What an origin's server says it is when the pool asks (docs/failover.md, "Primary and standbys"). Only a
 * {@code PRIMARY} or {@code UNKNOWN} origin takes borrows that may write.
 */
public enum ServerRole {
    /** Takes writes: PostgreSQL not in recovery and not read-only; Oracle {@code DATABASE_ROLE} PRIMARY opened
     * READ WRITE. */
    PRIMARY,
    /** Replays another server's changes and refuses writes: PostgreSQL in recovery (a hot standby); Oracle's
     * physical, logical or snapshot standby or far sync (a snapshot standby opens read-write, but its writes are
     * thrown away when it turns back into a standby). */
    STANDBY,
    /** Not a standby, but refuses writes: PostgreSQL with {@code default_transaction_read_only} on in the server's
     * configuration; Oracle's primary opened READ ONLY. */
    READ_ONLY,
    /** Not asked (a database the pool has no role query for) or the question failed: served as a server whose
     * role is not read, one that takes writes. */
    UNKNOWN
}
