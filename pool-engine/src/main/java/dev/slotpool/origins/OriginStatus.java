package dev.slotpool.origins;

import dev.slotpool.OriginState;

/**
 * An origin's state, why it is in it, whether the pool decided it by itself (a probe may then bring it back)
 * rather than an operator, and when its borrowed connections are aborted (ticker time; far in the future while
 * UP). Immutable: every change replaces the whole status by CAS on {@link Origin}, so two changes never
 * interleave (a second drain, or a probe answering after an operator's markDown, fails its CAS instead of
 * overwriting the first), and the abort deadline never belongs to another state.
 */
public record OriginStatus(OriginState state, String reason, boolean detected, long abortBorrowedAt) {

    /** Far enough ahead in ticker time to mean "never", yet safe to add to any nanoTime without overflow. */
    public static final long NEVER = Long.MAX_VALUE / 4;

    public static OriginStatus up(String reason, long now) {
        return new OriginStatus(OriginState.UP, reason, false, now + NEVER);
    }
}
