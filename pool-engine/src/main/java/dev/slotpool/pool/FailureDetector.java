package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.SlotState;
import dev.slotpool.jdbc.SqlErrors;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/**
 * Decides by itself when an origin is DOWN and when it answers again (docs/architecture.md, "Failure detection").
 *
 * <p>Two runs of evidence, counted apart, each marking the origin DOWN at {@code downAfterFailures}:
 * <ul>
 * <li><b>connect failures</b> in a row: failed connects and probes, and every {@code connectTimeout} an attempt
 *     goes unanswered. Only a connect that succeeds resets it; it also sets the origin's back-off, so a server
 *     that refuses new sessions while its old ones still work is tried less and less often;</li>
 * <li><b>connection errors</b> in a row: lent connections evicted for a connection-level error (SQLState class 08,
 *     vendor fatal codes). A healthy return resets it.</li>
 * </ul>
 * Nothing else counts: a holder's own abort, a failed reset at return, a failed validation (idle connections a
 * firewall killed) do not. A failed validation only asks for a probe.
 *
 * <p><b>Probes.</b> A probe is a connect and a validation on a {@link ConnectAttempt}, with room claimed like a
 * creation (S3); its connection is closed. A DOWN origin the pool marked by itself is probed on its back-off and
 * marked UP when a probe answers. An UP origin is probed when a validation failed or when it looks stuck: it has
 * connections, none available, and each has been borrowed for longer than {@link #stuckNanos()}. A probe that
 * answers says the statements are merely slow: nothing is aborted, and the next such probe waits twice as long.
 * An origin that is DOWN, stuck, or has an attempt unanswered gets at most one attempt at a time, so a silent
 * server holds no more than one pool thread and the other origins keep their creators.
 *
 * <p>When the pool marks an origin DOWN, its borrowed connections that have shown no JDBC activity for
 * {@code downGracePeriod} are aborted at once (their holders cannot finish: the server stopped answering
 * them); the others after the grace period as for any DOWN.
 */
final class FailureDetector {

    private static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Borrowed this long (or {@link #STUCK_HOLDS} mean holds, if longer) without a return looks stuck. */
    private static final long STUCK_FLOOR_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int STUCK_HOLDS = 20;

    private final ConnectionPool pool;
    private final long connectTimeoutNanos;
    private final long backoffMaxNanos;
    private final long graceNanos;
    private final int threshold;
    private final int validationSeconds;

    FailureDetector(ConnectionPool pool) {
        this.pool = pool;
        this.connectTimeoutNanos = pool.config.connectTimeout().toNanos();
        this.backoffMaxNanos = pool.config.creationBackoffMax().toNanos();
        this.graceNanos = pool.config.downGracePeriod().toNanos();
        this.threshold = pool.config.downAfterFailures();
        // A probe's validation is bounded by connectTimeout too: a probe is a connect that must answer in time.
        this.validationSeconds = (int) Math.max(1, Math.min(pool.config.validationTimeout().toSeconds(),
                pool.config.connectTimeout().toSeconds()));
    }

    long connectTimeoutNanos() {
        return connectTimeoutNanos;
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
        pool.events.emit(PoolEvent.Type.CREATION_FAILED, o.name, null, detail,
                failures == 1 ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG);
        markDownAt(o, failures, "consecutive connection failures", sanitized, now);
    }

    /** A connect succeeded: the run of connect failures ends, and so does the failure it kept. */
    void connected(Origin o) {
        if (o.connectFailures.get() != 0) {
            o.connectFailures.set(0);
        }
        o.lastFailure = null;
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
        pool.events.emit(PoolEvent.Type.CREATION_FAILED, group.name, null, "a new connection landed on origin '"
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
                pool.ticker.nanoTime());
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
            pool.creator.signal();
        }
    }

    private void markDownAt(Origin o, int failures, String what, SQLException last, long now) {
        if (threshold > 0 && failures >= threshold && o.state() == OriginState.UP) {
            long next = now + backoffNanos(failures);
            if (o.nextAttemptAt - next < 0) {
                o.nextAttemptAt = next; // never sooner than a back-off already set (a refused login's maximum)
            }
            pool.operations.detectedDown(o, failures + " " + what + "; last: " + last.getMessage(), now);
            pool.housekeeper.wake();
        }
    }

    long backoffNanos(int failures) {
        long b = FIRST_BACKOFF_NANOS << Math.min(30, Math.max(0, failures - 1));
        return Math.min(b, backoffMaxNanos);
    }

    /** The newest failure still current: of an origin whose connects keep failing. Null once they succeed. */
    SQLException currentFailure() {
        SQLException newest = null;
        for (Origin o : pool.origins.configured()) {
            SQLException f = o.lastFailure;
            if (f != null && o.connectFailures.get() > 0) {
                newest = f;
            }
        }
        return newest;
    }

    /** Attempts running for connectTimeout or longer, pool-wide: their room brings no connection soon. */
    int unanswered(long now) {
        int n = 0;
        for (Origin o : pool.origins.configured()) {
            for (ConnectAttempt a : o.attempts) {
                if (now - a.startedAt >= connectTimeoutNanos) {
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
        for (Origin o : pool.origins.configured()) {
            countUnanswered(o, now);
        }
        long stuck = stuckNanos();
        for (Origin o : pool.origins.configured()) {
            if (probeable(o) && o.isUp() && !o.probeWanted && o.attempts.isEmpty() && now - o.nextProbeAt >= 0
                    && stuckSince(o) != Long.MAX_VALUE && now - stuckSince(o) >= stuck) {
                o.probeWanted = true;
            }
        }
        startDueProbes(now);
        abortSilent(now);
    }

    private void countUnanswered(Origin o, long now) {
        for (ConnectAttempt a : o.attempts) {
            long periods = (now - a.startedAt) / connectTimeoutNanos;
            while (a.countedPeriods < periods && !a.finished()) {
                a.countedPeriods++;
                connectFailed(o, new SQLException("origin '" + o.name + "': no answer to a "
                        + (a.probe ? "probe" : "connect") + " within " + a.countedPeriods + " x connectTimeout ("
                        + TimeUnit.NANOSECONDS.toMillis(connectTimeoutNanos) + " ms)", "08001"), now);
            }
        }
    }

    /** When the origin's last borrowed connection was borrowed, if it has connections and none available;
     * otherwise Long.MAX_VALUE. */
    private long stuckSince(Origin o) {
        long[] newest = {Long.MIN_VALUE};
        boolean[] borrowed = {false};
        boolean[] available = {false};
        pool.table.visit((state, e) -> {
            if (e.origin != o) {
                return true;
            }
            if (state == SlotState.AVAILABLE) {
                available[0] = true;
                return false;
            }
            if (state == SlotState.BORROWED && e.lent()) {
                borrowed[0] = true;
                newest[0] = Math.max(newest[0], e.borrowedAt);
            }
            return true;
        });
        return available[0] || !borrowed[0] ? Long.MAX_VALUE : newest[0];
    }

    /** How long every connection of an origin must have been borrowed for it to look stuck. */
    long stuckNanos() {
        return Math.max(STUCK_FLOOR_NANOS, STUCK_HOLDS * pool.creator.meanHoldNanos());
    }

    /** Only configured origins reached directly can be probed; a discovery group's URL picks its own server. */
    private static boolean probeable(Origin o) {
        return !o.discovers();
    }

    /** Starts the probes that are due and have room. Called by creators (woken by the close that made room) and
     * the housekeeper. */
    void startDueProbes(long now) {
        for (Origin o : pool.origins.configured()) {
            if (!probeable(o) || !o.attempts.isEmpty()) {
                continue;
            }
            OriginStatus status = o.status();
            boolean down = status.state() == OriginState.DOWN && status.detected() && now - o.nextAttemptAt >= 0;
            boolean doubted = status.state() == OriginState.UP && o.probeWanted;
            if ((down || doubted) && pool.creator.claimForProbe(o)) {
                o.probeWanted = false;
                ConnectAttempt.start(pool.name, o, now, true, () -> probe(o, status), pool.creator::signal);
            }
        }
    }

    /** Runs on the probe's own thread: connect, validate, close; then UP (if still as detected) or a failure. */
    private void probe(Origin o, OriginStatus before) {
        boolean answered = false;
        SQLException failure = null;
        try (Connection c = pool.connect(o)) {
            pool.openedCount.incrementAndGet();
            pool.closedCount.incrementAndGet();
            pool.creator.setup.apply(c);
            answered = c.isValid(validationSeconds);
            if (!answered) {
                failure = new SQLException("origin '" + o.name + "': probe connection is not valid", "08006");
            }
        } catch (Throwable t) {
            failure = Secrets.sanitize(t, o.config, "probe failed");
        } finally {
            pool.creator.releaseProbe(o);
        }
        long now = pool.ticker.nanoTime();
        if (!answered) {
            connectFailed(o, failure, now);
            return;
        }
        connected(o);
        if (before.state() == OriginState.DOWN) {
            pool.operations.upIfStill(o, before, "probe succeeded");
        } else {
            // Slow statements, not a silent server: look again later, twice as late each time.
            o.probeSpacingNanos = Math.min(Math.max(2 * o.probeSpacingNanos, stuckNanos()), TimeUnit.MINUTES.toNanos(10));
            o.nextProbeAt = now + o.probeSpacingNanos;
        }
    }

    /** Aborts borrowed connections of origins the pool marked DOWN that have been silent for the grace period. */
    private void abortSilent(long now) {
        if (!pool.config.abortBorrowedOnDown()) {
            return;
        }
        pool.table.visit((state, e) -> {
            if (state == SlotState.BORROWED && e.lent() && silentOnDetectedDown(e, now)) {
                pool.reclaim(e, CloseReason.ORIGIN_NOT_UP);
            }
            return true;
        });
    }

    private boolean silentOnDetectedDown(PooledConnection e, long now) {
        OriginStatus st = e.origin.status();
        return st.state() == OriginState.DOWN && st.detected() && now - e.lastActivityAt >= graceNanos;
    }

    /**
     * The next instant (ticker time) at which {@link #check} has something to do. Only instants still ahead
     * count: what was due has been done by the check that just ran, or waits for room, whose close wakes the
     * creators (they start due probes), so the housekeeper never spins on it.
     */
    long nextDue(long now) {
        long due = now + Creator.NEVER;
        long stuck = stuckNanos();
        for (Origin o : pool.origins.configured()) {
            for (ConnectAttempt a : o.attempts) {
                due = ahead(due, a.startedAt + (a.countedPeriods + 1) * connectTimeoutNanos, now);
            }
            if (!probeable(o) || !o.attempts.isEmpty()) {
                continue;
            }
            OriginStatus st = o.status();
            if (st.state() == OriginState.DOWN && st.detected()) {
                due = ahead(due, o.nextAttemptAt, now);
            } else if (st.state() == OriginState.UP && !o.probeWanted) {
                long since = stuckSince(o);
                if (since != Long.MAX_VALUE) {
                    due = ahead(due, Math.max(since + stuck, o.nextProbeAt), now);
                }
            }
        }
        if (pool.config.abortBorrowedOnDown()) {
            long[] abortDue = {due};
            pool.table.visit((state, e) -> {
                if (state == SlotState.BORROWED && e.lent() && e.origin.status().detected()) {
                    abortDue[0] = ahead(abortDue[0], e.lastActivityAt + graceNanos, now);
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
