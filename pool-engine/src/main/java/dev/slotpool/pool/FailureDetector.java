package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.SlotState;
import dev.slotpool.Ticker;
import dev.slotpool.jdbc.SqlErrors;
import dev.slotpool.table.SlotTable;

import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

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
final class FailureDetector {

    private static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Ticker ticker;
    private final Origins origins;
    private final SlotTable<PooledConnection> table;
    private final Closing closing;
    private final OriginOperations operations;
    private final Events events;
    private final Probes probes;
    private final Runnable wakeCreators;
    private final Runnable wakeHousekeeper;
    private final boolean abortBorrowedOnDown;
    private final long connectTimeoutNanos;
    private final long silenceNanos;
    private final long backoffMaxNanos;
    private final long graceNanos;
    private final int threshold;

    FailureDetector(PoolConfig config, Origins origins, SlotTable<PooledConnection> table, Capacity capacity,
                    Closing closing, OriginOperations operations, Events events, Connector connector,
                    SessionSetup setup, LongSupplier meanHoldNanos, Runnable wakeCreators, Runnable wakeHousekeeper,
                    BooleanSupplier shutdown) {
        this.ticker = config.ticker();
        this.origins = origins;
        this.table = table;
        this.closing = closing;
        this.operations = operations;
        this.events = events;
        this.wakeCreators = wakeCreators;
        this.wakeHousekeeper = wakeHousekeeper;
        this.abortBorrowedOnDown = config.abortBorrowedOnDown();
        this.connectTimeoutNanos = config.connectTimeout().toNanos();
        this.silenceNanos = config.silenceTimeout().toNanos();
        this.backoffMaxNanos = config.creationBackoffMax().toNanos();
        this.graceNanos = config.downGracePeriod().toNanos();
        this.threshold = config.downAfterFailures();
        this.probes = new Probes(config, origins, table, capacity, closing, operations, connector, setup,
                meanHoldNanos, wakeCreators, shutdown, new ProbeOutcomes(), this::unansweredAfterNanos);
    }

    /** A probe's outcome counts like a connect's; one that answers brings back an origin the pool marked DOWN. */
    private final class ProbeOutcomes implements Probes.Outcomes {
        @Override
        public void answered(Origin o, OriginStatus before, long now) {
            connected(o);
            if (before.state() == OriginState.DOWN) {
                operations.upIfStill(o, before, "probe succeeded");
            }
        }

        @Override
        public void failed(Origin o, SQLException sanitized, long now) {
            connectFailed(o, sanitized, now);
        }
    }

    /** silenceTimeout: a connect under way longer than this brings no connection soon (creators plan around it). */
    long silenceNanos() {
        return silenceNanos;
    }

    /**
     * How long an attempt starting now may go unanswered before it counts as a failed connect: silenceTimeout once
     * the origin has answered before, connectTimeout until then (a first connect gets HikariCP's budget).
     */
    long unansweredAfterNanos(Origin o) {
        return o.answered ? silenceNanos : connectTimeoutNanos;
    }

    // ---- evidence ------------------------------------------------------------------------------------------

    /** A connect or probe failed: back off, keep the failure for timeout messages, maybe mark the origin DOWN. */
    void connectFailed(Origin o, SQLException sanitized, long now) {
        o.lastFailure = sanitized;
        o.createTime.reset(); // not known to answer until it connects again: one attempt at a time
        int failures = o.connectFailures.incrementAndGet();
        // A refused login fails the same way until someone changes the credentials: fast retries only add
        // failed logins (which can lock the account), so it backs off to the maximum at once.
        boolean refused = SqlErrors.isAuthenticationFailure(sanitized);
        long backoff = refused ? backoffMaxNanos : backoffNanos(failures);
        o.nextAttemptAt = now + backoff;
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
                    + TimeUnit.NANOSECONDS.toMillis(Math.max(0, o.nextAttemptAt - now)) + " ms; last: "
                    + last.getMessage(), System.Logger.Level.WARNING);
        }
    }

    /**
     * The origin's live sessions (a discovery group's: its discovered origins'), and how many of them came back
     * (returned or validated) within {@link Probes#stuckNanos()}. Reads each entry's times racily, as snapshots
     * do: racy but benign, a stale time makes a session look a little longer silent.
     */
    private Sessions sessions(Origin o, long now) {
        long window = probes.stuckNanos();
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
    void connected(Origin o) {
        if (!o.answered) {
            o.answered = true;
        }
        if (o.connectFailures.get() != 0) {
            int run = o.connectFailures.getAndSet(0);
            if (threshold > 0 && run >= threshold && o.isUp()) {
                events.emit(PoolEvent.Type.ORIGIN_STATE, o.name, null, "UP, accepting new sessions again: a connect "
                        + "succeeded after " + run + " failures", System.Logger.Level.INFO);
            }
        }
        o.lastFailure = null;
    }

    /** Whether the origin is refusing new sessions: UP, with a run of connect failures at the threshold that did
     * not take it DOWN (its sessions answer). A discovered origin shows its group's. */
    boolean refusingNewSessions(Origin o) {
        Origin connected = o.parent != null ? o.parent : o;
        return threshold > 0 && o.isUp() && connected.connectFailures.get() >= threshold;
    }

    /**
     * A discovery group's new connection landed on a discovered origin that is not UP (drained, or marked DOWN by
     * an operator): closed, not lent; the group backs off (50 ms doubling to {@code creationBackoffMax}) and the
     * first landing of a run is reported. Not a failure of the server: it does not count toward DOWN.
     */
    void landedOnOriginNotUp(Origin group, Origin landed, long now) {
        int n = group.landedAway.incrementAndGet();
        long backoff = backoffNanos(n);
        group.nextAttemptAt = now + backoff;
        events.emit(PoolEvent.Type.CREATION_FAILED, group.name, null, "a new connection landed on origin '"
                + landed.name + "', which is " + landed.state() + ": closed; " + n + " such landing(s) in a row, next "
                + "connect in " + TimeUnit.NANOSECONDS.toMillis(backoff) + " ms",
                n == 1 ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG);
    }

    /** A discovery group's connection landed on an UP origin: its run of landings elsewhere ends. */
    void landedOnOriginUp(Origin group) {
        if (group.landedAway.get() != 0) {
            group.landedAway.set(0);
        }
    }

    /** A lent connection was evicted; only a connection-level error counts toward DOWN. */
    void evicted(Origin o, SQLException cause) {
        if (!SqlErrors.isFatal(cause)) {
            return;
        }
        SQLException sanitized = Secrets.sanitize(cause, o.config, "connection broke");
        markDownAt(o, o.brokenInARow.incrementAndGet(), "connection errors in a row", sanitized,
                ticker.nanoTime());
    }

    /** A connection came back healthy: the run of connection errors ends. Read first, so the return path writes
     * the shared count only right after an error. */
    void healthyReturn(Origin o) {
        if (o.brokenInARow.get() != 0) {
            o.brokenInARow.set(0);
        }
    }

    /** A validation failed: not counted (a firewall may have killed an idle connection), but worth a probe. */
    void validationFailed(Origin o) {
        if (o.isUp() && !o.probeWanted) {
            o.probeWanted = true;
            wakeCreators.run();
        }
    }

    private void markDownAt(Origin o, int failures, String what, SQLException last, long now) {
        if (threshold > 0 && failures >= threshold && o.state() == OriginState.UP) {
            long next = now + backoffNanos(failures);
            if (o.nextAttemptAt - next < 0) {
                o.nextAttemptAt = next; // never sooner than a back-off already set (a refused login's maximum)
            }
            operations.detectedDown(o, failures + " " + what + "; last: " + last.getMessage(), now);
            wakeHousekeeper.run();
        }
    }

    long backoffNanos(int failures) {
        long b = FIRST_BACKOFF_NANOS << Math.min(30, Math.max(0, failures - 1));
        return Math.min(b, backoffMaxNanos);
    }

    /** The newest failure still current: of an origin whose connects keep failing. Null once they succeed. */
    SQLException currentFailure() {
        SQLException newest = null;
        for (Origin o : origins.configured()) {
            SQLException f = o.lastFailure;
            if (f != null && o.connectFailures.get() > 0) {
                newest = f;
            }
        }
        return newest;
    }

    /**
     * Attempts running for silenceTimeout or longer, pool-wide: their room brings no connection soon, whether or not
     * they count as failures yet (a first connect does only after connectTimeout), so the creators plan around them.
     */
    int unanswered(long now) {
        int n = 0;
        for (Origin o : origins.configured()) {
            for (ConnectAttempt a : o.attempts) {
                if (now - a.startedAt >= silenceNanos) {
                    n++;
                }
            }
        }
        return n;
    }

    // ---- the housekeeper's look ----------------------------------------------------------------------------

    /**
     * Counts unanswered attempts, asks for probes of stuck origins and starts the probes due, and aborts the
     * silent connections of origins the pool marked DOWN. Runs on the housekeeper.
     */
    void check(long now) {
        for (Origin o : origins.configured()) {
            countUnanswered(o, now);
        }
        probes.wantStuck(now);
        probes.startDue(now);
        abortSilent(now);
    }

    /** Starts the probes that are due and have room (creators call it before they plan: a close made room). */
    void startDueProbes(long now) {
        probes.startDue(now);
    }

    private void countUnanswered(Origin o, long now) {
        for (ConnectAttempt a : o.attempts) {
            long periods = (now - a.startedAt) / a.unansweredAfterNanos;
            while (a.countedPeriods < periods && !a.finished()) {
                a.countedPeriods++;
                connectFailed(o, new SQLException("origin '" + o.name + "': no answer to a "
                        + (a.probe ? "probe" : "connect") + " within " + a.countedPeriods + " x "
                        + (a.unansweredAfterNanos == connectTimeoutNanos ? "connectTimeout (" : "silenceTimeout (")
                        + TimeUnit.NANOSECONDS.toMillis(a.unansweredAfterNanos) + " ms)", "08001"), now);
            }
        }
    }

    /** Aborts borrowed connections of origins the pool marked DOWN that have been silent for the grace period. */
    private void abortSilent(long now) {
        if (!abortBorrowedOnDown) {
            return;
        }
        table.visit((state, e) -> {
            if (state != SlotState.BORROWED) {
                return true;
            }
            long stamp = e.stamp(); // the borrow judged silent: a later one of this connection is not aborted for it
            if (PooledConnection.isLent(stamp) && silentOnDetectedDown(e, stamp, now)) {
                closing.reclaim(e, stamp, CloseReason.ORIGIN_NOT_UP);
            }
            return true;
        });
    }

    private boolean silentOnDetectedDown(PooledConnection e, long stamp, long now) {
        OriginStatus st = e.origin.status();
        return st.state() == OriginState.DOWN && st.detected() && now - e.lastActivity(stamp, now) >= graceNanos;
    }

    /**
     * The next instant (ticker time) at which {@link #check} has something to do. Only instants still ahead
     * count: what was due has been done by the check that just ran, or waits for room, whose close wakes the
     * creators (they start due probes), so the housekeeper never spins on it.
     */
    long nextDue(long now) {
        long due = now + OriginStatus.NEVER;
        long stuck = probes.stuckNanos();
        for (Origin o : origins.configured()) {
            for (ConnectAttempt a : o.attempts) {
                due = ahead(due, a.startedAt + (a.countedPeriods + 1) * a.unansweredAfterNanos, now);
            }
            if (!Probes.probeable(o) || !o.attempts.isEmpty()) {
                continue;
            }
            OriginStatus st = o.status();
            if (st.state() == OriginState.DOWN && st.detected()) {
                due = ahead(due, o.nextAttemptAt, now);
            } else if (st.state() == OriginState.UP && !o.probeWanted) {
                long since = probes.stuckSince(o);
                if (since != Long.MAX_VALUE) {
                    due = ahead(due, Math.max(since + stuck, Math.max(o.nextProbeAt, o.nextAttemptAt)), now);
                }
            }
        }
        if (abortBorrowedOnDown) {
            long[] abortDue = {due};
            table.visit((state, e) -> {
                long stamp = e.stamp();
                if (state == SlotState.BORROWED && PooledConnection.isLent(stamp) && e.origin.status().detected()) {
                    abortDue[0] = ahead(abortDue[0], e.lastActivity(stamp, now) + graceNanos, now);
                }
                return true;
            });
            due = abortDue[0];
        }
        return due;
    }

    private static long ahead(long due, long at, long now) {
        return at - now > 0 ? Math.min(due, at) : due;
    }
}
