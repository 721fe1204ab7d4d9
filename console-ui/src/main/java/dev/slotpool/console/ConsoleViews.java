package dev.slotpool.console;

import dev.slotpool.LimitSnapshot;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.PoolerView;
import dev.slotpool.SlotState;
import dev.slotpool.autoconfigure.PoolViews;
import dev.slotpool.autoconfigure.PoolViews.PoolView;
import dev.slotpool.autoconfigure.PoolViews.SlotView;

import org.jspecify.annotations.Nullable;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

import static dev.slotpool.autoconfigure.PoolViews.oneDecimal;

/**
 * The console's view records (the page model, {@code GET {path}/snapshot} and each server-sent event): the pool as
 * both front doors project it ({@link PoolViews}, one vocabulary with {@code /actuator/pool}), with what only the
 * console adds beside it: borrow rates, wait percentiles, free slots and the event log. Its pool's {@code limits}
 * are the origins' adaptive limits, as {@code /actuator/pool} reads them (empty under fixed sizing). These go to
 * every reader (one stream serves them all), so they are made for a reader who may not see holders
 * (docs/console.md, Security model):
 * no slot names its holder, failure and event texts without client addresses or user names, URLs only when
 * {@code show-values} is {@code always}. Nothing here computes routing: rates and percentiles are handed in.
 */
public final class ConsoleViews {

    /** A value the page has not got (console.js shows the same). */
    static final String NONE = "—";

    /** An origin's URL where the page's data does not show it (Boot's mask). */
    static final String URL_MASKED = "******";

    /** A {@code LEAK} event's detail in the console. */
    static final String LEAK_WITHHELD = "holder thread and borrow stack withheld (the application's log has them, "
            + "at WARNING)";

    private ConsoleViews() {
    }

    /**
     * The reader of the page's data: every reader at once, so one who may not see holders.
     *
     * @param showUrls whether origin URLs are shown
     */
    static PoolViews.Reader everyReader(boolean showUrls, UnaryOperator<String> forReaders) {
        return new PoolViews.Reader(false, url -> showUrls || url == null ? url : URL_MASKED, forReaders);
    }

    /**
     * The whole page: the pool ({@link PoolViews#pool}), what the console measures beside it, the event log
     * (newest first).
     */
    public record ConsoleView(PoolView pool, Live live, List<EventRow> events) {

        /** How the page draws a slot first (console.js draws the stream's the same way). */
        public Cell cell(SlotView x) {
            return ConsoleViews.cell(x);
        }

        /** A pooler view's max wait as the page shows it (console.js the same): seconds, to the millisecond. */
        public String maxWait(@Nullable PoolerView v) {
            return v == null ? NONE : BigDecimal.valueOf(v.maxWaitMicros(), 6).setScale(3, RoundingMode.HALF_UP)
                    .stripTrailingZeros().toPlainString() + " s";
        }

        /** The origin's adaptive limit, or null (fixed sizing, or an origin that has none). */
        public @Nullable LimitSnapshot limit(String origin) {
            List<LimitSnapshot> limits = pool.limits();
            return limits == null ? null
                    : limits.stream().filter(l -> l.origin().equals(origin)).findFirst().orElse(null);
        }

        /** Whether a limit is pinned, as the page shows it (console.js the same): {@code no}, or {@code at 12}. */
        public String pinned(LimitSnapshot l) {
            return l.pinned() > 0 ? "at " + l.pinned() : "no";
        }

        /** When a pooler view was read, as the page shows it (console.js the same): UTC, to the second. */
        public String readAt(@Nullable PoolerView v) {
            return v == null ? NONE : v.readAt().truncatedTo(ChronoUnit.SECONDS).toString();
        }
    }

    /**
     * What the console measures beside the snapshot. {@code freeSlots} are table slots no origin holds (drawn as
     * empty cells); {@code borrowRate} is borrows per second between the last two samples; the wait percentiles
     * are the slowest origin's, in milliseconds, or null without a MeterRegistry; {@code origins} each origin's
     * own, by name; {@code at} when the view was taken (epoch milliseconds, the server's clock, as the history's
     * points), so the chart places a stream event on the history's time axis.
     */
    public record Live(long at, int freeSlots, double borrowRate, Double waitP50Millis, Double waitP99Millis,
                       Map<String, OriginLive> origins) {
    }

    /** An origin's borrows per second and wait percentiles (null without a MeterRegistry). */
    public record OriginLive(double borrowRate, Double waitP50Millis, Double waitP99Millis) {
    }

    /**
     * A slot's cell: {@code css} its class ({@code reserved, available, held, borrowed, closing, retiring}: retiring is
     * borrowed and to be closed at return), {@code symbol} the letter drawn in it (so colour is not the only
     * carrier), {@code title} the hover and screen-reader text.
     */
    public record Cell(String css, String symbol, String title) {
    }

    /** One line of the event log; {@code type} is the engine's {@link PoolEvent.Type}. */
    public record EventRow(long seq, String at, String type, String origin, String reason, String detail) {
    }

    /**
     * The chart's history (docs/console.md, Chart and history): one point a second over the last
     * {@code capacity} seconds at most, oldest first; a second the sampler missed has no point.
     */
    public record History(long intervalMillis, int capacity, List<HistoryPoint> points) {
    }

    /** One second: its start (epoch milliseconds), the pool's values and each origin's, by name. */
    public record HistoryPoint(long at, HistoryValues pool, Map<String, HistoryValues> origins) {
    }

    /**
     * Values of one second. {@code waiting} is the pool's only (null for an origin: a waiting borrower takes a
     * connection of any origin); {@code waitP99Millis} is null without a MeterRegistry; the connections by state
     * as the snapshot counts them; {@code limit} and {@code heldBack} the adaptive limit and the connections held
     * back above it (the pool's: its origins' summed), both null under fixed sizing.
     */
    public record HistoryValues(double borrowRate, Integer waiting, Double waitP99Millis, int available,
                                int borrowed, int creating, int closing, Integer limit, Integer heldBack) {
    }

    /** The event log as {@code GET {path}/events} answers it: the filters applied and the events, newest first. */
    public record EventLog(String pool, List<String> origins, List<String> types, List<EventRow> events) {
    }

    /** Borrow rates per second: the pool's and each origin's. */
    public record Rates(double pool, Map<String, Double> origins) {

        static final Rates NONE = new Rates(0, Map.of());

        double of(String origin) {
            return origins.getOrDefault(origin, 0.0);
        }
    }

    /** p50 and p99 of the borrow wait, in milliseconds. */
    public record Percentiles(Double p50Millis, Double p99Millis) {
    }

    /** The page's data: the pool with its origins' adaptive limits ({@code limits}: empty under fixed sizing). */
    static ConsoleView view(long at, PoolSnapshot s, List<LimitSnapshot> limits, Rates rates, WaitPercentiles waits,
                            List<EventRow> events, PoolViews.Reader reader) {
        Double p50 = null;
        Double p99 = null;
        int held = 0;
        Map<String, OriginLive> origins = new LinkedHashMap<>();
        for (OriginSnapshot o : s.origins()) {
            Percentiles p = waits.of(s.name(), o.name());
            if (p != null) {
                p50 = max(p50, p.p50Millis());
                p99 = max(p99, p.p99Millis());
            }
            held += o.slots().size();
            origins.put(o.name(), new OriginLive(oneDecimal(rates.of(o.name())), p == null ? null : p.p50Millis(),
                    p == null ? null : p.p99Millis()));
        }
        Live live = new Live(at, Math.max(0, s.maxSize() - held), oneDecimal(rates.pool()), p50, p99, origins);
        return new ConsoleView(PoolViews.pool(s, reader, null, limits), live,
                events.stream().map(e -> forReaders(e, reader)).toList());
    }

    /** An event as every reader may see it: without its holder ({@link #withoutHolder}), addresses or user names. */
    static EventRow forReaders(EventRow e, PoolViews.Reader reader) {
        EventRow r = withoutHolder(e);
        return new EventRow(r.seq(), r.at(), r.type(), r.origin(), reader.text(r.reason()), reader.text(r.detail()));
    }

    /**
     * The event without what names a holder: a {@code LEAK} event's detail names the holder's thread and its
     * borrow stack. The page's data, its stream and the log's download go to every reader, and only those who may
     * see holders see one (docs/console.md, Security model), so the console's log never shows them; the engine
     * logs the event, holder included, at WARNING.
     */
    static EventRow withoutHolder(EventRow e) {
        return PoolEvent.Type.LEAK.name().equals(e.type()) ? new EventRow(e.seq(), e.at(), e.type(), e.origin(),
                e.reason(), LEAK_WITHHELD) : e;
    }

    static Cell cell(SlotView x) {
        String css = x.retiring() && x.state() == SlotState.BORROWED ? "retiring"
                : x.state().name().toLowerCase(Locale.ROOT);
        String symbol = switch (css) {
            case "reserved" -> "R";
            case "available" -> "A";
            case "held" -> "H";
            case "borrowed" -> "B";
            case "closing" -> "C";
            case "retiring" -> "X";
            default -> "·";
        };
        String label = "retiring".equals(css) ? "borrowed, retiring" : css;
        return new Cell(css, symbol, "slot " + x.index() + ": " + label + ", " + x.borrowCount()
                + (x.borrowCount() == 1 ? " borrow" : " borrows"));
    }

    private static Double max(Double a, Double b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : Math.max(a, b);
    }
}
