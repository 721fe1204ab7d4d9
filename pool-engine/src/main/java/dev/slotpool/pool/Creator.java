package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.SlotState;
import dev.slotpool.jdbc.ConnectionDefaults;
import dev.slotpool.table.Parking;
import dev.slotpool.table.Slot;

import java.sql.Connection;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Plans connections and opens them on {@link ConnectAttempt} threads (S6: user threads never connect). Each creator
 * thread loops: start the probes due, plan one creation, open it (waiting at most connectTimeout), or park until
 * signalled. A new connection goes to the longest starving waiter first.
 *
 * <p><b>When to create</b>: below minSize (or initialSize until first reached); or when threads wait and the
 * creations already pending do not cover them, unless creating would not help (elision, docs/architecture.md
 * "Creation"): when the waiters will be served by returns sooner than a connection can be opened (predicted drain
 * time = waiting × mean hold ÷ borrowed, below the mean creation time) and the demand is a spike, not a sustained
 * load (threads have been waiting without a break for less than a creation time). Without those estimates, only
 * one speculative creation runs at a time. A connect nobody answers counts neither toward minSize nor as pending.
 *
 * <p><b>Where</b>: the UP origin with room whose live count is lowest relative to its weight, skipping origins
 * the {@link FailureDetector} doubts or backs off, and one connect at a time to an origin not known to answer.
 */
final class Creator {

    /** Before any connect succeeded, one running this long is slow. */
    private static final long COLD_SLOW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Far enough to mean "never" yet safe to add to any nanoTime without overflow. */
    static final long NEVER = Long.MAX_VALUE / 4;

    private final ConnectionPool pool;
    private final Thread[] threads;
    private volatile boolean stopped;
    private volatile boolean initialFillDone;
    /** Exponentially weighted means, written racily by many threads: racy but benign (a lost sample). */
    /** The pool's borrow-to-return and connect times, for the elision rule. */
    private final MovingMean holdTime = new MovingMean();
    private final MovingMean createTime = new MovingMean();
    private final long maxLifetimeNanos;
    private final long idleParkNanos;
    /** Prepares new connections and probes' connections alike: a probe answers only if a creation could. */
    final SessionSetup setup;

    Creator(ConnectionPool pool) {
        this.pool = pool;
        this.threads = new Thread[pool.config.creatorThreads()];
        long lifetime = pool.config.maxLifetime().toNanos();
        this.maxLifetimeNanos = lifetime == 0 ? NEVER : lifetime;
        this.idleParkNanos = pool.config.housekeepingPeriod().toNanos();
        this.setup = new SessionSetup(pool.config);
    }

    void start() {
        for (int i = 0; i < threads.length; i++) {
            Thread t = new Thread(this::run, "slotpool-" + pool.name + "-creator-" + i);
            t.setDaemon(true);
            threads[i] = t;
            t.start();
        }
    }

    /** Asks the creators to look at demand again (borrowers short of a connection, closes). */
    void signal() {
        for (Thread t : threads) {
            Parking.unpark(t);
        }
    }

    /**
     * A borrower found nothing free: wake the creators only if a connection could be created (room, or a paced
     * drain's connection to close for room), so a saturated pool at maxSize does not wake them on every queued
     * borrow.
     */
    void shortage() {
        if (pool.occupied.get() < pool.config.maxSize() || pool.drains.drainsQueued()) {
            signal();
        }
    }

    void stop() {
        stopped = true;
        signal();
    }

    /** Waits for the creator threads until {@code deadline} (System.nanoTime), then interrupts any left: they
     * connect on attempt threads and close through the {@link Closer}, so nothing in a driver holds them. */
    void join(long deadline) {
        for (Thread t : threads) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (t.isAlive()) {
                t.interrupt();
            }
        }
    }

    /** The pool's mean borrow-to-return time (0 before the first sample). */
    long meanHoldNanos() {
        return holdTime.nanos();
    }

    void sampleHold(long nanos) {
        holdTime.sample(nanos);
    }

    private void run() {
        while (!stopped) {
            long now = pool.ticker.nanoTime();
            // Probes first: a close that made room for one woke this thread.
            pool.detector.startDueProbes(now);
            Origin o = plan(now);
            if (o != null) {
                create(o);
            } else if (!stopped) {
                Parking.park(this, parkNanos(now));
            }
        }
    }

    /** Claims room for one new connection (pool and origin counts, CAS) and returns its origin, or null. */
    private Origin plan(long now) {
        if (pool.isShutdown()) {
            return null;
        }
        while (true) {
            int occupied = pool.occupied.get();
            if (occupied >= pool.config.maxSize()) {
                // A paced drain holds idle connections nobody may borrow; under demand, close one now so a
                // connection can be opened on a surviving origin instead.
                if (pool.table.waiting() > pool.creating.get() && pool.drains.closeOneDraining()) {
                    continue;
                }
                return null;
            }
            int target = initialFillDone ? pool.config.minSize() : pool.config.initialSize();
            // Room stays claimed for a connect nobody answers (S3), but it brings no connection: it counts
            // neither toward minSize nor as a creation that will serve a waiter.
            int unanswered = pool.detector.unanswered(now);
            if (occupied - unanswered >= target) {
                initialFillDone = true;
                int creating = pool.creating.get() - unanswered;
                int waiting = pool.table.waiting();
                boolean forWaiters = waiting > creating && !elide(waiting, creating);
                if (!forWaiters && pool.replacements.get() <= 0) {
                    return null;
                }
            }
            Origin o = chooseOrigin(now);
            if (o == null) {
                return null;
            }
            if (claim(o, occupied)) {
                // Any creation while replacements are owed is one: a retirement that dropped the pool below
                // minSize is refilled by this connection whichever rule asked for it.
                if (pool.replacements.get() > 0) {
                    pool.replacements.updateAndGet(r -> Math.max(0, r - 1));
                }
                return o;
            }
        }
    }

    /**
     * Claims room for one connection being opened: the origin's cap by CAS first, then the pool's room from
     * {@code occupied} (S3; two creators that chose the same origin at its last free place cannot both pass its
     * cap), and counts it as being created. False if either moved meanwhile.
     */
    private boolean claim(Origin o, int occupied) {
        if (!o.tryClaim(pool.config.maxSize())) {
            return false;
        }
        if (!pool.occupied.compareAndSet(occupied, occupied + 1)) {
            o.occupied.decrementAndGet();
            return false;
        }
        o.creating.incrementAndGet();
        pool.creating.incrementAndGet();
        return true;
    }

    /** Undoes a claim whose attempt opened nothing that stays. */
    private void unclaim(Origin o) {
        doneCreating(o);
        releaseRoom(o);
        pool.operations.finishDrain(o);
    }

    /**
     * Claims room for a probe like a creation (S3). In a full pool the probe makes room gently: a borrowed
     * connection of another origin retires at its return (at most one retiring at a time), whose close wakes the
     * creators, which start due probes before they plan. An idle connection is closed for it only when nobody
     * waits: under demand a healthy connection is worth more than an early probe.
     */
    boolean claimForProbe(Origin o) {
        if (pool.isShutdown()) {
            return false;
        }
        int occupied = pool.occupied.get();
        if (occupied < pool.config.maxSize()) {
            return claim(o, occupied);
        }
        makeRoomFor(o);
        return false;
    }

    void releaseProbe(Origin o) {
        unclaim(o);
    }

    private void makeRoomFor(Origin probed) {
        PooledConnection[] borrowed = {null};
        PooledConnection[] idle = {null};
        boolean[] onItsWay = {false};
        pool.table.visit((state, e) -> {
            if (e.origin == probed) {
                return true;
            }
            if (state == SlotState.BORROWED && e.retireAtReturn) {
                onItsWay[0] = true; // room is already on its way
                return false;
            }
            if (state == SlotState.BORROWED && borrowed[0] == null && e.lent()) {
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
        } else if (idle[0] != null && pool.table.waiting() == 0) {
            pool.closeIfIdle(idle[0], CloseReason.REBALANCED);
        }
    }

    /**
     * Whether a new connect to this origin may start now. An origin whose probe is wanted or running, or whose
     * connect under way runs slow (past 4 × the pool's mean connect time, or 100 ms before there is one), is
     * skipped: the creators go to the other origins, and a silent origin holds at most one pool thread. An
     * origin not known to answer (no connect since its last failure) with a connect under way is waited for, one
     * attempt at a time: placement by weight stays exact during a fill. One known to answer takes connects side by
     * side.
     */
    private Attempt attempt(Origin o, long now) {
        if (o.probeWanted) {
            return Attempt.SKIP;
        }
        Attempt verdict = Attempt.ACCEPT;
        for (ConnectAttempt a : o.attempts) {
            if (a.probe || now - a.startedAt >= slowNanos()) {
                return Attempt.SKIP;
            }
            if (o.createTime.nanos() == 0) {
                verdict = Attempt.WAIT;
            }
        }
        return verdict;
    }

    /** A connect running longer than this is slow (see {@link #attempt}); at most connectTimeout. */
    private long slowNanos() {
        long mean = createTime.nanos();
        long slow = mean > 0 ? 4 * mean : COLD_SLOW_NANOS;
        return Math.min(slow, pool.detector.connectTimeoutNanos());
    }

    /** Whether returns will serve the waiters before a new connection could (see class comment). */
    private boolean elide(int waiting, int creating) {
        long hold = holdTime.nanos();
        long create = createTime.nanos();
        int borrowed = pool.table.count(SlotState.BORROWED);
        if (hold > 0 && create > 0 && borrowed > 0) {
            long drain = (long) ((double) waiting * hold / borrowed);
            return drain < create && pool.table.backlogNanos() < create;
        }
        return creating > 0;
    }


    /** The UP origin with room whose occupancy is lowest relative to its weight (ties: first listed). */
    private Origin chooseOrigin(long now) {
        Origin best = null;
        for (Origin o : pool.origins.configured()) {
            if (o.state() != OriginState.UP || o.weight <= 0 || !o.hasRoom(pool.config.maxSize(), now)
                    || attempt(o, now) == Attempt.SKIP) {
                continue;
            }
            if (best == null || (long) o.occupied.get() * best.weight < (long) best.occupied.get() * o.weight) {
                best = o;
            }
        }
        // The connection belongs there; its origin's connect under way will tell soon (it wakes this thread).
        return best == null || attempt(best, now) == Attempt.WAIT ? null : best;
    }

    private enum Attempt { ACCEPT, WAIT, SKIP }

    /**
     * Opens one connection on a {@link ConnectAttempt} and waits for it at most connectTimeout; an attempt still
     * running then finishes on its own (its connection published or closed, its claim released) while this
     * creator goes back to planning, and the {@link FailureDetector} counts it unanswered.
     */
    private void create(Origin o) {
        Slot<PooledConnection> slot = pool.table.reserve();
        if (slot == null) {
            unclaim(o);
            return;
        }
        long start = pool.ticker.nanoTime();
        ConnectAttempt.start(pool.name, o, start, false, () -> open(o, slot, start), this::signal)
                .await(pool.detector.connectTimeoutNanos(), () -> stopped);
    }

    /** Runs on the attempt's thread: connect, then publish, or close what cannot be lent. Survives anything a
     * driver throws ({@code Error}s included) and releases what was claimed for it. */
    private void open(Origin o, Slot<PooledConnection> slot, long start) {
        Connection c = null;
        try {
            c = pool.connect(o);
            setup.apply(c);
            Origin landed = o.discovers() ? pool.origins.landed(o, c) : o;
            ConnectionDefaults defaults = ConnectionDefaults.readFrom(c);
            long now = pool.ticker.nanoTime();
            createTime.sample(now - start);
            o.createTime.sample(now - start);
            pool.openedCount.incrementAndGet();
            pool.detector.connected(o);
            if (landed != o) {
                // The group's count (o.occupied) already holds this connection; its origin counts it from now.
                landed.occupied.incrementAndGet();
            }
            PooledConnection e = new PooledConnection(pool, landed, slot, c, defaults, now, now + lifetime());
            if (landed != o) {
                pool.operations.landedOnDetectedDown(landed);
            }
            if (!o.isUp() || !landed.isUp() || landed.forgotten || pool.isShutdown()) {
                // The origin was drained or the pool closed while we were connecting, or the URL landed on a
                // discovered origin that is not UP: do not lend it (S7). Landings on a drained server back the
                // group off, so a group whose URL keeps choosing it does not spin.
                if (landed != o && o.isUp() && !pool.isShutdown()) {
                    pool.detector.landedOnOriginNotUp(o, landed, now);
                }
                pool.table.publishOwned(slot, e);
                doneCreating(o);
                pool.closeOwned(e, CloseReason.ORIGIN_NOT_UP, false);
                return;
            }
            if (landed != o) {
                pool.detector.landedOnOriginUp(o);
            }
            // Published before the creating counts drop, so a snapshot never misses the connection in between.
            pool.table.publish(slot, e);
            doneCreating(o);
            pool.events.emit(PoolEvent.Type.CREATED, landed.name, null, null);
            if (pool.isShutdown()) {
                // close() may have swept the table before this publish (it sets the flag, then sweeps; this
                // publishes, then reads the flag: one of the two sees the other).
                pool.closeIfIdle(e, CloseReason.POOL_CLOSED);
            }
        } catch (Throwable ex) {
            if (c != null) {
                closeQuietly(c);
                pool.openedCount.incrementAndGet();
                pool.closedCount.incrementAndGet();
            }
            pool.table.cancel(slot);
            unclaim(o);
            pool.detector.connectFailed(o, Secrets.sanitize(ex, o.config, "could not connect"), pool.ticker.nanoTime());
        }
    }

    private void doneCreating(Origin o) {
        o.creating.decrementAndGet();
        pool.creating.decrementAndGet();
    }

    /** Undoes a claim made by {@link #plan}. */
    private void releaseRoom(Origin o) {
        o.occupied.decrementAndGet();
        pool.occupied.decrementAndGet();
    }

    /** maxLifetime minus up to 2.5 % so connections made together do not all retire together. */
    private long lifetime() {
        if (maxLifetimeNanos == NEVER) {
            return NEVER;
        }
        return maxLifetimeNanos - ThreadLocalRandom.current().nextLong(maxLifetimeNanos / 40 + 1);
    }

    /** How long to sleep when there is nothing to create: until the next back-off ends, a connect under way
     * turns slow, a re-check while threads wait, or the housekeeping period. A signal cuts it short. */
    private long parkNanos(long now) {
        long park = idleParkNanos;
        if (pool.table.waiting() > 0) {
            park = Math.min(park, TimeUnit.MILLISECONDS.toNanos(5));
        }
        long slow = slowNanos();
        for (Origin o : pool.origins.configured()) {
            long until = o.nextAttemptAt - now;
            if (until > 0 && (o.isUp() || o.status().detected())) {
                park = Math.min(park, until);
            }
            for (ConnectAttempt a : o.attempts) {
                // A connect waited for may turn slow: look again then (its end wakes this thread sooner).
                long slowIn = a.startedAt + slow - now;
                if (slowIn > 0) {
                    park = Math.min(park, slowIn);
                }
            }
        }
        return Math.max(park, TimeUnit.MICROSECONDS.toNanos(100));
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (Throwable ignored) {
            // Closing a connection we are giving up on; nothing else to do.
        }
    }
}
