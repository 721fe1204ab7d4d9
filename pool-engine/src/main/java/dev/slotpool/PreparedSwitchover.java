package dev.slotpool;

/**
 * What {@link SlotPoolDataSource#prepareSwitchover} did (docs/failover.md, "Planned switchover"): writes paused on
 * the primary, its connections closed, and the standby caught up with it. The operator promotes the standby next.
 *
 * @param from             the primary whose writes are paused; DOWN from now on
 * @param to               the standby to promote
 * @param lastPosition     the primary's WAL write position once its last connection closed
 * @param replayedPosition what the standby had replayed when it was found caught up (at or past lastPosition)
 * @param drainMillis      from the pause to the primary's last connection closed (its transactions finishing)
 * @param catchUpMillis    from then to the standby found caught up
 * @param aborted          whether transactions still running at the timeout were aborted, as a drain's
 */
public record PreparedSwitchover(String from, String to, String lastPosition, String replayedPosition,
                                 long drainMillis, long catchUpMillis, boolean aborted) {

    /** {@return what happened and what the operator does next}, for an answer or a log line. */
    public String summary() {
        return "writes paused on '" + from + "' (its transactions " + (aborted ? "still running at the timeout were "
                + "aborted" : "finished") + " and its connections closed in " + drainMillis + " ms); '" + to
                + "' caught up at " + replayedPosition + " (the last position of '" + from + "': " + lastPosition
                + ") in " + catchUpMillis + " ms; promote '" + to + "' now (SELECT pg_promote()): borrowers wait and "
                + "the pool resumes on '" + to + "' when it reads it primary, while '" + from + "' stays DOWN (to "
                + "cancel instead, mark '" + from + "' up and do not promote)";
    }
}
