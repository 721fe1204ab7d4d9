package dev.slotpool.supply;

import dev.slotpool.PoolConfig;
import dev.slotpool.SlotState;
import dev.slotpool.Ticker;
import dev.slotpool.failover.Failover;
import dev.slotpool.failover.FailureDetector;
import dev.slotpool.failover.OriginOperations;
import dev.slotpool.failover.PacedDrains;
import dev.slotpool.failover.RoleGate;
import dev.slotpool.kernel.Events;
import dev.slotpool.kernel.Loggers;
import dev.slotpool.kernel.PoolLifecycle;
import dev.slotpool.kernel.PoolThreads;
import dev.slotpool.origins.ConnectAttempt;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.Origins;
import dev.slotpool.sessions.Connector;
import dev.slotpool.slots.Capacity;
import dev.slotpool.slots.Closer;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.HoldTime;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.table.Parking;
import dev.slotpool.table.Slot;
import dev.slotpool.table.SlotTable;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Plans connections and opens them on {@link ConnectAttempt} threads (S6: user threads never connect). Each creator
 * thread loops: start the probes due, plan one creation, open it (waiting at most silenceTimeout), or park until
 * signalled. A new connection goes to the longest starving waiter first.
 *
 * <p><b>When to create</b>: below minSize (or initialSize until first reached); or when threads wait and the
 * creations already pending do not cover them, unless creating would not help (elision, docs/architecture.md
 * "Creation"): when the waiters will be served by returns sooner than a connection can be opened (predicted drain
 * time = waiting × mean hold ÷ borrowed, below the mean creation time) and the demand is a spike, not a sustained
 * load (threads have been waiting without a break for less than a creation time). Without those estimates, only
 * one speculative creation runs at a time. A connect nobody answers counts neither toward minSize nor as pending,
 * nor does a session the pool holds for itself (a role watch's, {@link Capacity#claimSession}).
 *
 * <p><b>Where</b>: see {@link Placement}.
 */
public final class Creator {

    private final String poolName;
    private final Ticker ticker;
    private final int minSize;
    private final int initialSize;
    private final SlotTable<PooledConnection> table;
    private final Capacity capacity;
    private final PacedDrains drains;
    private final FailureDetector detector;
    private final Failover failover;
    private final PoolLifecycle lifecycle;
    private final PoolThreads poolThreads;
    private final Thread[] threads;
    private volatile boolean initialFillDone;
    /** Held by the creator deciding an early drain close ({@link #closeDrainingForWaiters}). */
    private final AtomicBoolean decidingEarlyClose = new AtomicBoolean();
    /** The pool's borrow-to-return time, for the elision rule. The connect time is the {@link Placement}'s. */
    private final HoldTime holdTime;
    private final Placement placement;
    private final Opening opening;
    private final long idleParkNanos;

    /** Builds what it opens with: where a connection goes ({@link Placement}) and how it is opened
     * ({@link Opening}, with its {@link RoleGate}). */
    public Creator(PoolConfig config, SlotTable<PooledConnection> table, Capacity capacity, Origins origins,
            Closing closing, Events events, Connector connector, PooledConnection.ReturnPath returnPath,
            Failover failover, HoldTime holdTime, PoolLifecycle lifecycle) {
        this.poolName = config.name();
        this.ticker = config.ticker();
        this.minSize = config.minSize();
        this.initialSize = config.initialSize();
        this.table = table;
        this.capacity = capacity;
        this.drains = failover.drains();
        this.detector = failover.detector();
        this.failover = failover;
        this.holdTime = holdTime;
        this.placement = new Placement(origins, capacity.maxSize(), detector.silenceNanos());
        this.opening = new Opening(config, origins, table, capacity, closing, failover.operations(), detector,
                placement, events, connector, returnPath, lifecycle, new RoleGate(failover.roles(),
                failover.operations(), capacity, connector, events, table, config.readsToStandbys(),
                config.maxReplicaLag()));
        this.lifecycle = lifecycle;
        this.poolThreads = new PoolThreads(config);
        this.threads = new Thread[config.creatorThreads()];
        this.idleParkNanos = config.housekeepingPeriod().toNanos();
    }

    public void start() {
        for (int i = 0; i < threads.length; i++) {
            Thread t = poolThreads.newThread(this::run, "creator-" + i);
            threads[i] = t;
            t.start();
        }
    }

    /** Asks the creators to look at demand again (borrowers short of a connection, closes). */
    public void signal() {
        for (Thread t : threads) {
            Parking.unpark(t);
        }
    }

    /**
     * A borrower found nothing free: wake the creators only if a connection could be created (room in the pool
     * and below an origin's cap, or a paced drain's connection to close for room), so a saturated pool, at
     * maxSize or with every origin at its cap, does not wake them on every queued borrow. Room that comes free
     * later wakes them on its own (a close, a limit raised, an origin UP again).
     */
    public void shortage() {
        if ((capacity.hasRoom() && placement.anyBelowCap()) || drains.drainsQueued()) {
            signal();
        }
    }

    /** Wakes the creators to end: the pool is closed ({@link PoolLifecycle}), which their loops read. */
    public void stop() {
        signal();
    }

    /** Waits for the creator threads until {@code deadline} (System.nanoTime), then interrupts any left: they
     * connect on attempt threads and close through the {@link Closer}, so nothing in a driver holds them. */
    public void join(long deadline) {
        for (Thread t : threads) {
            if (!PoolThreads.joinUntil(t, deadline)) {
                return;
            }
            if (t.isAlive()) {
                t.interrupt();
            }
        }
    }

    /**
     * The creator's loop. It survives anything thrown in it: the usual case is a connect or probe thread that
     * cannot start ({@code OutOfMemoryError: unable to create native thread} at a container's pids limit), whose
     * slot and room are already released where they were claimed. The creator then waits out a back-off (50 ms
     * doubling to creationBackoffMax, signals do not cut it short) and tries again; the first failure of a run is
     * logged as an error, the repeats at DEBUG.
     */
    private void run() {
        int failedInARow = 0;
        while (!lifecycle.closed()) {
            long now = ticker.nanoTime();
            try {
                // Probes first: a close that made room for one woke this thread.
                failover.startDueProbes(now);
                Origin o = plan(now);
                if (o != null) {
                    create(o);
                } else if (!lifecycle.closed()) {
                    Parking.park(this, parkNanos(now));
                }
                failedInARow = 0;
            } catch (Throwable e) {
                failedInARow++;
                long backoff = poolThreads.backoffNanos(failedInARow);
                Loggers.POOL.log(failedInARow == 1 ? System.Logger.Level.ERROR
                        : System.Logger.Level.DEBUG, "[" + poolName + "] creator failed (" + failedInARow
                        + " in a row), next try in " + TimeUnit.NANOSECONDS.toMillis(backoff) + " ms", e);
                long until = ticker.nanoTime() + backoff;
                for (long left = backoff; left > 0 && !lifecycle.closed(); left = until - ticker.nanoTime()) {
                    Parking.park(this, left);
                }
            }
        }
    }

    /** Claims room for one new connection (pool and origin counts, CAS) and returns its origin, or null. */
    private Origin plan(long now) {
        if (lifecycle.closed()) {
            return null;
        }
        while (true) {
            int occupied = capacity.occupied();
            if (occupied >= capacity.maxSize()) {
                closeDrainingForWaiters();
                return null;
            }
            int target = initialFillDone ? minSize : initialSize;
            // Room stays claimed for a connect nobody answers (S3), but it brings no connection: it counts
            // neither toward minSize nor as a creation that will serve a waiter. The pool's own sessions (a role
            // watch's) take room but serve no borrow: they do not count toward minSize either. Read after the
            // count, a session that opened or closed in between moves the comparison by one for this plan only.
            int unanswered = detector.unanswered(now);
            if (occupied - unanswered - capacity.sessions() >= target) {
                initialFillDone = true;
                int creating = capacity.creating() - unanswered;
                // Only waiters not handed a connection yet: one handed stays in waiting() until its thread runs,
                // and a creation for it would be one too many.
                boolean forWaiters = table.moreWaitingThan(creating) && !elide(table.waiting(), creating);
                if (!forWaiters && capacity.replacementsOwed() <= 0) {
                    return null;
                }
            }
            Origin o = placement.choose(now);
            if (o == null) {
                return null;
            }
            if (claim(o, occupied)) {
                return o;
            }
        }
    }

    /**
     * Claims room for one connection to {@code o}, the origin {@link Placement#choose} found UP when the plan read
     * {@code seenOccupied}. The claim stands only if {@code o} is still UP after it: a creator preempted between
     * the choice and the claim would otherwise open a connection to an origin drained or marked DOWN meanwhile,
     * even one whose drain had already ended (S7). Dekker with {@link OriginOperations#finishDrain}: the claim's
     * CAS on the origin's count comes before this read of its state, a drain's state CAS before its read of the
     * count (both volatile), so either this sees the drain or the drain sees the claim and ends only once the
     * claim is given back.
     */
    public boolean claim(Origin o, int seenOccupied) {
        if (!capacity.claim(o, seenOccupied)) {
            return false;
        }
        if (!o.isUp()) {
            opening.unclaim(o);
            return false;
        }
        // Any creation while replacements are owed is one: a retirement that dropped the pool below minSize is
        // refilled by this connection whichever rule asked for it.
        capacity.replacementSettled();
        return true;
    }

    /**
     * A full pool whose paced drain holds idle connections nobody may borrow: while more borrowers wait than
     * connections are on their way (being created, or owed for earlier early closes), close one of them now so a
     * connection can be opened on a surviving origin instead. One waiter, one early close: its replacement is owed
     * (as a rebalance step's) from the decision until a creator claims room for it, whenever the closer is done.
     */
    private void closeDrainingForWaiters() {
        // CAS: one creator decides at a time, so two that read the same counts do not both close for one waiter.
        // Nobody waits for it: a creator that loses plans again when woken, and then sees the winner's debt.
        if (!drains.drainsQueued() || !decidingEarlyClose.compareAndSet(false, true)) {
            return;
        }
        try {
            // Read in this order: a claim counts its creation before it settles a debt, and a creation hands its
            // connection to the waiter before its count drops, so nothing on its way is missed in between.
            int coming = capacity.replacementsOwed() + capacity.creating();
            if (table.moreWaitingThan(coming)) {
                capacity.oweReplacement();
                if (!drains.closeOneDraining()) {
                    capacity.replacementSettled();
                }
            }
        } finally {
            decidingEarlyClose.set(false);
        }
    }

    /** Whether returns will serve the waiters before a new connection could (see class comment). */
    private boolean elide(int waiting, int creating) {
        long hold = holdTime.meanNanos();
        long create = placement.meanConnectNanos();
        int borrowed = table.count(SlotState.BORROWED);
        if (hold > 0 && create > 0 && borrowed > 0) {
            long drain = (long) ((double) waiting * hold / borrowed);
            return drain < create && table.backlogNanos() < create;
        }
        return creating > 0;
    }

    /**
     * Opens one connection on a {@link ConnectAttempt} and waits for it at most silenceTimeout; an attempt still
     * running then finishes on its own (its connection published or closed, its claim released) while this
     * creator goes back to planning around it, and the {@link FailureDetector} counts it unanswered after its own
     * period (connectTimeout to an origin not known to answer, silenceTimeout once it has).
     */
    private void create(Origin o) {
        Slot<PooledConnection> slot = table.reserve();
        if (slot == null) {
            opening.unclaim(o);
            return;
        }
        long start = ticker.nanoTime();
        ConnectAttempt attempt = ConnectAttempt.list(o.health.attempts(), o.health.startedAttempts(), start, false,
                detector.unansweredAfterNanos(o),
                () -> opening.open(o, slot, start), this::signal);
        if (!placement.mayStart(o, attempt)) {
            // Another creator or a probe got there first: this one plans again (and waits for that attempt).
            attempt.unlist();
            table.cancel(slot);
            opening.unclaim(o);
            return;
        }
        try {
            attempt.start(poolThreads, o.name);
        } catch (Throwable e) {
            // No thread, so no attempt: the slot and the room go back, and run() backs off.
            table.cancel(slot);
            opening.unclaim(o);
            throw e;
        }
        attempt.await(detector.silenceNanos(), lifecycle::closed);
    }

    /** How long to sleep when there is nothing to create: until the next back-off ends, a connect under way
     * turns slow, a re-check while threads wait, or the housekeeping period. A signal cuts it short. */
    private long parkNanos(long now) {
        long park = idleParkNanos;
        if (table.waiting() > 0) {
            park = Math.min(park, TimeUnit.MILLISECONDS.toNanos(5));
        }
        park = Math.min(park, placement.untilChange(now));
        return Math.max(park, TimeUnit.MICROSECONDS.toNanos(100));
    }
}
