package dev.slotpool.failover;

import dev.slotpool.OriginState;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.SlotState;
import dev.slotpool.Ticker;
import dev.slotpool.jdbc.SqlErrors;
import dev.slotpool.kernel.Events;
import dev.slotpool.kernel.PoolThreads;
import dev.slotpool.kernel.Secrets;
import dev.slotpool.origins.ConnectAttempt;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.Origins;
import dev.slotpool.slots.HoldTime;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.slots.Signals;
import dev.slotpool.table.SlotTable;

import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/**
 * Decides by itself when an origin is DOWN and when it answers again (docs/architecture.md, "Failure detection").
 *
 * <p>Two runs of evidence, counted apart, each judged at {@code downAfterFailures}:
 * <ul>
 * <li><b>connect failures</b> in a row: failed connects and probes, and every unanswered period of an attempt:
 *     {@code silenceTimeout} once the origin has answered before (a server gone silent is noticed within seconds),
 *     {@code connectTimeout} until then (a first connect that is merely slow, a cold database or a busy machine, is
 *     no failure). Only a connect that succeeds resets it; it also sets the origin's back-off. It is evidence
 *     about new sessions only, so it closes nothing: an origin with sessions that answer is <em>refusing new
 *     sessions</em> (UP, served by the sessions it has, connects on the back-off) until a connect succeeds. It
 *     marks the origin DOWN only when there is nothing to keep: no session, or sessions gone silent (none came
 *     back within {@link Probes#stuckNanos()}) while the connects find no server to talk to (unanswered, or a
 *     connection-level error). A server at its session limit or refusing a login answered the connect;</li>
 * <li><b>connection errors</b> in a row: lent connections evicted for a connection-level error (SQLState class 08,
 *     vendor fatal codes), evidence from the sessions themselves: DOWN. A healthy return resets it.</li>
 * </ul>
 * Nothing else counts: a holder's own abort, a failed reset at return, a failed validation (idle connections a
 * firewall killed) do not. A failed validation only asks for a probe.
 *
 * <p><b>Probes</b> ({@link Probes}): a DOWN origin the pool marked by itself is probed on its back-off and marked
 * UP when a probe answers; an UP origin when a validation failed or when it looks stuck. An origin that is DOWN,
 * stuck, or has an attempt unanswered gets at most one attempt at a time, so a silent server holds no more than
 * one pool thread and the other origins keep their creators.
 *
 * <p>When the pool marks an origin DOWN, its borrowed connections that have shown no JDBC activity for
 * {@code downGracePeriod} are aborted at once (their holders cannot finish: the server stopped answering
 * them); the others after the grace period as for any DOWN.
 */
public final class FailureDetector {

    private final Ticker ticker;
    private final Origins origins;
    private final SlotTable<PooledConnection> table;
    private final OriginOperations operations;
    private final Events events;
    /** The pool's borrow-to-return time: a session quiet for its stuck window has stopped answering. */
    private final HoldTime holdTime;
    private final Signals signals;
    private final long connectTimeoutNanos;
    private final long silenceNanos;
    private final long backoffMaxNanos;
    private final int threshold;
    private final RoleWatch roles;

    FailureDetector(PoolConfig config, Origins origins, SlotTable<PooledConnection> table,
                    OriginOperations operations, Events events, HoldTime holdTime, Signals signals, RoleWatch roles) {
        this.roles = roles;
        this.ticker = config.ticker();
        this.origins = origins;
        this.table = table;
        this.operations = operations;
        this.events = events;
        this.signals = signals;
        this.connectTimeoutNanos = config.connectTimeout().toNanos();
        this.silenceNanos = config.silenceTimeout().toNanos();
        this.backoffMaxNanos = config.creationBackoffMax().toNanos();
        this.threshold = config.downAfterFailures();
        this.holdTime = holdTime;
    }

    /** silenceTimeout: a connect under way longer than this brings no connection soon (creators plan around it). */
    public long silenceNanos() {
        return silenceNanos;
    }

    /**
     * How long an attempt starting now may go unanswered before it counts as a failed connect: silenceTimeout once
     * the origin has answered before, connectTimeout until then (a first connect gets HikariCP's budget).
     */
    public long unansweredAfterNanos(Origin o) {
        return o.health.answered() ? silenceNanos : connectTimeoutNanos;
    }

    // ---- evidence ------------------------------------------------------------------------------------------

    /** A connect failed: back off, keep the failure for timeout messages, maybe mark the origin DOWN. */
    public void connectFailed(Origin o, SQLException sanitized, long now) {
        judgeFailure(o, o.health.connectFailed(sanitized), sanitized, now); // not known to answer until it connects
    }

    /** A probe failed: counted as a connect, and it confirms the outage of an origin already DOWN, so the
     * housekeeper tells the borrowers waiting if it was the last origin (docs/architecture.md, "Borrow", step 4). */
    void probeFailed(Origin o, SQLException sanitized, long now) {
        judgeFailure(o, o.health.probeFailed(sanitized), sanitized, now);
        if (o.state() == OriginState.DOWN) {
            signals.housekeepingDue();
        }
    }

    private void judgeFailure(Origin o, int failures, SQLException sanitized, long now) {
        // A refused login fails the same way until someone changes the credentials: fast retries only add
        // failed logins (which can lock the account), so it backs off to the maximum at once.
        boolean refused = SqlErrors.isAuthenticationFailure(sanitized);
        long backoff = refused ? backoffMaxNanos : backoffNanos(failures);
        o.health.backOffUntil(now + backoff);
        String detail = refused ? "authentication failed (SQLState " + sanitized.getSQLState() + ", vendor code "
                + sanitized.getErrorCode() + "; next attempt in " + TimeUnit.NANOSECONDS.toMillis(backoff) + " ms): "
                + sanitized.getMessage() : sanitized.getMessage();
        // The first failure of a run is worth a warning; repeats (back-off retries, probes) only at DEBUG.
        events.emit(PoolEvent.Type.CREATION_FAILED, o.name, null, detail,
                failures == 1 ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG);
        judgeConnects(o, failures, sanitized, now);
    }

    /**
     * A run of connect failures at the threshold: DOWN only with nothing to keep (see the class comment), else the
     * origin is refusing new sessions, reported once, when the run reaches the threshold. Judged again at every
     * further failure, so sessions that go silent later still take the origin DOWN.
     */
    private void judgeConnects(Origin o, int failures, SQLException last, long now) {
        if (threshold == 0 || failures < threshold || !o.isUp()) {
            return;
        }
        Sessions sessions = sessions(o, now);
        if (sessions.live == 0 || (sessions.answering == 0 && SqlErrors.isFatal(last))) {
            markDownAt(o, failures, "consecutive connection failures", last, now);
        } else if (failures == threshold) {
            events.emit(PoolEvent.Type.ORIGIN_STATE, o.name, null, "UP, refusing new sessions: " + failures
                    + " consecutive connection failures while its " + sessions.live + " session(s) answer; they keep "
                    + "serving, none is closed; next connect in "
                    + TimeUnit.NANOSECONDS.toMillis(Math.max(0, o.health.nextAttemptAt() - now)) + " ms; last: "
                    + last.getMessage(), System.Logger.Level.WARNING);
        }
    }

    /**
     * The origin's live sessions (a discovery group's: its discovered origins'), and how many of them came back
     * (returned or validated) within {@link HoldTime#stuckNanos()}. Reads each entry's times racily, as snapshots
     * do: racy but benign, a stale time makes a session look a little longer silent.
     */
    private Sessions sessions(Origin o, long now) {
        long window = holdTime.stuckNanos();
        int[] counts = new int[2];
        table.visit((state, e) -> {
            if ((e.origin == o || e.origin.parent == o)
                    && (state == SlotState.AVAILABLE || state == SlotState.HELD || state == SlotState.BORROWED)) {
                counts[0]++;
                if (now - Math.max(e.returnedAt, e.lastValidatedAt) < window) {
                    counts[1]++;
                }
            }
            return true;
        });
        return new Sessions(counts[0], counts[1]);
    }

    private record Sessions(int live, int answering) {
    }

    /** A connect succeeded: the run of connect failures ends, and so does the failure it kept; an origin that was
     * refusing new sessions accepts them again. */
    public void connected(Origin o) {
        int run = o.health.endConnectRun();
        if (threshold > 0 && run >= threshold && o.isUp()) {
            events.emit(PoolEvent.Type.ORIGIN_STATE, o.name, null, "UP, accepting new sessions again: a connect "
                    + "succeeded after " + run + " failures", System.Logger.Level.INFO);
        }
    }

    /** Whether the origin is refusing new sessions: UP, with a run of connect failures at the threshold that did
     * not take it DOWN (its sessions answer). A discovered origin shows its group's. */
    public boolean refusingNewSessions(Origin o) {
        Origin connected = o.parent != null ? o.parent : o;
        return threshold > 0 && o.isUp() && connected.health.connectFailures() >= threshold;
    }

    /**
     * A discovery group's new connection landed on a discovered origin that is not UP (drained, or marked DOWN by
     * an operator): closed, not lent; the group backs off (50 ms doubling to {@code creationBackoffMax}) and the
     * first landing of a run is reported. Not a failure of the server: it does not count toward DOWN.
     */
    public void landedOnOriginNotUp(Origin group, Origin landed, long now) {
        int n = group.health.countLandedAway();
        long backoff = backoffNanos(n);
        group.health.backOffUntil(now + backoff);
        events.emit(PoolEvent.Type.CREATION_FAILED, group.name, null, "a new connection landed on origin '"
                + landed.name + "', which is " + landed.state() + ": closed; " + n + " such landing(s) in a row, next "
                + "connect in " + TimeUnit.NANOSECONDS.toMillis(backoff) + " ms",
                n == 1 ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG);
    }

    /** A discovery group's connection landed on an UP origin: its run of landings elsewhere ends. */
    public void landedOnOriginUp(Origin group) {
        group.health.endLandedAwayRun();
    }

    /** A lent connection evicted: a connection-level error counts toward DOWN, a pooler refusal as a failed connect;
     * a write refused as read-only makes the pool suspect a failover (docs/failover.md, "Primary and standbys"). */
    public void evicted(Origin o, SQLException cause) {
        if (SqlErrors.isReadOnlyRefusal(cause)) {
            roles.suspect();
        }
        if (!SqlErrors.isFatal(cause)) {
            return;
        }
        if (SqlErrors.isPoolerRefusal(cause)) {
            refusedByPooler(o, Secrets.sanitize(cause, o.config, "the pooler refused work"), ticker.nanoTime());
            return;
        }
        SQLException sanitized = Secrets.sanitize(cause, o.config, "connection broke");
        markDownAt(o, o.health.evicted(), "connection errors in a row", sanitized, ticker.nanoTime());
    }

    /**
     * Behind DRCP, no pooled server could be attached at borrow (the connection is closed, never lent): a
     * connection-level error is a dead idle connection, handled as a failed validation (a probe, nothing counted);
     * any other error is DRCP refusing work, counted as a pooler's refusal, never as a broken session
     * (docs/oracle.md, "DRCP").
     */
    public void attachFailed(Origin o, SQLException cause) {
        if (SqlErrors.isFatal(cause)) {
            validationFailed(o);
            return;
        }
        refusedByPooler(o, Secrets.sanitize(cause, o.config, "DRCP attached no pooled server"), ticker.nanoTime());
    }

    /** A pooler closed a lent connection refusing work (e.g. {@code query_wait_timeout}): counted in the run of
     * connect failures without judging it (back-off; refusing new sessions at the threshold), never DOWN. */
    private void refusedByPooler(Origin o, SQLException sanitized, long now) {
        int failures = o.health.connectFailed(sanitized);
        o.health.backOffUntil(now + backoffNanos(failures));
        if (threshold > 0 && failures == threshold && o.isUp()) {
            events.emit(PoolEvent.Type.ORIGIN_STATE, o.name, null, "UP, refusing new sessions: the pooler refused "
                    + failures + " times in a row; last: " + sanitized.getMessage(), System.Logger.Level.WARNING);
        }
    }

    /** A connection came back healthy: the run of connection errors ends. Read first, so the return path writes
     * the shared count only right after an error. */
    public void healthyReturn(Origin o) {
        o.health.endBrokenRun();
    }

    /** A validation failed: not counted (a firewall may have killed an idle connection), but worth a probe. */
    public void validationFailed(Origin o) {
        if (o.isUp() && !o.health.probeWanted()) {
            o.health.wantProbe();
            signals.creationWanted();
        }
    }

    private void markDownAt(Origin o, int failures, String what, SQLException last, long now) {
        if (threshold > 0 && failures >= threshold && o.state() == OriginState.UP) {
            o.health.backOffAtLeastUntil(now + backoffNanos(failures));
            operations.detectedDown(o, failures + " " + what + "; last: " + last.getMessage(), now);
            signals.housekeepingDue();
        }
    }

    public long backoffNanos(int failures) {
        return PoolThreads.backoffNanos(failures, backoffMaxNanos);
    }

    /** The newest failure still current: of an origin whose connects keep failing. Null once they succeed. */
    public SQLException currentFailure() {
        SQLException newest = null;
        for (Origin o : origins.configured()) {
            SQLException f = o.health.currentFailure();
            if (f != null) {
                newest = f;
            }
        }
        return newest;
    }

    /**
     * Attempts running for silenceTimeout or longer, pool-wide: their room brings no connection soon, whether or not
     * they count as failures yet (a first connect does only after connectTimeout), so the creators plan around them.
     */
    public int unanswered(long now) {
        int n = 0;
        for (Origin o : origins.configured()) {
            for (ConnectAttempt a : o.health.attempts()) {
                if (now - a.startedAt >= silenceNanos) {
                    n++;
                }
            }
        }
        return n;
    }
}
