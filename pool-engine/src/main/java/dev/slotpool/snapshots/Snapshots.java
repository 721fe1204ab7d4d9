package dev.slotpool.snapshots;

import dev.slotpool.JdbcUrls;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.PoolerView;
import dev.slotpool.ServerRole;
import dev.slotpool.SlotSnapshot;
import dev.slotpool.SlotState;
import dev.slotpool.Ticker;
import dev.slotpool.failover.FailureDetector;
import dev.slotpool.failover.OriginRoles;
import dev.slotpool.failover.RoleReading;
import dev.slotpool.jdbc.StatementCache;
import dev.slotpool.jdbc.StatementCacheTotals;
import dev.slotpool.kernel.PoolLifecycle;
import dev.slotpool.kernel.StackTexts;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.Origins;
import dev.slotpool.slots.Capacity;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.table.SlotTable;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Builds a {@link PoolSnapshot} in one pass over the table: wait-free, O(slots + origins). */
public final class Snapshots {

    private final String poolName;
    private final Ticker ticker;
    private final int minSize;
    private final Origins origins;
    private final SlotTable<PooledConnection> table;
    private final Capacity capacity;
    private final Closing closing;
    private final FailureDetector detector;
    private final AtomicLong timeouts;
    private final PoolLifecycle lifecycle;
    private final PoolerViews poolerViews;
    private final OriginRoles roles;

    public Snapshots(PoolConfig config, Origins origins, SlotTable<PooledConnection> table, Capacity capacity,
              Closing closing, FailureDetector detector, PoolLifecycle lifecycle, OriginRoles roles) {
        this.roles = roles;
        this.poolName = config.name();
        this.ticker = config.ticker();
        this.minSize = config.minSize();
        this.origins = origins;
        this.table = table;
        this.capacity = capacity;
        this.closing = closing;
        this.detector = detector;
        this.timeouts = new AtomicLong();
        this.lifecycle = lifecycle;
        this.poolerViews = new PoolerViews(config, lifecycle);
    }

    /** The count of borrows that timed out: counted by the borrows, reported in every snapshot. */
    public AtomicLong timeouts() {
        return timeouts;
    }

    /** The poolers' views this feature reports (started and closed with the pool). */
    public PoolerViews views() {
        return poolerViews;
    }

    /** How long a snapshot looks again while closes keep moving borrows (a cold path: the console, meters). */
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** Looks a snapshot takes at least before it gives up: on a busy machine the thread taking it can be off the
     * processor for longer than {@link #SETTLE_NANOS}, and the time alone would then leave it one look. */
    private static final int MIN_LOOKS = 64;

    /**
     * A snapshot whose borrow counts count each connection once: a close that moved a connection's borrows from
     * its slot to its origin's count while the snapshot was read ({@link Closing#retiring} changed) makes
     * it read again, for at least {@link #MIN_LOOKS} looks and {@link #SETTLE_NANOS}, yielding to the closer in
     * between.
     */
    public PoolSnapshot take() {
        long deadline = System.nanoTime() + SETTLE_NANOS;
        for (int look = 1; ; look++) {
            long before = closing.retiring();
            boolean last = look >= MIN_LOOKS && System.nanoTime() - deadline >= 0;
            if ((before & 1) == 0 || last) {
                PoolSnapshot s = takeOnce(true);
                if (closing.retiring() == before || last) {
                    return s;
                }
            }
            Thread.yield();
        }
    }

    /**
     * The counts and states alone, read once: every origin with its state, reason and counts, and no slot (no
     * holder's name, no borrow stack as text). What a borrow timeout's message and a suspension's wait need; a
     * timeout storm builds one per failure.
     */
    public PoolSnapshot counts() {
        return takeOnce(false);
    }

    /** One pass; with {@code slots}, every live slot's snapshot too. */
    private PoolSnapshot takeOnce(boolean slots) {
        long now = ticker.nanoTime();
        Origin[] known = origins.lending();
        Map<Origin, Counts> byOrigin = new IdentityHashMap<>();
        for (Origin o : known) {
            byOrigin.put(o, new Counts());
        }
        Counts total = new Counts();
        // Creations are read before the table: a creator publishes before its creating counts drop, so a
        // connection is seen in one or the other (at worst in both for an instant), never in neither. A RESERVED
        // slot has no entry yet: the creating counts say whose it is.
        Map<Origin, Integer> creatingByOrigin = new IdentityHashMap<>();
        for (Origin o : known) {
            creatingByOrigin.put(o, o.creating.get());
        }
        int creatingAll = capacity.creating();
        table.visit((state, e) -> {
            if (state != SlotState.EMPTY) {
                Counts c = byOrigin.computeIfAbsent(e.origin, k -> new Counts());
                c.add(state, slots ? slot(e.slot.index(), state, e, now) : null, e.borrowCount);
                c.addStatements(e.statementCache);
                total.add(state, null, e.borrowCount);
            }
            return true;
        });
        List<OriginSnapshot> list = new ArrayList<>();
        int upWeight = origins.upWeight();
        long retired = 0;
        for (Origin o : known) {
            Counts c = byOrigin.get(o);
            int creating = creatingByOrigin.get(o);
            long closedBorrows = o.closed.borrows();
            long borrows = closedBorrows + c.borrows;
            retired += closedBorrows;
            double share = o.isUp() && upWeight > 0 ? 100.0 * o.weight / upWeight : 0.0;
            double actual = total.total() > 0 ? 100.0 * c.total() / total.total() : 0.0;
            PoolerViews.Reading pooler = poolerViews.reading(o);
            OriginSnapshotBuilder b = new OriginSnapshotBuilder(o, c, creating, borrows, share, actual,
                    detector.refusingNewSessions(o), pooler == null ? null : pooler.view(),
                    pooler == null ? null : pooler.error(), roles.reading(o.name));
            list.add(b.build());
        }
        long oldestWait = TimeUnit.NANOSECONDS.toMillis(table.oldestWaitNanos());
        var failure = detector.currentFailure();
        // Creations are counted from the moment a creator claims room, before it reserves a slot.
        return new PoolSnapshot(poolName, lifecycle.closed(), minSize, capacity.maxSize(),
                total.total(), total.available, total.borrowed, creatingAll, total.closing, table.waiting(),
                oldestWait, retired + total.borrows, timeouts.get(), capacity.opened(), capacity.closed(),
                Optional.ofNullable(failure).map(Throwable::getMessage), List.copyOf(list));
    }

    private static SlotSnapshot slot(int index, SlotState state, PooledConnection e, long now) {
        boolean borrowed = state == SlotState.BORROWED;
        Thread holder = borrowed ? e.holder : null;
        Throwable stack = borrowed ? e.borrowStack : null;
        return new SlotSnapshot(index, state, borrowed && e.retireAtReturn, e.borrowCount, millis(now - e.createdAt),
                state == SlotState.AVAILABLE || state == SlotState.HELD ? millis(now - e.returnedAt) : -1,
                borrowed ? millis(now - e.borrowedAt) : -1, holder == null ? null : holder.getName(), e.labels(),
                stack == null ? null : StackTexts.of(stack));
    }

    private static long millis(long nanos) {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(nanos));
    }

    /** Per-origin tallies of one pass. */
    private static final class Counts {
        int available;
        int borrowed;
        int closing;
        long borrows;
        long statementHits;
        long statementMisses;
        long statementEvictions;
        final List<SlotSnapshot> slots = new ArrayList<>();

        /** A live connection's statement cache counts (plain fields its holder writes: racy, like borrowCount). */
        void addStatements(StatementCache cache) {
            if (cache != null) {
                statementHits += cache.hits();
                statementMisses += cache.misses();
                statementEvictions += cache.evictions();
            }
        }

        void add(SlotState state, SlotSnapshot slot, long borrowCount) {
            switch (state) {
                case AVAILABLE, HELD -> available++; // HELD: the pool's own check, lent to nobody (SlotState)
                case BORROWED -> borrowed++;
                case CLOSING -> closing++;
                case RESERVED, EMPTY -> { } // a reservation is counted by the origin's creating count
            }
            borrows += borrowCount;
            if (slot != null) {
                slots.add(slot);
            }
        }

        int total() {
            return available + borrowed + closing;
        }
    }

    private record OriginSnapshotBuilder(Origin o, Counts c, int creating, long borrows, double share,
                                         double actualShare, boolean refusing, PoolerView pooler,
                                         String poolerError, RoleReading role) {
        OriginSnapshot build() {
            var cfg = o.config;
            var status = o.status();
            int failures = Math.max(o.health.connectFailures(), o.health.brokenInARow());
            StatementCacheTotals retired = o.closed.statements();
            return new OriginSnapshot(o.name, JdbcUrls.redact(cfg.url()), cfg.service(), cfg.database(),
                    cfg.instance(), cfg.host(), status.state(), status.reason(), refusing,
                    role == null ? ServerRole.UNKNOWN : role.role(), role == null ? -1 : role.lagMillis(), o.weight,
                    share,
                    actualShare, c.total(), c.available, c.borrowed, creating, c.closing, borrows, failures,
                    retired.hits() + c.statementHits, retired.misses() + c.statementMisses,
                    retired.evictions() + c.statementEvictions, List.copyOf(c.slots), pooler, poolerError,
                    o.readsVerdict());
        }
    }
}
