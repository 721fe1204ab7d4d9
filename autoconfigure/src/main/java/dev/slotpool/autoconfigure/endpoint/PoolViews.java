package dev.slotpool.autoconfigure.endpoint;

import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotSnapshot;
import dev.slotpool.SlotState;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The JSON shapes of {@code /actuator/pool} (documented in {@code docs/operations.md}), made from a
 * {@link PoolSnapshot} for one reader ({@link Reader}). URLs arrive redacted from the engine; no password or
 * connection property is copied.
 */
public final class PoolViews {

    private PoolViews() {
    }

    /** {@code GET /actuator/pool}. */
    public record PoolView(String name, boolean closed, Sizes sizes, Waiting waiting, long borrows, long timeouts,
                           long connectionsOpened, long connectionsClosed, String lastCreationFailure,
                           List<OriginView> origins) {
    }

    public record Sizes(int min, int max, int total, int available, int borrowed, int creating, int closing) {
    }

    public record OriginSizes(int total, int available, int borrowed, int creating, int closing) {
    }

    public record Waiting(int threads, long oldestMillis) {
    }

    /** One origin in the pool view: counts and one compact entry per slot. */
    public record OriginView(String name, String url, Dimensions dimensions, OriginState state, String stateReason,
                             boolean refusingNewSessions, int weight, double targetShare, double actualShare, OriginSizes sizes, long borrows,
                             int consecutiveFailures, StatementCacheCounts statementCache, List<SlotSummary> slots) {
    }

    /** The origin's statement cache counts since start, over its connections live and closed (0 when off). */
    public record StatementCacheCounts(long hits, long misses, long evictions) {
    }

    public record Dimensions(String service, String database, String instance, String host) {
    }

    public record SlotSummary(int index, SlotState state, boolean retiring, long borrowCount) {
    }

    /** {@code GET /actuator/pool/{origin}}: the origin with every slot in full. */
    public record OriginDetail(String name, String url, Dimensions dimensions, OriginState state, String stateReason,
                               boolean refusingNewSessions, int weight, double targetShare, double actualShare, OriginSizes sizes, long borrows,
                               int consecutiveFailures, StatementCacheCounts statementCache, List<SlotDetail> slots) {
    }

    /** Times in milliseconds, -1 where they do not apply. */
    public record SlotDetail(int index, SlotState state, boolean retiring, long borrowCount, long ageMillis,
                             long idleMillis, long heldMillis, String holderThread, Map<String, String> labels,
                             String borrowStack) {
    }

    /** The outcome of a write operation. */
    public record ActionResult(String action, String origin, String outcome, PoolView pool) {
    }

    /**
     * What one reader sees (docs/console.md, Security model).
     *
     * @param mayAct   whether it may act: only then holder threads, labels, borrow stacks, and failure texts with
     *                 client addresses and user names ({@link dev.slotpool.autoconfigure.PoolAccessPolicy#forReaders})
     * @param url      an origin's URL as this reader sees it (Boot's show-values rule)
     * @param forReaders a failure text as a reader who may not act sees it
     */
    public record Reader(boolean mayAct, UnaryOperator<String> url, UnaryOperator<String> forReaders) {

        String failure(String text) {
            return mayAct || text == null ? text : forReaders.apply(text);
        }
    }

    public static PoolView pool(PoolSnapshot s, Reader r) {
        return new PoolView(s.name(), s.closed(),
                new Sizes(s.minSize(), s.maxSize(), s.total(), s.available(), s.borrowed(), s.creating(), s.closing()),
                new Waiting(s.waiting(), s.oldestWaitMillis()), s.borrows(), s.timeouts(), s.connectionsOpened(),
                s.connectionsClosed(), r.failure(s.lastCreationFailure().orElse(null)),
                s.origins().stream().map(o -> origin(o, r)).toList());
    }

    static OriginView origin(OriginSnapshot o, Reader r) {
        return new OriginView(o.name(), r.url().apply(o.url()), dimensions(o), o.state(), r.failure(o.stateReason()),
                o.refusingNewSessions(),
                o.weight(),
                oneDecimal(o.targetShare()), oneDecimal(o.actualShare()), sizes(o), o.borrows(), o.consecutiveFailures(),
                statementCache(o),
                o.slots().stream().map(x -> new SlotSummary(x.index(), x.state(), x.retiring(), x.borrowCount())).toList());
    }

    public static OriginDetail originDetail(OriginSnapshot o, Reader r) {
        return new OriginDetail(o.name(), r.url().apply(o.url()), dimensions(o), o.state(), r.failure(o.stateReason()),
                o.refusingNewSessions(), o.weight(), oneDecimal(o.targetShare()), oneDecimal(o.actualShare()), sizes(o),
                o.borrows(), o.consecutiveFailures(), statementCache(o),
                o.slots().stream().map(x -> slot(x, r.mayAct())).toList());
    }

    /** A slot in full; who holds it (thread, labels, borrow stack) only for a reader who may act. */
    private static SlotDetail slot(SlotSnapshot x, boolean mayAct) {
        return new SlotDetail(x.index(), x.state(), x.retiring(), x.borrowCount(), x.ageMillis(), x.idleMillis(),
                x.heldMillis(), mayAct ? x.holderThread() : null, mayAct ? x.labels() : null,
                mayAct ? x.borrowStack() : null);
    }

    private static Dimensions dimensions(OriginSnapshot o) {
        return new Dimensions(o.service(), o.database(), o.instance(), o.host());
    }

    private static StatementCacheCounts statementCache(OriginSnapshot o) {
        return new StatementCacheCounts(o.statementCacheHits(), o.statementCacheMisses(), o.statementCacheEvictions());
    }

    private static OriginSizes sizes(OriginSnapshot o) {
        return new OriginSizes(o.total(), o.available(), o.borrowed(), o.creating(), o.closing());
    }

    /** A share or a rate as the endpoint and the console show it: one decimal ({@code 66.666…} is 66.7). */
    public static double oneDecimal(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
