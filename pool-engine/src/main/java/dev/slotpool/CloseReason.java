package dev.slotpool;

/**
 * Why the pool closed a physical connection: the {@link PoolEvent#reason()} of a {@link PoolEvent.Type#CLOSED} event,
 * and of a {@link PoolEvent.Type#LEAK} event that took a connection back, as listeners receive them (the Boot
 * module's {@code slotpool.connections.closed} meter counts the closes by it). Snapshots count closes, not reasons.
 */
public enum CloseReason {
    /** Idle longer than the inactive timeout while the pool was above minSize. */
    INACTIVE,
    /** Reached its maximum lifetime. */
    MAX_LIFETIME,
    /** A connection-level error showed it broken (SQLState class 08 or a vendor code). */
    BROKEN,
    /** Failed validation (on borrow or keepalive). */
    VALIDATION_FAILED,
    /** No JDBC activity for longer than the abandoned timeout: taken back from its holder and aborted. */
    ABANDONED,
    /** Borrowed for longer than the time-to-live: taken back from its holder and aborted. */
    TIME_TO_LIVE,
    /** Its origin was drained or marked down. */
    ORIGIN_NOT_UP,
    /** Retired to move capacity to another origin (rebalance). */
    REBALANCED,
    /** A held-back connection closed to keep the pool's sessions within its fleet budget (docs/architecture.md,
     * "Adaptive sizing"). */
    RESIZED,
    /** The labeling callback could not configure it for the requested labels. */
    LABELING_FAILED,
    /** Behind Oracle DRCP, no pooled server could be attached to it at borrow (docs/oracle.md, "DRCP"). */
    ATTACH_FAILED,
    /** The pool was closed. */
    POOL_CLOSED
}
