package dev.slotpool.failover;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.PoolConfig;
import dev.slotpool.origins.ConnectAttempt;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.OriginStatus;
import dev.slotpool.origins.Origins;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.LentBorrows;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.table.SlotTable;

import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/**
 * Failure detection's turn on the housekeeper's timer (docs/architecture.md, "Failure detection"): unanswered
 * periods counted as failed connects by the {@link FailureDetector}, probes asked for and started by the
 * {@link Probes}, and the silent borrowed connections of origins the pool marked DOWN aborted.
 */
public final class DetectionRounds {

    private final Origins origins;
    private final SlotTable<PooledConnection> table;
    private final Closing closing;
    private final FailureDetector detector;
    private final Probes probes;
    private final boolean abortBorrowedOnDown;
    private final long connectTimeoutNanos;
    private final long graceNanos;

    DetectionRounds(PoolConfig config, Origins origins, SlotTable<PooledConnection> table, Closing closing,
                           FailureDetector detector, Probes probes) {
        this.origins = origins;
        this.table = table;
        this.closing = closing;
        this.detector = detector;
        this.probes = probes;
        this.abortBorrowedOnDown = config.abortBorrowedOnDown();
        this.connectTimeoutNanos = config.connectTimeout().toNanos();
        this.graceNanos = config.downGracePeriod().toNanos();
    }

    /**
     * Counts unanswered attempts, asks for probes of stuck origins and starts the probes due, and aborts the
     * silent connections of origins the pool marked DOWN. Runs on the housekeeper.
     */
    public void check(long now) {
        for (Origin o : origins.configured()) {
            countUnanswered(o, now);
        }
        probes.wantStuck(now);
        probes.startDue(now);
        abortSilent(now);
    }

    private void countUnanswered(Origin o, long now) {
        for (ConnectAttempt a : o.health.attempts()) {
            long periods = (now - a.startedAt) / a.unansweredAfterNanos;
            while (a.countedPeriods < periods && !a.finished()) {
                a.countedPeriods++;
                detector.connectFailed(o, new SQLException("origin '" + o.name + "': no answer to a "
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
        LentBorrows.visit(table, (e, stamp) -> {
            if (silentOnDetectedDown(e, stamp, now)) {
                closing.reclaim(e, stamp, CloseReason.ORIGIN_NOT_UP);
            }
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
    public long nextDue(long now) {
        long due = now + OriginStatus.NEVER;
        long stuck = probes.stuckNanos();
        for (Origin o : origins.configured()) {
            for (ConnectAttempt a : o.health.attempts()) {
                due = ahead(due, a.startedAt + (a.countedPeriods + 1) * a.unansweredAfterNanos, now);
            }
            if (!Probes.probeable(o) || !o.health.attempts().isEmpty()) {
                continue;
            }
            OriginStatus st = o.status();
            if (st.state() == OriginState.DOWN && st.detected()) {
                due = ahead(due, o.health.nextAttemptAt(), now);
            } else if (st.state() == OriginState.UP && !o.health.probeWanted()) {
                long since = probes.stuckSince(o);
                if (since != Long.MAX_VALUE) {
                    due = ahead(due, Math.max(since + stuck, Math.max(o.health.nextProbeAt(), o.health.nextAttemptAt())),
                            now);
                }
            }
        }
        if (abortBorrowedOnDown) {
            long[] abortDue = {due};
            LentBorrows.visit(table, (e, stamp) -> {
                if (e.origin.status().detected()) {
                    abortDue[0] = ahead(abortDue[0], e.lastActivity(stamp, now) + graceNanos, now);
                }
            });
            due = abortDue[0];
        }
        return due;
    }

    private static long ahead(long due, long at, long now) {
        return at - now > 0 ? Math.min(due, at) : due;
    }
}
