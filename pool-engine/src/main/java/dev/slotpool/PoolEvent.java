package dev.slotpool;

import java.time.Instant;

/**
 * Something that happened to the pool, for listeners and the event log.
 *
 * @param type   what happened
 * @param origin the origin it happened on, or null for pool-wide events
 * @param reason why a connection was closed (for {@link Type#CLOSED}) or taken back (for {@link Type#LEAK}: null
 *               when it was only held past the leak detection threshold), else null
 * @param detail a human-readable detail: never a password or URL credential; for {@link Type#CREATED} and
 *               {@link Type#CLOSED}, the connection's slot ({@code slot 3}, the index of {@link SlotSnapshot#index()})
 * @param at     when
 */
public record PoolEvent(Type type, String origin, CloseReason reason, String detail, Instant at) {

    /** The kinds of event. */
    public enum Type {
        /** A physical connection was opened. */
        CREATED,
        /** Opening a connection failed (detail: the sanitized error). */
        CREATION_FAILED,
        /** A physical connection was closed or aborted ({@link #reason()} says why). */
        CLOSED,
        /** A borrow timed out (detail: the pool state). */
        TIMEOUT,
        /** A connection was taken back from a holder that kept it too long ({@link #reason()} says why), or, with
         * no reason, has been held past the leak detection threshold and is left with its holder (detail: holder,
         * time held and, where recorded, the borrow stack). */
        LEAK,
        /** An origin changed state (detail: from, to, why), or an UP origin started or stopped refusing new
         * sessions (detail: "UP, refusing new sessions: ..." or "UP, accepting new sessions again: ..."). */
        ORIGIN_STATE,
        /** Target weights changed. */
        REBALANCE,
        /** An origin's adaptive limit changed (detail: "limit 12 -> 9: " and why). */
        LIMIT
    }
}
