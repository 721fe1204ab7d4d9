package dev.slotpool;

import java.time.Instant;
import java.util.List;

/**
 * One origin's adaptive limit (docs/architecture.md, "Adaptive sizing"), for operators: what it is, its bounds, why
 * it is there, and its last changes (oldest first).
 *
 * @param origin        the configured origin's name
 * @param limit         the most connections the origin may lend at once now
 * @param floor         the lowest the controller takes it
 * @param ceiling       the highest (the origin's cap)
 * @param pinned        the operator's pin, or 0 when the controller moves the limit
 * @param heldBack      its open connections held back above the limit, as the last tick counted them
 * @param reason        why the limit is where it is, as the last tick judged
 * @param minHeldMicros the lowest tick mean held time since the controller last began a search, where held times
 *                      are clipped at ten times it (0 before any)
 * @param history       the last changes of the limit, oldest first
 */
public record LimitSnapshot(String origin, int limit, int floor, int ceiling, int pinned, int heldBack,
                            String reason, long minHeldMicros, List<Change> history) {

    public LimitSnapshot {
        history = List.copyOf(history);
    }

    /**
     * A change of the limit.
     *
     * @param at     when
     * @param limit  the new limit
     * @param reason why
     */
    public record Change(Instant at, int limit, String reason) {
    }
}
