package dev.slotpool.failover;

import dev.slotpool.Balancing;
import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.PoolConfig;
import dev.slotpool.SlotState;
import dev.slotpool.Ticker;
import dev.slotpool.kernel.Events;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.OriginSelector;
import dev.slotpool.origins.OriginStatus;
import dev.slotpool.origins.Origins;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.slots.Signals;
import dev.slotpool.table.SlotTable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * An origin's state changes (docs/failover.md): the operator's drain, mark down, mark up and rebalance, and the
 * changes the pool makes itself (detected DOWN, UP after a probe, drained, suspended). Selectors are resolved by
 * {@link OriginSelector}, paced closes by {@link PacedDrains}, rebalance steps by {@link Rebalancer}, a switchover's
 * pause by {@link SwitchoverPause} (its statuses written here). S7 is kept by the order of each operation: the
 * origin's state is stored (volatile) before any slot is visited, and every borrower re-reads the state after
 * winning a slot, so no borrow that starts after the call returns is lent a connection of a DRAINING or DOWN origin.
 *
 * <p>An origin's status is decided here alone, by precedence: an operator's change (drain, mark down, mark up) over
 * a checkpoint's suspension, over the role's verdict ({@link RoleWatch}), over the pool's detection. The role's
 * verdict is kept apart from the status ({@link #outForRole}), so a suspension or an operator's status in between
 * does not lose it: resume restores it, and the role lifts only the DOWN it set itself.
 */
public final class OriginOperations {

    /** The reason of a drained origin's DOWN. */
    static final String DRAINED = "drained";

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
    private final Signals signals;
    private final OriginSelector originSelector;
    private final Rebalancer rebalancer;
    private final RoleWatch roles;
    /** Why the role holds each origin out of service; absent when its role lets it serve (docs/failover.md,
     * "Primary and standbys"). Written before the status, read after it, so that a verdict and a status change
     * that cross each other end with the status following the verdict. */
    private final Map<Origin, String> roleVerdicts = new ConcurrentHashMap<>();
    /** The DOWN status the role last set on each origin: the one status the role lifts (identity). */
    private final Map<Origin, OriginStatus> setByRole = new ConcurrentHashMap<>();
    /** The DOWN status a checkpoint's suspension set on each origin it brings back at resume (identity). */
    private final Map<Origin, OriginStatus> suspended = new ConcurrentHashMap<>();

    OriginOperations(PoolConfig config, Origins origins, SlotTable<PooledConnection> table, Closing closing,
                            PacedDrains drains, AbortDeadlines deadlines, Rebalancer rebalancer, Events events,
                            Signals signals, RoleWatch roles) {
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
        this.signals = signals;
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
        signals.housekeepingDue();
    }

    /** Unplanned DOWN by an operator: idle connections closed now, borrowed ones aborted after the grace period
     * (or closed at return, see {@code abortBorrowedOnDown}). It stays DOWN until {@link #markUp}, whatever the
     * pool finds meanwhile: a DOWN the pool set itself (detected, for the role, suspended) is replaced by the
     * operator's. Idempotent. */
    public void markDown(String selector) {
        for (Origin o : originSelector.resolve(selector)) {
            OriginStatus st = o.status();
            OriginStatus down = new OriginStatus(OriginState.DOWN, "marked down", false,
                    ticker.nanoTime() + downAbortDelayNanos);
            while (!(st.state() == OriginState.DOWN && !poolOwned(o, st)) && !change(o, st, down)) {
                st = o.status();
            }
            sweep(o);
        }
        signals.housekeepingDue();
    }

    /** UP again: the origins receive connections again, up to their share, a rebalance step at a time; a split
     * brain is accepted, a standby taken out again ({@link RoleWatch#accepted}). Idempotent. */
    public void markUp(String selector) {
        for (Origin o : originSelector.resolve(selector)) {
            roleVerdicts.remove(o);
            // The role judges again first (RoleWatch#accepted), so a standby's verdict is back before the status
            // moves: the operator's UP would otherwise lend it writers' borrows until the role's next look.
            roles.accepted(o.name);
            // Then UP, or the role's DOWN where the role holds it out; retried when the status moved meanwhile.
            for (OriginStatus st = o.status(); st.state() != OriginState.UP && !heldForRole(o, st); ) {
                restore(o, st, "marked up");
                st = o.status();
            }
            if (o.status().state() == OriginState.UP) {
                afterUp(o);
            }
        }
    }

    /** The origin with this name (no selector: an operation on one server); {@link IllegalArgumentException}
     * naming the known origins when there is none. */
    public Origin named(String name) {
        return originSelector.require(name);
    }

    /**
     * The names of the origins a selector names: an origin's name (a configured origin with a discovery query
     * names itself and every origin it discovered), or dimension matches {@code key=value[,key=value...]} over
     * {@code name, service, database, instance, host} (every pair must match, case-insensitively), e.g.
     * {@code host=db3}. Throws {@link IllegalArgumentException} when nothing matches or a key is unknown.
     */
    public List<String> select(String selector) {
        List<String> names = new ArrayList<>();
        originSelector.resolve(selector).forEach(o -> names.add(o.name));
        return names;
    }

    /** The pool found the origin dead ({@link FailureDetector}): DOWN unless it is no longer UP. */
    void detectedDown(Origin o, String reason, long now) {
        OriginStatus st = o.status();
        if (st.state() == OriginState.UP
                && change(o, st, new OriginStatus(OriginState.DOWN, reason, true, now + downAbortDelayNanos))) {
            sweep(o);
            roles.suspect();
        }
    }

    /**
     * The role holds the origin out of service ({@link RoleWatch}): its verdict is kept, and the origin is DOWN with
     * {@code reason}, not detected (only the role brings it back), if its status is UP, a DOWN the pool detected or
     * the role's own earlier one; under an operator's status or a suspension the verdict waits for it to end
     * ({@link #resumeAll}, or the operator's {@link #markUp}, after which the role judges again).
     */
    public void outForRole(Origin o, String reason) {
        roleVerdicts.put(o, reason);
        for (OriginStatus st = o.status(); st.state() == OriginState.UP || st.detected() || st == setByRole.get(o);
                st = o.status()) {
            if (st == setByRole.get(o) && st.reason().equals(reason)) {
                // Already out for this verdict: replacing the status would move its abort deadline, and while the
                // new one is published before its CAS an operator's markDown would take the old one for its own.
                return;
            }
            OriginStatus down = new OriginStatus(OriginState.DOWN, reason, false,
                    ticker.nanoTime() + downAbortDelayNanos);
            setByRole.put(o, down); // before the status names it, so a concurrent inForRole finds it
            if (change(o, st, down)) {
                sweep(o);
                if (!roleVerdicts.containsKey(o)) {
                    upIfStill(o, down, "role: takes writes"); // an inForRole ran in between
                }
                return;
            }
        }
    }

    /** The role lets the origin serve again: its verdict is dropped, and the DOWN the role set, if the status is
     * still that one, turns UP. */
    public void inForRole(Origin o, String reason) {
        roleVerdicts.remove(o);
        OriginStatus set = setByRole.get(o);
        if (set != null && o.status() == set) {
            upIfStill(o, set, reason);
        }
    }

    /** Whether {@code st} is the role's own DOWN and the role still holds the origin out. */
    private boolean heldForRole(Origin o, OriginStatus st) {
        return st == setByRole.get(o) && roleVerdicts.containsKey(o);
    }

    /** Whether the origin's status is one a role watch may keep its session under: UP, a DOWN the pool detected,
     * or the role's own DOWN; not a drain, an operator's DOWN or a suspension (their connections all close). */
    public boolean mayWatch(Origin o) {
        OriginStatus st = o.status();
        return st.state() == OriginState.UP || st.detected() || st == setByRole.get(o);
    }

    /** A DOWN the pool set itself, which its own finding may lift: detected, for the role, or suspended. */
    private boolean poolOwned(Origin o, OriginStatus st) {
        return st.detected() || st == setByRole.get(o) || st == suspended.get(o);
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
     * the creator nor a probe opens a connection, and no role watch keeps a session), idle connections closed now,
     * borrowed ones closed at return and aborted {@code abortAfter} from now. Remembers the origins to bring back
     * at {@link #resumeAll}: those the pool's own findings held (UP, DOWN by its detection or for the role, or
     * suspended already); an operator's DOWN or drain stays as the operator left it.
     */
    public void suspendAll(String reason, Duration abortAfter) {
        for (Origin o : origins.lending()) {
            OriginStatus down = new OriginStatus(OriginState.DOWN, reason, false,
                    ticker.nanoTime() + abortAfter.toNanos());
            OriginStatus st = o.status();
            while (!change(o, st, down)) {
                st = o.status();
            }
            if (st.state() == OriginState.UP || poolOwned(o, st)) {
                suspended.put(o, down);
            } else {
                suspended.remove(o);
            }
            sweep(o);
        }
        signals.housekeepingDue();
    }

    /**
     * After a checkpoint, each origin {@link #suspendAll} took down and nobody changed since: DOWN for its role if
     * the role holds it out, else UP ({@link #restore}); the creator refills to minSize.
     */
    public void resumeAll(String reason) {
        for (Map.Entry<Origin, OriginStatus> e : suspended.entrySet()) {
            Origin o = e.getKey();
            OriginStatus down = e.getValue();
            if (suspended.remove(o, down)) {
                restore(o, down, reason);
            }
        }
    }

    /**
     * Ends a pause the pool set ({@code from}: a suspension's, a switchover's) by the role's verdict: DOWN for its
     * role if the role holds the origin out, else UP. Each side reads the verdict after its status change and
     * {@link #outForRole} and {@link #inForRole} read the status after the verdict, so a verdict that changes
     * meanwhile is applied by one of them. The pause is the role's to replace from before the verdict is read: a
     * verdict stored after that read finds it (or the UP) and replaces it while its reading holds the origin's
     * writes ({@link RoleWatch}), so the UP this call may set in between lends no writer the origin.
     */
    void restore(Origin o, OriginStatus from, String reason) {
        setByRole.put(o, from);
        String verdict = roleVerdicts.get(o);
        if (verdict == null) {
            upIfStill(o, from, reason);
            String late = roleVerdicts.get(o);
            if (late != null) {
                outForRole(o, late);
            }
            return;
        }
        OriginStatus forRole = new OriginStatus(OriginState.DOWN, verdict, false,
                ticker.nanoTime() + downAbortDelayNanos);
        setByRole.put(o, forRole);
        if (change(o, from, forRole) && !roleVerdicts.containsKey(o)) {
            upIfStill(o, forRole, "role: takes writes");
        }
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
        signals.creationWanted();
    }

    /** Closes the origin's idle connections (a paced drain's too) and marks its borrowed ones to close at
     * return. */
    void sweep(Origin o) {
        drains.close(o, CloseReason.ORIGIN_NOT_UP);
        table.visit((state, e) -> {
            if (e.origin == o && state == SlotState.AVAILABLE) {
                closing.closeIfIdle(e, CloseReason.ORIGIN_NOT_UP);
            } else if (e.origin == o && state == SlotState.BORROWED) {
                e.retire(CloseReason.ORIGIN_NOT_UP);
            }
            return true;
        });
        signals.creationWanted();
    }

    /** One status change by CAS (volatile), reported if it won. */
    boolean change(Origin o, OriginStatus from, OriginStatus to) {
        if (!o.changeStatus(from, to)) {
            return false;
        }
        if (o.parent != null) {
            origins.splitGroupWeights(); // its group's weight is split among its UP origins
        }
        events.originChanged(o.name, from.state(), to.state(), to.reason());
        roles.look(); // a watcher closes or reopens its session by the new status
        return true;
    }
}
