package dev.slotpool.failover;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.PoolConfig;
import dev.slotpool.SlotState;
import dev.slotpool.Ticker;
import dev.slotpool.kernel.PoolLifecycle;
import dev.slotpool.kernel.PoolThreads;
import dev.slotpool.kernel.Secrets;
import dev.slotpool.origins.ConnectAttempt;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.OriginStatus;
import dev.slotpool.origins.Origins;
import dev.slotpool.sessions.Connector;
import dev.slotpool.slots.Capacity;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.HoldTime;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.slots.Signals;
import dev.slotpool.table.SlotTable;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/**
 * Probes for the {@link FailureDetector} (docs/architecture.md, "Failure detection"): a connect and a validation
 * on a {@link ConnectAttempt}, with room claimed like a creation (S3); its connection is closed. A DOWN origin the
 * pool marked by itself is probed on its back-off; an UP origin when a validation failed or when it looks stuck
 * (connections, none available, each borrowed longer than {@link #stuckNanos()}). A probe that answers on an UP
 * origin says the statements are merely slow: the next such probe waits twice as long.
 */
final class Probes {

    /** What a probe found, for the detector to count; and how long a probe starting now may go unanswered. */
    public interface Outcomes {
        void answered(Origin o, OriginStatus before, long now);

        void failed(Origin o, SQLException sanitized, long now);

        long unansweredAfterNanos(Origin o);
    }

    private final PoolThreads threads;
    private final Ticker ticker;
    private final Origins origins;
    private final SlotTable<PooledConnection> table;
    private final Capacity capacity;
    private final Closing closing;
    private final OriginOperations operations;
    private final Connector connector;
    private final HoldTime holdTime;
    private final Signals signals;
    private final PoolLifecycle lifecycle;
    private final long validationNanos;
    /** Where what the probes find is counted ({@link ProbeOutcomes}). */
    private final Outcomes outcomes;

    Probes(PoolConfig config, Origins origins, SlotTable<PooledConnection> table, Capacity capacity, Closing closing,
           OriginOperations operations, Connector connector, HoldTime holdTime, Signals signals,
           PoolLifecycle lifecycle, Outcomes outcomes) {
        this.threads = new PoolThreads(config);
        this.ticker = config.ticker();
        this.origins = origins;
        this.table = table;
        this.capacity = capacity;
        this.closing = closing;
        this.operations = operations;
        this.connector = connector;
        this.holdTime = holdTime;
        this.signals = signals;
        this.lifecycle = lifecycle;
        this.outcomes = outcomes;
        this.validationNanos = config.validationTimeout().toNanos();
    }

    /** Only configured origins reached directly can be probed; a discovery group's URL picks its own server. */
    static boolean probeable(Origin o) {
        return !o.discovers();
    }

    /** Asks for a probe of UP origins whose connections all look stuck, on the origin's back-off: one refusing
     * new sessions is not asked again sooner than a creation would be. */
    void wantStuck(long now) {
        long stuck = stuckNanos();
        for (Origin o : origins.configured()) {
            if (probeable(o) && o.isUp() && !o.health.probeWanted() && o.health.attempts().isEmpty() && now - o.health.nextProbeAt() >= 0
                    && o.health.mayAttempt(now)
                    && stuckSince(o) != Long.MAX_VALUE && now - stuckSince(o) >= stuck) {
                o.health.wantProbe();
            }
        }
    }

    /** Starts the probes that are due and have room. Called by creators (woken by the close that made room) and
     * the housekeeper. A probe thread that cannot start throws here, its room released. */
    void startDue(long now) {
        for (Origin o : origins.configured()) {
            if (!probeable(o) || !o.health.attempts().isEmpty() || !due(o, o.status(), now)) {
                continue;
            }
            // CAS, held until the probe's attempt is unlisted: one probe at a time, however many threads find it
            // due at once (the creators and the housekeeper wake at the same nextAttemptAt). The winner looks
            // again: a probe that ended after the first look has pushed the back-off back or answered.
            if (!o.health.claimProbe()) {
                continue;
            }
            OriginStatus status = o.status();
            boolean doubted = status.state() == OriginState.UP && o.health.probeWanted();
            if (!o.health.attempts().isEmpty() || !due(o, status, now) || !claimRoom(o)) {
                o.health.releaseProbe();
                continue;
            }
            o.health.probeStarting();
            long unansweredAfter = outcomes.unansweredAfterNanos(o);
            // A probe's validation is bounded by its unanswered period too: a probe is a connect that must answer
            // in time.
            int validationSeconds = (int) Math.max(1,
                    TimeUnit.NANOSECONDS.toSeconds(Math.min(validationNanos, unansweredAfter)));
            try {
                ConnectAttempt.list(o.health.attempts(), o.health.startedAttempts(), now, true, unansweredAfter,
                        () -> probe(o, status, validationSeconds),
                        () -> probeEnded(o)).start(threads, o.name);
            } catch (Throwable e) {
                // No thread, so no probe: its room goes back and the origin stays due; the caller backs off.
                capacity.unclaim(o);
                operations.finishDrain(o);
                if (doubted) {
                    o.health.wantProbe();
                }
                o.health.releaseProbe();
                throw e;
            }
        }
    }

    /** A DOWN origin the pool marked by itself, past its back-off; or an UP one whose probe is wanted. */
    private static boolean due(Origin o, OriginStatus status, long now) {
        return status.state() == OriginState.DOWN && status.detected() && o.health.mayAttempt(now)
                || status.state() == OriginState.UP && o.health.probeWanted();
    }

    /** The probe's attempt is unlisted, its outcome counted: the origin may be probed again, and the creators
     * look again (they may now plan for it). */
    private void probeEnded(Origin o) {
        o.health.releaseProbe();
        signals.creationWanted();
    }

    /**
     * Claims room for a probe like a creation (S3). In a full pool the probe makes room gently: a borrowed
     * connection of another origin retires at its return (at most one retiring at a time), whose close wakes the
     * creators, which start due probes before they plan. An idle connection is closed for it only when nobody
     * waits: under demand a healthy connection is worth more than an early probe.
     */
    private boolean claimRoom(Origin o) {
        if (lifecycle.closed()) {
            return false;
        }
        if (capacity.claimIfRoom(o)) {
            return true;
        }
        if (!capacity.hasRoom()) {
            makeRoomFor(o);
        }
        return false;
    }

    private void makeRoomFor(Origin probed) {
        PooledConnection[] borrowed = {null};
        PooledConnection[] idle = {null};
        boolean[] onItsWay = {false};
        table.visit((state, e) -> {
            if (e.origin == probed) {
                return true;
            }
            if (state == SlotState.BORROWED && e.retireAtReturn) {
                onItsWay[0] = true; // room is already on its way
                return false;
            }
            if (state == SlotState.BORROWED && borrowed[0] == null) {
                borrowed[0] = e;
            } else if (state == SlotState.AVAILABLE && idle[0] == null) {
                idle[0] = e;
            }
            return true;
        });
        if (onItsWay[0]) {
            return;
        }
        if (borrowed[0] != null) {
            borrowed[0].retire(CloseReason.REBALANCED);
        } else if (idle[0] != null && table.waiting() == 0) {
            closing.closeIfIdle(idle[0], CloseReason.REBALANCED);
        }
    }

    /** Runs on the probe's own thread: connect, validate, close; then the outcome, its room released first. */
    private void probe(Origin o, OriginStatus before, int validationSeconds) {
        boolean answered = false;
        SQLException failure = null;
        try (Connection c = connector.connect(o)) {
            capacity.countOpenedAndClosed();
            connector.setUp(c);
            answered = c.isValid(validationSeconds);
            if (!answered) {
                failure = new SQLException("origin '" + o.name + "': probe connection is not valid", "08006");
            }
        } catch (Throwable t) {
            failure = Secrets.sanitize(t, o.config, "probe failed");
        } finally {
            capacity.unclaim(o);
            operations.finishDrain(o);
        }
        long now = ticker.nanoTime();
        if (!answered) {
            outcomes.failed(o, failure, now);
            return;
        }
        outcomes.answered(o, before, now);
        if (before.state() != OriginState.DOWN) {
            // Slow statements, not a silent server: look again later, twice as late each time.
            o.health.probeAnswered(now, stuckNanos());
        }
    }

    /** When the origin's last borrowed connection was borrowed, if it has connections and none available;
     * otherwise Long.MAX_VALUE. */
    long stuckSince(Origin o) {
        long[] newest = {Long.MIN_VALUE};
        boolean[] borrowed = {false};
        boolean[] available = {false};
        table.visit((state, e) -> {
            if (e.origin != o) {
                return true;
            }
            if (state == SlotState.AVAILABLE) {
                available[0] = true;
                return false;
            }
            if (state == SlotState.BORROWED) {
                borrowed[0] = true;
                newest[0] = Math.max(newest[0], e.borrowedAt);
            }
            return true;
        });
        return available[0] || !borrowed[0] ? Long.MAX_VALUE : newest[0];
    }

    /** How long every connection of an origin must have been borrowed for it to look stuck. */
    long stuckNanos() {
        return holdTime.stuckNanos();
    }
}
