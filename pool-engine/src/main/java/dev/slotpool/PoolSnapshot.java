package dev.slotpool;

import java.util.List;
import java.util.Optional;

/**
 * An immutable view of the whole pool, taken in one pass over the table (racy reads: each slot is read once,
 * so the counts add up, but slots may be seen at slightly different instants).
 *
 * @param name                pool name
 * @param closed              whether the pool was closed
 * @param minSize             configured minimum
 * @param maxSize             configured maximum
 * @param total               live connections
 * @param available           idle connections
 * @param borrowed            lent connections
 * @param creating            connections being opened (room claimed, connect under way)
 * @param closing             connections being closed
 * @param waiting             threads waiting for a connection
 * @param oldestWaitMillis    how long the oldest waiter has waited
 * @param borrows             borrows since start
 * @param timeouts            borrows that timed out since start
 * @param connectionsOpened   connections opened since start
 * @param connectionsClosed   connections closed or aborted since start
 * @param lastCreationFailure the last connection failure's message (sanitized), if any
 * @param origins             per-origin detail
 */
public record PoolSnapshot(String name, boolean closed, int minSize, int maxSize, int total, int available,
                           int borrowed, int creating, int closing, int waiting, long oldestWaitMillis, long borrows,
                           long timeouts, long connectionsOpened, long connectionsClosed, Optional<String> lastCreationFailure,
                           List<OriginSnapshot> origins) {

    /**
     * The origin with this name, if any.
     *
     * @param originName the origin's name
     * @return its snapshot, or empty when the pool has no origin of that name
     */
    public Optional<OriginSnapshot> origin(String originName) {
        return origins.stream().filter(o -> o.name().equals(originName)).findFirst();
    }

    /**
     * {@return one line with the counts and each origin's state (and why, when it is not UP)}: used in timeout
     * messages.
     */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append("pool '").append(name).append("': total=").append(total).append(", available=").append(available)
                .append(", borrowed=").append(borrowed).append(", creating=").append(creating)
                .append(", waiting=").append(waiting).append(", max=").append(maxSize).append("; origins:");
        for (OriginSnapshot o : origins) {
            sb.append(' ').append(o.name()).append('=').append(o.state());
            if (o.state() != OriginState.UP && o.stateReason() != null) {
                // Why a borrower finds no connection: "marked down", "suspended for checkpoint", a drain...
                sb.append(" [").append(o.stateReason()).append(']');
            } else if (o.refusingNewSessions()) {
                // Why the pool does not grow there: its server refuses new sessions; its own still serve.
                sb.append(" [refusing new sessions]");
            }
            sb.append("(total ").append(o.total()).append(", borrowed ").append(o.borrowed()).append(')');
        }
        return sb.toString();
    }
}
