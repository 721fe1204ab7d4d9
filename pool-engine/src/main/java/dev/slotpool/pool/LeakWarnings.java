package dev.slotpool.pool;

import dev.slotpool.PoolEvent;
import dev.slotpool.pool.ground.Events;
import dev.slotpool.pool.ground.PooledConnection;
import dev.slotpool.pool.ground.StackTexts;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Reports a connection borrowed longer than {@code leakDetectionThreshold}, once per borrow and without taking it
 * back (the abandoned and time-to-live timers reclaim; this one only warns): a LEAK event with no close reason,
 * logged at WARNING, naming the holder's thread, the time held and the borrow stack. Runs on the housekeeper, so
 * the borrow path pays nothing but recording the stack (docs/architecture.md, "Housekeeping").
 */
final class LeakWarnings {

    private final long thresholdNanos;
    private final Events events;

    LeakWarnings(Duration threshold, Events events) {
        this.thresholdNanos = threshold.toNanos();
        this.events = events;
    }

    /** Visits the borrow {@code stamp} of a connection (read by the caller before anything else), before any
     * reclaim decides on it. */
    void visit(PooledConnection e, long stamp, long now) {
        if (thresholdNanos == 0) {
            return;
        }
        // The lease word was read first (volatile): the holder wrote borrowedAt, holder and stack before it, so
        // these reads see this borrow's values or a later one's; a later one's only postpones the report.
        if (stamp == e.leakReportedStamp) {
            return;
        }
        long held = now - e.borrowedAt;
        if (held < thresholdNanos) {
            return;
        }
        Thread holder = e.holder;
        Throwable stack = e.borrowStack;
        if (e.stamp() != stamp) {
            return; // returned meanwhile: the values read may be mixed
        }
        e.leakReportedStamp = stamp;
        events.emit(PoolEvent.Type.LEAK, e.origin.name, null, "connection held by thread '"
                + (holder == null ? "?" : holder.getName()) + "' for " + TimeUnit.NANOSECONDS.toMillis(held)
                + " ms, longer than leakDetectionThreshold (" + TimeUnit.NANOSECONDS.toMillis(thresholdNanos)
                + " ms); left with its holder" + (stack == null ? "" : "; borrowed at:\n" + StackTexts.of(stack)));
    }
}
