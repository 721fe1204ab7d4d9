package dev.slotpool.pool.origin;

import dev.slotpool.Balancing;
import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.SlotState;
import dev.slotpool.Ticker;
import dev.slotpool.pool.ground.Closing;
import dev.slotpool.pool.ground.Events;
import dev.slotpool.pool.ground.Origin;
import dev.slotpool.pool.ground.OriginStatus;
import dev.slotpool.pool.ground.PooledConnection;
import dev.slotpool.table.SlotTable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An origin's state changes (docs/failover.md): the operator's drain, mark down, mark up and rebalance, and the
 * changes the pool makes itself (detected DOWN, UP after a probe, drained, suspended). Selectors are resolved by
 * {@link OriginSelector}, paced closes by {@link PacedDrains}, rebalance steps by {@link Rebalancer}. S7 is kept by
 * the order of each operation: the origin's state is stored
 * (volatile) before any slot is visited, and every borrower re-reads the state after winning a slot, so no
 * borrow that starts after the call returns is lent a connection of a DRAINING or DOWN origin.
 */
public final class OriginOperations {

    /** The reason of a drained origin's DOWN. */
    private static final String DRAINED = "drained";

    private final Ticker ticker;
    private final boolean latency;
    private final long downAbortDelayNanos;
    /** A discovered origin with no connection this long is forgotten: inactiveTimeout, or 10 min when that is off. */
    private final long forgetNanos;
    private final Origins origins;
    private final SlotTable<PooledConnection> table;
    private final Closing closing;
    private final PacedDrains drains;
    private final AbortDeadlines deadlines;
    private final Events events;
    private final Runnable wakeCreators;
    private final Runnable wakeHousekeeper;
    private final OriginSelector originSelector;
    private final Rebalancer rebalancer;
    private final RoleWatch roles;

    public OriginOperations(PoolConfig config, Origins origins, SlotTable<PooledConnection> table, Closing closing,
                            PacedDrains drains, AbortDeadlines deadlines, Rebalancer rebalancer, Events events,
                            Runnable wakeCreators, Runnable wakeHousekeeper, RoleWatch roles) {
        this.ticker = config.ticker();
        this.latency = config.balancing() == Balancing.LATENCY;
        this.downAbortDelayNanos = config.abortBorrowedOnDown() ? config.downGracePeriod().toNanos()
                : OriginStatus.NEVER;
        long inactiveNanos = config.inactiveTimeout().toNanos();
        this.forgetNanos = inactiveNanos > 0 ? inactiveNanos : TimeUnit.MINUTES.toNanos(10);
        this.origins = origins;
        this.table = table;
        this.closing = closing;
        this.drains = drains;
        this.deadlines = deadlines;
        this.events = events;
        this.wakeCreators = wakeCreators;
        this.wakeHousekeeper = wakeHousekeeper;
        this.originSelector = new OriginSelector(origins::lending, origins::find);
        this.rebalancer = rebalancer;
        this.roles = roles;
    }

    /**
     * Planned drain of the origins the selector names (see {@link #select}): no new borrows; idle connections
     * closed one by one spread over the timeout (close k of n at k ÷ (n + 1) of it), or sooner when borrowers
     * wait and the pool is full; borrowed ones closed at return; those still out at the timeout aborted. Each
     * origin turns DOWN once empty. Idempotent: an origin that is not UP is left as it is.
     */
    public void drain(String selector, Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("drain timeout must be ≥ 0 (was " + timeout + ")");
        }
        for (Origin o : originSelector.resolve(selector)) {
            long now = ticker.nanoTime();
            OriginStatus st = o.status();
            OriginStatus draining = new OriginStatus(OriginState.DRAINING,
                    "drain requested (timeout " + timeout.toMillis() + " ms)", false, now + timeout.toNanos());
            if (st.state() != OriginState.UP) {
                continue;
            }
            if (timeout.isZero()) {
                if (change(o, st, draining)) {
                    sweep(o);
                }
                continue;
            }
            // The paced drain is published before the status names it, so an idle connection met by anyone who
            // sees DRAINING joins it instead of closing at once. Only the call whose CAS moves the origin out of UP
            // drains it: a concurrent drain finds it DRAINING.
            drains.prepare(o, draining, now, timeout.toNanos());
            if (!change(o, st, draining)) {
                drains.withdraw(draining);
                continue;
            }
            drains.queueIdle(o, draining);
        }
        wakeHousekeeper.run();
    }

    /** Unplanned DOWN by an operator: idle connections closed now, borrowed ones aborted after the grace period
     * (or closed at return, see {@code abortBorrowedOnDown}). It stays DOWN until {@link #markUp}. Idempotent. */
    public void markDown(String selector) {
        for (Origin o : originSelector.resolve(selector)) {
            OriginStatus st = o.status();
            OriginStatus down = new OriginStatus(OriginState.DOWN, "marked down", false,
                    ticker.nanoTime() + downAbortDelayNanos);
            while (!(st.state() == OriginState.DOWN && !st.detected()) && !change(o, st, down)) {
                st = o.status();
            }
            sweep(o);
        }
        wakeHousekeeper.run();
    }

    /** UP again: the origins receive connections again, up to their share, a rebalance step at a time; a split
     * brain is accepted, a standby taken out again ({@link RoleWatch#accepted}). Idempotent. */
    public void markUp(String selector) {
        for (Origin o : originSelector.resolve(selector)) {
            up(o, "marked up");
            roles.accepted(o.name);
        }
    }

    /** The origin with this name (no selector: an operation on one server); {@link IllegalArgumentException}
     * naming the known origins when there is none. */
    public Origin named(String name) {
        return originSelector.require(name);
    }

    /**
     * Pauses a primary's writes for a planned switchover ({@link Switchovers}): DRAINING with {@code reason}, so no
     * borrow takes it (borrowers wait while no other origin takes writes), its idle connections closed now, its
     * borrowed ones at return, those still out at {@code timeout} aborted; DOWN ("drained") once empty, as a drain.
     * Returns the status set, or null when the origin was not UP.
     */
    OriginStatus pauseForSwitchover(Origin o, String reason, Duration timeout) {
        OriginStatus st = o.status();
        OriginStatus paused = new OriginStatus(OriginState.DRAINING, reason, false,
                ticker.nanoTime() + timeout.toNanos());
        if (st.state() != OriginState.UP || !change(o, st, paused)) {
            return null;
        }
        sweep(o);
        wakeHousekeeper.run();
        return paused;
    }

    /** The paused origin holds its state with {@code reason} (DOWN, not detected): the switchover is prepared. False
     * when an operator changed it since the pause. */
    boolean holdAfterSwitchover(Origin o, OriginStatus paused, String reason) {
        OriginStatus st = o.status();
        return fromPause(st, paused) && change(o, st, new OriginStatus(OriginState.DOWN, reason, false,
                paused.abortBorrowedAt()));
    }

    /** Writes resume on the paused origin (a switchover abandoned), unless an operator changed it since. */
    void resumeAfterSwitchover(Origin o, OriginStatus paused, String reason) {
        OriginStatus st = o.status();
        if (fromPause(st, paused)) {
            upIfStill(o, st, reason);
        }
    }

    /** The pause itself, or the DOWN its drain turned into once empty ({@link #finishDrain} keeps the deadline). */
    private static boolean fromPause(OriginStatus st, OriginStatus paused) {
        return st == paused || st.state() == OriginState.DOWN && !st.detected() && DRAINED.equals(st.reason())
                && st.abortBorrowedAt() == paused.abortBorrowedAt();
    }

    /**
     * The names of the origins a selector names: an origin's name (a configured origin with a discovery query
     * names itself and every origin it discovered), or dimension matches {@code key=value[,key=value...]} over
     * {@code name, service, database, instance, host} (every pair must match, case-insensitively), e.g.
     * {@code host=db3}. Throws {@link IllegalArgumentException} when nothing matches or a key is unknown.
     */
    public List<String> select(String selector) {
        List<String> names = new ArrayList<>();
        for (Origin o : originSelector.resolve(selector)) {
            names.add(o.name);
        }
        return names;
    }

    // ---- called by pool threads --------------------------------------------------------------------------

    /** The pool found the origin dead ({@link FailureDetector}): DOWN unless it is no longer UP. */
    void detectedDown(Origin o, String reason, long now) {
        OriginStatus st = o.status();
        if (st.state() == OriginState.UP
                && change(o, st, new OriginStatus(OriginState.DOWN, reason, true, now + downAbortDelayNanos))) {
            sweep(o);
            roles.suspect();
        }
    }

    /** DOWN for its role ({@link RoleWatch}): from UP, a DOWN the pool detected, or the role's own earlier status
     * ({@code previous}); not detected, so only the watch brings it back. Returns the status set, or null. */
    public OriginStatus outForRole(Origin o, String reason, OriginStatus previous) {
        for (OriginStatus st = o.status(); st.state() == OriginState.UP || st.detected() || st == previous;
                st = o.status()) {
            OriginStatus down = new OriginStatus(OriginState.DOWN, reason, false,
                    ticker.nanoTime() + downAbortDelayNanos);
            if (change(o, st, down)) {
                sweep(o);
                return down;
            }
        }
        return null;
    }

    /** Housekeeping: forget discovered origins long empty and split group weights, finish drains, follow latency
     * (in that mode), and move one step toward the target shares. */
    public void housekeep(long now) {
        origins.forgetEmpty(now, forgetNanos);
        origins.splitGroupWeights();
        dueWork(now);
        if (latency) {
            rebalancer.followLatency();
        }
        rebalancer.step(now);
    }

    /** A discovered origin this pool marked DOWN got a new connection: its server answers again. */
    public void landedOnDetectedDown(Origin o) {
        OriginStatus st = o.status();
        if (st.detected()) {
            upIfStill(o, st, "a new connection landed on it");
        }
    }

    /** Work due before the next housekeeping visit: paced drain closes ({@link PacedDrains}) and aborts at
     * deadlines ({@link AbortDeadlines}), then drains that emptied turn DOWN. */
    public void dueWork(long now) {
        drains.dueWork(now);
        deadlines.abortDue(now);
        for (Origin o : origins.lending()) {
            finishDrain(o);
        }
        for (Origin o : origins.configured()) {
            finishDrain(o);
        }
    }

    /** The next instant (ticker time) at which {@link #dueWork} has something to do: a paced drain's next close or
     * an abort deadline, or far in the future. */
    public long nextDue(long now) {
        return Math.min(drains.nextDue(now), deadlines.nextDue(now));
    }

    /** DRAINING → DOWN once empty, by CAS: a markUp or markDown that came first wins. Called by the
     * housekeeper, and by whoever closes or gives up a drained origin's last connection (which may come after
     * the housekeeper's last look). */
    public void finishDrain(Origin o) {
        OriginStatus st = o.status();
        if (st.state() == OriginState.DRAINING && o.occupied.get() == 0) {
            change(o, st, new OriginStatus(OriginState.DOWN, DRAINED, false, st.abortBorrowedAt()));
        }
    }

    /**
     * Takes every origin out of service for a checkpoint ({@code Suspension}): DOWN as by an operator (so neither
     * the creator nor a probe opens a connection), idle connections closed now, borrowed ones closed at return and
     * aborted {@code abortAfter} from now. Returns the origins to bring back at {@link #resumeAll}: those that were
     * UP, or DOWN by the pool's own detection (an operator's DOWN or drain stays as the operator left it).
     */
    public List<Origin> suspendAll(String reason, Duration abortAfter) {
        List<Origin> resume = new ArrayList<>();
        for (Origin o : origins.lending()) {
            OriginStatus down = new OriginStatus(OriginState.DOWN, reason, false,
                    ticker.nanoTime() + abortAfter.toNanos());
            OriginStatus st = o.status();
            while (!change(o, st, down)) {
                st = o.status();
            }
            if (st.state() == OriginState.UP || st.detected()) {
                resume.add(o);
            }
            sweep(o);
        }
        wakeHousekeeper.run();
        return resume;
    }

    /** UP again after a checkpoint, each origin {@link #suspendAll} returned; the creator refills to minSize. */
    public void resumeAll(List<Origin> origins, String reason) {
        for (Origin o : origins) {
            up(o, reason);
        }
    }

    /** UP by an operator: wins over any state. */
    private void up(Origin o, String reason) {
        OriginStatus st = o.status();
        while (st.state() != OriginState.UP && !change(o, st, OriginStatus.up(reason, ticker.nanoTime()))) {
            st = o.status();
        }
        afterUp(o);
    }

    /** UP by the pool's own finding, only if the status is still {@code expected}: an operator's markDown or
     * drain in the meantime wins. */
    public void upIfStill(Origin o, OriginStatus expected, String reason) {
        if (change(o, expected, OriginStatus.up(reason, ticker.nanoTime()))) {
            afterUp(o);
        }
    }

    private void afterUp(Origin o) {
        drains.close(o, CloseReason.ORIGIN_NOT_UP);
        o.health.endFailureRuns(ticker.nanoTime());
        wakeCreators.run();
    }

    /** Closes the origin's idle connections (a paced drain's too) and marks its borrowed ones to close at
     * return. */
    private void sweep(Origin o) {
        drains.close(o, CloseReason.ORIGIN_NOT_UP);
        table.visit((state, e) -> {
            if (e.origin == o && state == SlotState.AVAILABLE) {
                closing.closeIfIdle(e, CloseReason.ORIGIN_NOT_UP);
            } else if (e.origin == o && state == SlotState.BORROWED) {
                e.retire(CloseReason.ORIGIN_NOT_UP);
            }
            return true;
        });
        wakeCreators.run();
    }

    /** One status change by CAS (volatile), reported if it won. */
    private boolean change(Origin o, OriginStatus from, OriginStatus to) {
        if (!o.changeStatus(from, to)) {
            return false;
        }
        if (o.parent != null) {
            origins.splitGroupWeights(); // its group's weight is split among its UP origins
        }
        events.emit(PoolEvent.Type.ORIGIN_STATE, o.name, null, from.state() + " -> " + to.state() + ": "
                + to.reason());
        return true;
    }
}
