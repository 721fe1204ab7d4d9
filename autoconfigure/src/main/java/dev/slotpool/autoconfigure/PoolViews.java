package dev.slotpool.autoconfigure;

import dev.slotpool.LimitSnapshot;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolerView;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.ServerRole;
import dev.slotpool.SlotSnapshot;
import dev.slotpool.SlotState;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The one projection of a {@link PoolSnapshot} for both front doors, {@code /actuator/pool} and the console
 * (docs/operations.md and docs/console.md document the JSON): one vocabulary, the engine's names ({@code closed},
 * {@code waiting}, {@code oldestWaitMillis}, the {@code sizes} the meters tag by {@code state}), made for one
 * {@link Reader}. The holder rule is applied here alone: a slot names its holder only in an origin's or a slot's
 * detail, and only for a reader who may see holders ({@link PoolAccessPolicy#maySeeHolders}). URLs arrive
 * redacted from the engine; no password or connection property is copied.
 */
public final class PoolViews {

    private PoolViews() {
    }

    /**
     * The pool: sizes, waiting borrowers, counters since start, every origin with one summary per slot, in a read
     * of {@code /actuator/pool} every setting with its source ({@link PoolSettings}), null elsewhere, and in that
     * read and the console's page data each origin's adaptive limit ({@code limits}: empty under fixed sizing),
     * null elsewhere.
     */
    public record PoolView(String name, boolean closed, Sizes sizes, int waiting, long oldestWaitMillis, long borrows,
                           long timeouts, long connectionsOpened, long connectionsClosed,
                           @Nullable String lastCreationFailure, List<OriginView> origins,
                           @Nullable List<PoolSettings.Setting> settings, @Nullable List<LimitSnapshot> limits) {
    }

    /** The pool's configured sizes and its connections by state (the meter {@code slotpool.connections{state=...}}). */
    public record Sizes(int min, int max, int total, int available, int borrowed, int creating, int closing) {
    }

    /** An origin's connections by state, as the pool's. */
    public record OriginSizes(int total, int available, int borrowed, int creating, int closing) {
    }

    /** One origin: state, its server's role (docs/failover.md, "Primary and standbys"), routing shares, counts, one
     * entry per slot it holds or is opening, and its pooler's own view when the origin has a pooler admin URL
     * (docs/poolers.md, "Sizing a fleet"), or why its console did not answer ({@code poolerError}, as a failure
     * text for this reader). {@code reads}: for a standby kept for reads, whether it takes reads now and why not
     * (docs/failover.md, "Reads to standbys"); null for any other origin. */
    public record OriginView(String name, @Nullable String url, Dimensions dimensions, OriginState state,
                             @Nullable String stateReason, boolean refusingNewSessions, ServerRole role,
                             long replicaLagMillis, @Nullable String reads, int weight, double targetShare,
                             double actualShare, OriginSizes sizes, long borrows, int consecutiveFailures,
                             StatementCacheCounts statementCache, List<SlotView> slots, @Nullable PoolerView pooler,
                             @Nullable String poolerError) {
    }

    /** The origin's statement cache counts since start, over its connections live and closed (0 when off). */
    public record StatementCacheCounts(long hits, long misses, long evictions) {
    }

    public record Dimensions(@Nullable String service, @Nullable String database, @Nullable String instance,
                             @Nullable String host) {
    }

    /**
     * One slot. {@code retiring}: borrowed and to be closed at return. Times in milliseconds, -1 where they do not
     * apply; {@code holder} null unless the view is a detail and its reader may see holders.
     */
    public record SlotView(int index, SlotState state, boolean retiring, long borrowCount, long ageMillis,
                           long idleMillis, long heldMillis, @Nullable Holder holder) {
    }

    /**
     * Who holds a borrowed connection: the borrowing thread's name, the connection's labels, and the stack at
     * borrow ({@code slotpool.leak-tracing=true}, else null).
     */
    public record Holder(String thread, Map<String, String> labels, @Nullable String borrowStack) {
    }

    /**
     * What one reader sees (docs/console.md, Security model).
     *
     * @param seesHolders whether it may see holders and failure texts whole ({@link PoolAccessPolicy#maySeeHolders})
     * @param url         an origin's URL as this reader sees it
     * @param forReaders  a failure text as a reader who may not see holders sees it
     *                    ({@link PoolAccessPolicy#forReaders(dev.slotpool.PoolConfig)})
     */
    public record Reader(boolean seesHolders, UnaryOperator<@Nullable String> url, UnaryOperator<String> forReaders) {

        /** A failure or event text as this reader sees it; null stays null. */
        public @Nullable String text(@Nullable String text) {
            return seesHolders || text == null ? text : forReaders.apply(text);
        }
    }

    /** The pool as {@code GET /actuator/pool} and the console's page show it: no slot names its holder. */
    public static PoolView pool(PoolSnapshot s, Reader r) {
        return pool(s, r, null);
    }

    /** {@code GET /actuator/pool}: the pool with its settings and their sources. */
    public static PoolView pool(PoolSnapshot s, Reader r, @Nullable List<PoolSettings.Setting> settings) {
        return pool(s, r, settings, null);
    }

    /** {@code GET /actuator/pool}: the pool with its settings and their sources, and its origins' limits (docs/
     * architecture.md, "Adaptive sizing"). */
    public static PoolView pool(PoolSnapshot s, Reader r, @Nullable List<PoolSettings.Setting> settings,
                                @Nullable List<LimitSnapshot> limits) {
        return new PoolView(s.name(), s.closed(),
                new Sizes(s.minSize(), s.maxSize(), s.total(), s.available(), s.borrowed(), s.creating(), s.closing()),
                s.waiting(), s.oldestWaitMillis(), s.borrows(), s.timeouts(), s.connectionsOpened(),
                s.connectionsClosed(), r.text(s.lastCreationFailure().orElse(null)),
                s.origins().stream().map(o -> origin(o, r, false)).toList(), settings, limits);
    }

    /** {@code GET /actuator/pool/{origin}}: the origin with its slots' holders, for a reader who may see them. */
    public static OriginView originDetail(OriginSnapshot o, Reader r) {
        return origin(o, r, true);
    }

    /** A slot's detail (the console's dialog): its holder, for a reader who may see it. */
    public static SlotView slotDetail(SlotSnapshot x, Reader r) {
        return slot(x, r.seesHolders());
    }

    private static OriginView origin(OriginSnapshot o, Reader r, boolean detail) {
        return new OriginView(o.name(), r.url().apply(o.url()),
                new Dimensions(o.service(), o.database(), o.instance(), o.host()), o.state(), r.text(o.stateReason()),
                o.refusingNewSessions(), o.role(), o.replicaLagMillis(), o.reads(), o.weight(), oneDecimal(o.targetShare()),
                oneDecimal(o.actualShare()),
                new OriginSizes(o.total(), o.available(), o.borrowed(), o.creating(), o.closing()), o.borrows(),
                o.consecutiveFailures(),
                new StatementCacheCounts(o.statementCacheHits(), o.statementCacheMisses(), o.statementCacheEvictions()),
                o.slots().stream().map(x -> slot(x, detail && r.seesHolders())).toList(), o.pooler(),
                r.text(o.poolerError()));
    }

    private static SlotView slot(SlotSnapshot x, boolean holder) {
        return new SlotView(x.index(), x.state(), x.retiring(), x.borrowCount(), x.ageMillis(), x.idleMillis(),
                x.heldMillis(), holder && x.holderThread() != null
                        ? new Holder(x.holderThread(), x.labels(), x.borrowStack()) : null);
    }

    /** A share or a rate as both front doors show it: one decimal ({@code 66.666…} is 66.7). */
    public static double oneDecimal(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
