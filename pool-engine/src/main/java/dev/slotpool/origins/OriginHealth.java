package dev.slotpool.origins;

import dev.slotpool.kernel.MovingMean;

import java.sql.SQLException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the failure detector and its probes know about one origin (docs/architecture.md, "The origin wing"): the
 * runs of evidence, the back-off, the attempts running and the probe's schedule. They decide; this keeps it, and is
 * the one place that ends a run ({@link #endConnectRun}, {@link #endBrokenRun}, both in {@link #endFailureRuns}).
 * Nothing here is touched on the borrow path; a return reads {@link #endBrokenRun}'s count only.
 */
public final class OriginHealth {

    private static final long MAX_PROBE_SPACING_NANOS = TimeUnit.MINUTES.toNanos(10);

    /** Failed connects and probes in a row, and unanswered periods. */
    private final AtomicInteger connectFailures = new AtomicInteger();
    /** Lent connections evicted for a connection-level error in a row. */
    private final AtomicInteger brokenInARow = new AtomicInteger();
    /** For a discovery group: new connections in a row that landed on a discovered origin not UP. */
    private final AtomicInteger landedAway = new AtomicInteger();
    /** The last connect failure (sanitized), kept while {@link #connectFailures} is not zero. */
    private volatile SQLException lastFailure;
    /** A probe failed in the current run of connect failures: the outage is confirmed, not a moment's refusal.
     * Racy but benign: set by probe threads, cleared when the run ends. */
    private volatile boolean probeFailedInRun;
    /** Earliest next connection attempt after a failure (ticker time); racy but benign: a creator may try a
     * little early or late. */
    private volatile long nextAttemptAt;
    /** Mean connect time since the last connect failure (0: none yet); fed by connect threads. */
    private final MovingMean connectTime = new MovingMean();
    /** Whether a connect or probe ever answered: from then on an unanswered attempt is judged by silenceTimeout,
     * not connectTimeout. Never cleared: racy but benign, every writer stores true. */
    private volatile boolean answered;
    /** Connects and probes running now, on their own threads. */
    private final ConcurrentLinkedQueue<ConnectAttempt> attempts = new ConcurrentLinkedQueue<>();
    /** Attempts started whose thread may still be alive, for close() to wait for: an attempt leaves
     * {@link #attempts} when its work ends, before its thread does. */
    private final ConcurrentLinkedQueue<ConnectAttempt> started = new ConcurrentLinkedQueue<>();
    /** A probe is wanted (a failed validation, or every connection stuck); cleared when one starts. */
    private volatile boolean probeWanted;
    /** Claimed by CAS by the thread that starts this origin's probe, released once its attempt is unlisted: one
     * probe at a time. */
    private final AtomicBoolean probing = new AtomicBoolean();
    /** Earliest next probe of an UP origin (ticker time), pushed back after each probe that answered. */
    private volatile long nextProbeAt;
    /** The last push-back; doubles while probes keep answering (written by probe threads, one at a time). */
    private volatile long probeSpacingNanos;

    OriginHealth(long now) {
        this.nextAttemptAt = now;
    }

    // ---- runs of evidence ------------------------------------------------------------------------------------

    public int connectFailures() {
        return connectFailures.get();
    }

    public int brokenInARow() {
        return brokenInARow.get();
    }

    /** The last connect failure while the run of connect failures lasts, else null. */
    public SQLException currentFailure() {
        SQLException f = lastFailure;
        return f != null && connectFailures.get() > 0 ? f : null;
    }

    public SQLException lastFailure() {
        return lastFailure;
    }

    /** Whether a probe failed in the current run of connect failures (and the run lasts). */
    public boolean outageConfirmed() {
        return probeFailedInRun && currentFailure() != null;
    }

    /** Counts a failed connect or probe and keeps its (sanitized) failure; the origin is not known to answer
     * until it connects again. Returns the run's length. */
    public int connectFailed(SQLException sanitized) {
        lastFailure = sanitized;
        connectTime.reset();
        return connectFailures.incrementAndGet();
    }

    /** Counts a failed probe as {@link #connectFailed} does, and confirms the run as an outage. */
    public int probeFailed(SQLException sanitized) {
        int run = connectFailed(sanitized);
        probeFailedInRun = true;
        return run;
    }

    /** A connect or probe answered: it is known to answer from now on, and the run of connect failures ends.
     * Returns the run that ended (0 if none: read first, so only a failure's end writes the shared count). */
    public int endConnectRun() {
        if (!answered) {
            answered = true;
        }
        int run = connectFailures.get() == 0 ? 0 : connectFailures.getAndSet(0);
        lastFailure = null;
        if (probeFailedInRun) {
            probeFailedInRun = false;
        }
        return run;
    }

    public int evicted() {
        return brokenInARow.incrementAndGet();
    }

    /** A healthy return: the run of connection errors ends. Read first, so the return path writes the shared count
     * only right after an error. */
    public void endBrokenRun() {
        if (brokenInARow.get() != 0) {
            brokenInARow.set(0);
        }
    }

    /** An origin brought back UP: both runs end, and it may be tried at once. */
    public void endFailureRuns(long now) {
        connectFailures.set(0);
        brokenInARow.set(0);
        lastFailure = null;
        nextAttemptAt = now;
    }

    public int countLandedAway() {
        return landedAway.incrementAndGet();
    }

    public void endLandedAwayRun() {
        if (landedAway.get() != 0) {
            landedAway.set(0);
        }
    }

    // ---- back-off -------------------------------------------------------------------------------------------

    public long nextAttemptAt() {
        return nextAttemptAt;
    }

    public boolean mayAttempt(long now) {
        return now - nextAttemptAt >= 0;
    }

    public void backOffUntil(long at) {
        nextAttemptAt = at;
    }

    /** Backs off until {@code at}, never sooner than a back-off already set (a refused login's maximum). */
    public void backOffAtLeastUntil(long at) {
        if (nextAttemptAt - at < 0) {
            nextAttemptAt = at;
        }
    }

    // ---- attempts and probes --------------------------------------------------------------------------------

    public boolean answered() {
        return answered;
    }

    /** Mean connect time since the last connect failure (0: none yet). */
    public long meanConnectNanos() {
        return connectTime.nanos();
    }

    public void sampleConnect(long nanos) {
        connectTime.sample(nanos);
    }

    public ConcurrentLinkedQueue<ConnectAttempt> attempts() {
        return attempts;
    }

    public ConcurrentLinkedQueue<ConnectAttempt> startedAttempts() {
        return started;
    }

    public boolean probeWanted() {
        return probeWanted;
    }

    public void wantProbe() {
        probeWanted = true;
    }

    public void probeStarting() {
        probeWanted = false;
    }

    public boolean probing() {
        return probing.get();
    }

    /** Claims this origin's one probe (CAS). */
    public boolean claimProbe() {
        return probing.compareAndSet(false, true);
    }

    public void releaseProbe() {
        probing.set(false);
    }

    public long nextProbeAt() {
        return nextProbeAt;
    }

    /** A probe of an UP origin answered: the next waits twice as long (at least {@code minSpacingNanos}). */
    public void probeAnswered(long now, long minSpacingNanos) {
        probeSpacingNanos = Math.min(Math.max(2 * probeSpacingNanos, minSpacingNanos), MAX_PROBE_SPACING_NANOS);
        nextProbeAt = now + probeSpacingNanos;
    }
}
