package dev.slotpool.failover;

import dev.slotpool.OriginState;
import dev.slotpool.PoolConfig;
import dev.slotpool.PreparedSwitchover;
import dev.slotpool.ServerRole;
import dev.slotpool.Ticker;
import dev.slotpool.kernel.PoolThreads;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.OriginStatus;
import dev.slotpool.origins.WalPositions;
import dev.slotpool.sessions.Connector;
import dev.slotpool.slots.Capacity;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A planned switchover, prepared by the pool (docs/failover.md, "Planned switchover"): the primary's writes paused
 * (no new borrow takes it, so borrowers wait; its transactions finish and its connections close, as a drain's), the
 * standby found caught up with the primary's last WAL position, and the role watch told to look closely, so that it
 * puts the standby in service the moment the operator's promotion makes it primary, while the old primary stays
 * DOWN as an operator's DOWN (no probe or role reading brings it back; {@link OriginRoles} also judges it a split
 * brain once the promoted standby is seen on a higher timeline). A switchover that cannot finish (the standby does
 * not catch up in time, a session fails) resumes writes on the primary and says not to promote; one whose standby
 * is found promoted meanwhile (by someone else) has ended: the old primary stays out, as after a prepared one, and
 * the caller is told the standby was not seen caught up. Sessions to the servers are the pool's own
 * ({@link Capacity#claimSession}: room, S3, no creation), opened on a pool thread (S6); the caller waits for it.
 * One at a time; the pool's close stops it ({@link #close}, {@link #join}).
 */
public final class Switchovers {

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** How long the caller waits for the pool thread beyond the operation's own bounds (a server slow to answer). */
    private static final long CALLER_SLACK_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final Ticker ticker;
    /** The aborts at a pause's timeout run on the housekeeper: waiting a period more lets the last one land. */
    private final long housekeepingNanos;
    private final OriginOperations operations;
    private final SwitchoverPause pause;
    private final RoleWatch watch;
    private final Capacity capacity;
    private final Connector connector;
    private final PoolThreads threads;
    private final WalPositions positions;
    private final AtomicBoolean running = new AtomicBoolean();
    /** The worker of the switchover being prepared, or of the last one. */
    private volatile Thread worker;
    private volatile boolean closed;

    Switchovers(PoolConfig config, OriginOperations operations, SwitchoverPause pause, RoleWatch watch,
                Capacity capacity, Connector connector, PoolThreads threads) {
        this.ticker = config.ticker();
        this.housekeepingNanos = config.housekeepingPeriod().toNanos();
        this.operations = operations;
        this.pause = pause;
        this.watch = watch;
        this.capacity = capacity;
        this.connector = connector;
        this.threads = threads;
        this.positions = new WalPositions((int) Math.max(1, config.validationTimeout().toSeconds()));
    }

    /**
     * Prepares the switchover from primary {@code from} to standby {@code to}; {@code timeout} bounds the wait for
     * the primary's transactions (those still running then are aborted) and, again, the standby's catch-up.
     *
     * @throws IllegalArgumentException when the origins are not a primary and a standby of it (nothing changed)
     * @throws IllegalStateException    when another switchover is being prepared (nothing changed), or this one
     *                                  was abandoned (writes resumed on {@code from}) or cancelled by an operator
     */
    public PreparedSwitchover prepare(String from, String to, Duration timeout) {
        Origin primary = operations.named(from);
        Origin standby = operations.named(to);
        check(primary, standby);
        if (closed) {
            throw new IllegalStateException("the pool is closed");
        }
        if (!running.compareAndSet(false, true)) {
            throw new IllegalStateException("a switchover is being prepared already; wait for its answer");
        }
        AtomicReference<Object> answer = new AtomicReference<>();
        Thread worker;
        OriginStatus paused = null;
        try {
            long pausedAt = ticker.nanoTime();
            paused = pause.pause(primary, "switchover to '" + to + "': writes paused", timeout);
            if (paused == null) {
                throw new IllegalStateException("'" + from + "' is no longer UP (" + primary.status().reason() + ")");
            }
            OriginStatus pause = paused;
            worker = threads.newThread(() -> {
                try {
                    answer.set(run(primary, standby, pause, pausedAt, timeout));
                } catch (RuntimeException e) {
                    answer.set(e);
                } finally {
                    running.set(false);
                }
            }, "switchover");
            this.worker = worker;
            // Dekker with close(): it sets closed before join() reads the worker, this reads closed after storing it.
            if (closed) {
                throw new IllegalStateException("the pool is closed");
            }
            worker.start();
        } catch (RuntimeException | Error e) {
            if (paused != null) {
                pause.resume(primary, paused, "switchover abandoned: " + e + "; writes resumed");
            }
            running.set(false);
            throw e;
        }
        long bound = 2 * timeout.toNanos() + housekeepingNanos + CALLER_SLACK_NANOS;
        PoolThreads.joinUntil(worker, System.nanoTime() + Math.min(bound, OriginStatus.NEVER));
        Object a = answer.get();
        if (a instanceof PreparedSwitchover done) {
            return done;
        }
        if (a instanceof RuntimeException e) {
            throw e;
        }
        throw new IllegalStateException("the switchover from '" + from + "' to '" + to + "' is still being prepared"
                + " (a server is slow to answer); the event log will tell how it ends");
    }

    /** Refuses origins that are not a primary in service and a standby of its family, naming what they are. */
    private void check(Origin primary, Origin standby) {
        if (primary == standby) {
            throw new IllegalArgumentException("a switchover needs two origins: '" + primary.name + "' to itself");
        }
        for (Origin o : new Origin[] {primary, standby}) {
            if (o.parent != null || o.discovers()) {
                throw new IllegalArgumentException("'" + o.name + "' is a discovery group's: a switchover needs each"
                        + " server as an origin of its own");
            }
        }
        RoleReading p = watch.roles().reading(primary.name);
        RoleReading s = watch.roles().reading(standby.name);
        if (p == null || p.role() != ServerRole.PRIMARY || primary.state() != OriginState.UP) {
            throw new IllegalArgumentException("'" + primary.name + "' is not a primary in service (" + primary.state()
                    + ", role " + (p == null ? "not read yet" : p.detail()) + ")");
        }
        if (s == null || s.role() != ServerRole.STANDBY || s.cluster() == null || !s.cluster().equals(p.cluster())) {
            throw new IllegalArgumentException("'" + standby.name + "' is not a standby of '" + primary.name
                    + "' (role " + (s == null ? "not read yet" : s.detail() + ", system " + s.cluster()) + "; '"
                    + primary.name + "' is system " + p.cluster() + ")");
        }
    }

    /** On the pool thread: waits for the primary to empty, reads its position, waits for the standby's replay. */
    private PreparedSwitchover run(Origin primary, Origin standby, OriginStatus paused, long pausedAt,
                                   Duration timeout) {
        long drained;
        boolean aborted;
        String last;
        String why;
        try {
            while (primary.occupied.get() > 0) {
                operations.finishDrain(primary);
                long now = ticker.nanoTime();
                if (now - paused.abortBorrowedAt() - housekeepingNanos > 0) {
                    throw new SwitchoverFailed("connections of '" + primary.name + "' were still open past the "
                            + "timeout");
                }
                changedByOperator(primary, paused);
                pause();
            }
            operations.finishDrain(primary);
            drained = ticker.nanoTime();
            aborted = drained - paused.abortBorrowedAt() >= 0;
            changedByOperator(primary, paused);
            last = onSession(primary, drained + timeout.toNanos(), positions::generated);
            long deadline = ticker.nanoTime() + timeout.toNanos();
            WalPositions.Replay replay = onSession(standby, deadline, c -> {
                while (true) {
                    WalPositions.Replay r = positions.replayed(c, last);
                    if (r.reached() || r.promoted()) {
                        return r;
                    }
                    if (ticker.nanoTime() - deadline > 0) {
                        throw new SwitchoverFailed("'" + standby.name + "' did not catch up within "
                                + timeout.toMillis() + " ms (replayed " + r.position() + " of " + last + ")");
                    }
                    changedByOperator(primary, paused);
                    pause();
                }
            });
            if (replay.promoted()) {
                throw promotedMeanwhile(primary, standby, paused, last, replay);
            }
            long caughtUp = ticker.nanoTime();
            PreparedSwitchover done = new PreparedSwitchover(primary.name, standby.name, last, replay.position(),
                    TimeUnit.NANOSECONDS.toMillis(drained - pausedAt), TimeUnit.NANOSECONDS.toMillis(caughtUp - drained),
                    aborted);
            if (!pause.hold(primary, paused, "switchover to '" + standby.name + "' prepared: '"
                    + standby.name + "' caught up at " + replay.position() + "; waiting for its promotion")) {
                throw new OperatorChanged(primary);
            }
            watch.suspect();
            return done;
        } catch (OperatorChanged e) {
            throw new IllegalStateException(e.getMessage());
        } catch (SwitchoverFailed e) {
            why = e.getMessage();
        } catch (SQLException e) {
            why = (e.getSQLState() == null ? "" : e.getSQLState() + " ") + e.getMessage();
        } catch (RuntimeException e) {
            // A driver or credentials provider that throws unchecked: a failed session all the same.
            why = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        pause.resume(primary, paused, "switchover abandoned: " + why + "; writes resumed");
        throw new IllegalStateException("switchover abandoned: " + why + "; writes resumed on '" + primary.name
                + "'; do not promote '" + standby.name + "'");
    }

    /**
     * The standby was found promoted before it was seen caught up: the switchover has ended as a promotion, so the
     * old primary stays out (held as after a prepared switchover; no role reading brings it back, an operator's
     * markUp does) and the watch looks closely, to put the promoted standby in service at once.
     */
    private IllegalStateException promotedMeanwhile(Origin primary, Origin standby, OriginStatus paused,
                                                    String last, WalPositions.Replay replay) {
        boolean held = pause.hold(primary, paused, "switchover to '" + standby.name
                + "' ended: '" + standby.name + "' was promoted meanwhile; takes no writes until an operator marks it"
                + " up");
        watch.suspect();
        if (!held) {
            return new IllegalStateException(new OperatorChanged(primary).getMessage());
        }
        return new IllegalStateException("switchover ended: '" + standby.name + "' was promoted meanwhile, before it"
                + " was seen caught up with '" + primary.name + "' at " + last + " (it had replayed "
                + replay.position() + "); '" + primary.name + "' stays out of service until an operator marks it up");
    }

    /** Waits one poll period; the pool's close ends the switchover (writes resumed, as for a failure). */
    private void pause() {
        LockSupport.parkNanos(this, POLL_NANOS);
        if (closed) {
            throw new SwitchoverFailed("the pool is closing");
        }
    }

    /** Stops the switchover being prepared (see {@link #pause}): the pool is closing. */
    public void close() {
        closed = true;
        Thread w = worker;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /** After {@link #close}: waits for the worker until {@code deadline} (System.nanoTime), then interrupts it if
     * it is still in a driver call; it then ends on its own. */
    public void join(long deadline) {
        Thread w = worker;
        if (w == null) {
            return;
        }
        // A worker being started (NEW) is waited for too: it sees the pool closed at its first pause.
        while (w.getState() == Thread.State.NEW && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(this, POLL_NANOS);
        }
        if (PoolThreads.joinUntil(w, deadline) && w.isAlive()) {
            w.interrupt();
        }
    }

    /** Stops the switchover when an operator changed the paused origin (markUp, markDown) meanwhile. */
    private static void changedByOperator(Origin o, OriginStatus paused) {
        OriginStatus st = o.status();
        if (st != paused && !(st.state() == OriginState.DOWN && !st.detected()
                && st.abortBorrowedAt() == paused.abortBorrowedAt())) {
            throw new OperatorChanged(o);
        }
    }

    private interface SessionWork<T> {
        T on(Connection c) throws SQLException;
    }

    /** Opens a session to the origin's server (the pool's own, S3; waiting for room until
     * {@code deadline}), runs the work on it, and closes it. */
    private <T> T onSession(Origin o, long deadline, SessionWork<T> work) throws SQLException {
        while (!capacity.claimSession(o)) {
            if (ticker.nanoTime() - deadline > 0) {
                throw new SwitchoverFailed("no room in the pool for a session to '" + o.name + "'");
            }
            pause();
        }
        try (Connection c = connector.connect(o)) {
            connector.setUp(c);
            positions.requirePostgresql(c);
            return work.on(c);
        } finally {
            capacity.releaseSession(o);
        }
    }

    /** Why a switchover is abandoned (writes resumed). */
    private static final class SwitchoverFailed extends RuntimeException {
        SwitchoverFailed(String message) {
            super(message, null, false, false);
        }
    }

    /** An operator changed the paused origin: their decision stands, nothing is resumed. */
    private static final class OperatorChanged extends RuntimeException {
        OperatorChanged(Origin o) {
            super("switchover cancelled: '" + o.name + "' was changed by an operator meanwhile ("
                    + o.state() + ": " + o.status().reason() + ")", null, false, false);
        }
    }
}
