package dev.slotpool;

/** The state of an origin (docs/failover.md). Only {@code UP} origins lend connections (S7). */
public enum OriginState {
    /** Serving borrows and receiving new connections; while its server refuses new sessions and those the pool
     * has answer, it stays UP and serves with them ({@link OriginSnapshot#refusingNewSessions()}). */
    UP,
    /** Planned drain: no new borrows, idle connections closed, borrowed ones closed at return, the rest aborted
     * at the drain deadline. Becomes {@code DOWN} once empty. */
    DRAINING,
    /** Not serving: no connections are created on it; idle ones were closed, borrowed ones are closed at return
     * or aborted after the grace period. */
    DOWN
}
