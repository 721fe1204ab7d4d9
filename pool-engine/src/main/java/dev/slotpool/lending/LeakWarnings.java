package dev.slotpool.lending;

import dev.slotpool.PoolEvent;
import dev.slotpool.kernel.Events;
import dev.slotpool.kernel.StackTexts;
import dev.slotpool.origins.OriginStatus;
import dev.slotpool.slots.PooledConnection;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Reports a connection borrowed longer than {@code leakDetectionThreshold}, once per borrow and without taking it
 * back (the abandoned and time-to-live timers reclaim; this one only warns): a LEAK event with no close reason,
 * logged at WARNING, naming the holder's thread, the time held and the borrow stack. Runs on the housekeeper, so
 * the borrow path pays nothing but recording the stack (docs/architecture.md, "Housekeeping"): besides every
 * visit, the housekeeper looks at the borrowed connections at {@link #nextDue}, the earliest threshold of a borrow
 * it has seen and at most a tenth of the threshold after its last look, so a borrow that began since is reported
 * at most that much after its threshold, not a housekeeping period after.
 * Read and written by the housekeeper's thread only (tests call it from theirs while that one parks).
 */
public final class LeakWarnings {

    private final long thresholdNanos;
    private final long lookNanos;
    private final Events events;
    /** When the next look is due (ticker time); lowered by each visit to a borrow's threshold still ahead. */
    private long nextLookAt;

    public LeakWarnings(Duration threshold, Events events, long now) {
        this.thresholdNanos = threshold.toNanos();
        this.lookNanos = thresholdNanos / 10; // the threshold is at least 1 s: looks at least 100 ms apart
        this.events = events;
        this.nextLookAt = now + lookNanos;
    }

    /** Whether leak detection is on and a look at the borrowed connections is due. */
    public boolean due(long now) {
        return thresholdNanos > 0 && now - nextLookAt >= 0;
    }

    /** A look begins: the next is due a spacing from now unless a borrow's threshold comes sooner. */
    public void looking(long now) {
        nextLookAt = now + lookNanos;
    }

    /** When the housekeeper must look next (ticker time); far ahead when leak detection is off. */
    public long nextDue(long now) {
        return thresholdNanos == 0 ? now + OriginStatus.NEVER : nextLookAt;
    }

    /** Visits the borrow {@code stamp} of a connection (read by the caller before anything else), before any
     * reclaim decides on it. */
    public void visit(PooledConnection e, long stamp, long now) {
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
            long dueAt = e.borrowedAt + thresholdNanos;
            if (dueAt - nextLookAt < 0) {
                nextLookAt = dueAt;
            }
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
