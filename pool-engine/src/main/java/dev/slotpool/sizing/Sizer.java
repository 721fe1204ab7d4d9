package dev.slotpool.sizing;

import dev.slotpool.LimitSnapshot;
import dev.slotpool.PoolConfig;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The pool's side of adaptive sizing (docs/architecture.md, "Adaptive sizing"): every {@link
 * LimitController#TICK_NANOS} on the housekeeper's thread it counts each configured origin's connections, steps
 * its {@link LimitController} (or applies an operator's pin), holds back idle connections above the limit or gives
 * held-back ones back below it, keeps the sessions within the fleet budget, sets each {@link Gate}, and reports
 * changes. Pins come from operator threads through one volatile field per origin, which only the tick applies. It
 * sees the pool only through {@link Member} and {@link PoolSide}, so this package names none of the pool's.
 */
public final class Sizer {

    /** Changes kept per origin for {@link LimitSnapshot#history()}. */
    static final int HISTORY = 32;

    private final PoolSide pool;
    private final int budget;
    private final Tracked[] tracked;
    private long lastTick;

    /**
     * A configured origin as sizing sees it.
     *
     * @param name     its name
     * @param gate     its gate
     * @param up       whether it is UP now
     * @param state    its state, for the reason of a limit that holds while it is not UP
     * @param sessions the connections it holds now (open or being opened)
     * @param ceiling  its cap: the highest its limit goes
     */
    public record Member(String name, Gate gate, BooleanSupplier up, Supplier<String> state, IntSupplier sessions,
                         int ceiling) {
    }

    /** What the tick asks of the pool. Each call runs on the tick's thread and moves slots only by the table's
     * entry-checked CAS on idle connections, so no borrower or holder waits for it. */
    public interface PoolSide {
        /** Whether borrowers wait that were not handed a connection. */
        boolean waiting();

        /** Counts every open connection into its origin's gate ({@link Gate#count}), the gates cleared first. */
        void count();

        /** Holds back up to {@code n} idle connections of {@code gate}'s origin: they stay open and are lent to
         * nobody. Returns how many. */
        int holdBack(Gate gate, int n);

        /** Gives up to {@code n} held-back connections of {@code gate}'s origin back to borrowers, the oldest
         * waiter first. Returns how many. */
        int giveBack(Gate gate, int n);

        /** Closes up to {@code n} held-back connections of {@code gate}'s origin. Returns how many. */
        int closeHeldBack(Gate gate, int n);

        /** An origin's limit changed ({@code detail}: "limit 12 -> 9: " and why): a {@code LIMIT} event. */
        void changed(String origin, String detail);

        /** A limit grew while borrowers wait: the creators may open connections. */
        void wakeCreators();
    }

    /** One configured origin's controller and what the snapshot shows of it. */
    private static final class Tracked {
        final Member origin;
        final LimitController controller;
        /** The operator's pin (0: none); written by operator threads, applied by the tick. */
        volatile int pin;
        volatile String reason = "starting";
        /** The gate's held-back count at the end of the last tick, for snapshots. */
        volatile int heldBack;
        volatile List<LimitSnapshot.Change> history = List.of();

        Tracked(Member origin, LimitController controller) {
            this.origin = origin;
            this.controller = controller;
        }
    }

    public Sizer(PoolConfig config, List<Member> configured, PoolSide pool, long now) {
        this.pool = pool;
        this.budget = config.fleetBudget() == 0 ? Integer.MAX_VALUE : config.fleetBudget();
        int n = configured.size();
        int floor = Math.max(1, (config.minSize() + n - 1) / n);
        if (budget != Integer.MAX_VALUE) {
            floor = Math.max(1, Math.min(floor, budget / n));
        }
        this.tracked = new Tracked[n];
        int share = budget == Integer.MAX_VALUE ? Integer.MAX_VALUE : budget / n;
        int initial = Math.max(floor, (config.initialSize() + n - 1) / n);
        for (int i = 0; i < n; i++) {
            Member o = configured.get(i);
            int ceiling = Math.max(floor, o.ceiling());
            // The search starts at the floor. The warm-up may open initialSize (within an equal share of the
            // budget); the first tick holds back what is above the floor.
            tracked[i] = new Tracked(o, new LimitController(floor, ceiling));
            o.gate().set(floor, Math.min(ceiling, Math.min(initial, Math.max(floor, share))), Long.MAX_VALUE, 0);
        }
        this.lastTick = now;
    }

    /** When the next tick is due (ticker time). */
    public long nextDue() {
        return lastTick + LimitController.TICK_NANOS;
    }

    /** Ticks if one is due at {@code now}. */
    public void tickIfDue(long now) {
        if (now - nextDue() >= 0) {
            tick(now);
        }
    }

    /** One tick: the counts, each origin's step, its held-back connections, the budget and the gates. */
    void tick(long now) {
        long interval = now - lastTick;
        lastTick = now;
        boolean waiting = pool.waiting();
        pool.count();
        boolean grew = false;
        boolean squeezed = false;
        for (Tracked t : tracked) {
            Member o = t.origin;
            Gate g = o.gate();
            long[] sample = g.drain();
            int before = t.controller.limit();
            int room = room(t);
            String reason;
            int pin = t.pin;
            if (pin > 0) {
                int to = Math.min(pin, Math.max(t.controller.floor(), room));
                t.controller.reset(to);
                reason = "pinned at " + pin + " by an operator" + (to < pin ? "; the fleet budget leaves " + to : "");
            } else if (!o.up().getAsBoolean()) {
                reason = "origin " + o.state().get() + ": holding";
            } else {
                reason = t.controller.step(interval, sample[0], sample[1], waiting, g.inUse, room).reason();
            }
            int limit = t.controller.limit();
            squeezed |= waiting && limit >= room && limit < o.ceiling();
            int over = g.lendable - limit;
            int surplus = 0;
            if (over > 0) {
                int held = pool.holdBack(g, over);
                g.lendable -= held;
                g.heldBack += held;
                surplus = over - held; // lent now: held back as they come back
            } else if (over < 0 && g.heldBack > 0) {
                int given = pool.giveBack(g, Math.min(-over, g.heldBack));
                g.lendable += given;
                g.heldBack -= given;
            }
            g.set(limit, Math.min(o.ceiling(), limit + g.heldBack + surplus), t.controller.clipNanos(), surplus);
            t.reason = reason;
            if (limit != before) {
                grew |= limit > before;
                record(t, before, limit, reason);
            }
        }
        if (budget != Integer.MAX_VALUE) {
            keepWithinBudget(squeezed);
        }
        for (Tracked t : tracked) {
            t.heldBack = t.origin.gate().heldBack;
        }
        if (grew && waiting) {
            pool.wakeCreators();
        }
    }

    /** The highest limit the budget leaves {@code t}: the budget less what the others hold or may open. Its own
     * held-back connections fit: a limit that rises gives them back before anything is opened. */
    private int room(Tracked t) {
        if (budget == Integer.MAX_VALUE) {
            return Integer.MAX_VALUE;
        }
        int others = 0;
        for (Tracked u : tracked) {
            others += u == t ? 0 : taken(u);
        }
        return budget - others;
    }

    /** The sessions {@code u} counts against the budget: those it holds, or may open if more. */
    private static int taken(Tracked u) {
        return Math.max(u.origin.sessions().getAsInt(), u.origin.gate().sessions());
    }

    /**
     * Closes held-back connections while the origins' sessions add up to more than the budget (a pin, or a limit
     * whose origin holds some back), the origin holding the most back first; and when the budget is what stops an
     * origin's borrowers ({@code squeezed}), every held-back connection, which only keeps the room from it. Each
     * close lowers its origin's sessions at once, and the room it leaves is counted only once its connection is
     * closed (the next tick's counts), so no creation takes the room before the close is done.
     */
    private void keepWithinBudget(boolean squeezed) {
        if (squeezed) {
            for (Tracked u : tracked) {
                Gate g = u.origin.gate();
                if (g.heldBack > 0) {
                    int closed = pool.closeHeldBack(g, g.heldBack);
                    g.heldBack -= closed;
                    g.lowerSessions(closed);
                }
            }
        }
        int total = 0;
        for (Tracked u : tracked) {
            total += taken(u);
        }
        while (total > budget) {
            Tracked most = null;
            for (Tracked u : tracked) {
                if (u.origin.gate().heldBack > 0 && (most == null
                        || u.origin.gate().heldBack > most.origin.gate().heldBack)) {
                    most = u;
                }
            }
            if (most == null) {
                return;
            }
            Gate g = most.origin.gate();
            int closed = pool.closeHeldBack(g, Math.min(g.heldBack, total - budget));
            if (closed == 0) {
                return;
            }
            g.heldBack -= closed;
            g.lowerSessions(closed);
            total -= closed;
        }
    }

    private void record(Tracked t, int before, int limit, String reason) {
        List<LimitSnapshot.Change> h = new ArrayList<>(t.history);
        if (h.size() == HISTORY) {
            h.remove(0);
        }
        h.add(new LimitSnapshot.Change(Instant.now(), limit, reason));
        t.history = List.copyOf(h);
        pool.changed(t.origin.name(), "limit " + before + " -> " + limit + ": " + reason);
    }

    /**
     * Pins an origin's limit (an operator's; applied at the next tick).
     *
     * @throws IllegalArgumentException for an unknown origin or a limit outside its bounds
     */
    public void pin(String origin, int limit) {
        Tracked t = find(origin);
        LimitController c = t.controller;
        if (limit < c.floor() || limit > c.ceiling()) {
            throw new IllegalArgumentException("limit " + limit + " for origin '" + origin + "' must be between "
                    + c.floor() + " and " + c.ceiling());
        }
        t.pin = limit;
    }

    /** Hands an origin's limit back to the controller, which goes on from the pinned value. */
    public void release(String origin) {
        find(origin).pin = 0;
    }

    private Tracked find(String origin) {
        for (Tracked t : tracked) {
            if (t.origin.name().equals(origin)) {
                return t;
            }
        }
        throw new IllegalArgumentException("no configured origin named '" + origin + "'");
    }

    /** Each configured origin's limit, bounds, pin, reason and history. */
    public List<LimitSnapshot> snapshot() {
        List<LimitSnapshot> out = new ArrayList<>(tracked.length);
        for (Tracked t : tracked) {
            LimitController c = t.controller;
            out.add(new LimitSnapshot(t.origin.name(), t.origin.gate().limit(), c.floor(), c.ceiling(), t.pin,
                    t.heldBack, t.reason, c.minHeldNanos() / 1000, t.history));
        }
        return out;
    }
}
