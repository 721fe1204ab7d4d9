package dev.slotpool.console;

import dev.slotpool.OriginSnapshot;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotSnapshot;
import dev.slotpool.SlotState;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

import static dev.slotpool.autoconfigure.endpoint.PoolViews.oneDecimal;

/**
 * The console's view records (the page model, {@code GET {path}/snapshot} and each server-sent event), made
 * from a {@link PoolSnapshot}. These go to every reader (one stream serves them all), so they carry what any reader
 * may see (docs/console.md, Security model): no holder thread, label or borrow stack, failure and event texts without
 * client addresses or user names, URLs only when {@code show-values} is {@code always}. URLs arrive redacted from
 * the engine; no password or connection property is copied. Nothing here computes routing: rates and percentiles
 * are handed in.
 */
public final class ConsoleViews {

    /** An origin's URL where the page's data does not show it (Boot's mask). */
    static final String URL_MASKED = "******";

    /**
     * What every reader of the page's data may see.
     *
     * @param showUrls   whether origin URLs are shown
     * @param forReaders a failure or event text without client addresses and user names
     */
    record Readers(boolean showUrls, UnaryOperator<String> forReaders) {

        /** Everything as it is: for tests of the shapes only. */
        static final Readers ALL = new Readers(true, UnaryOperator.identity());
    }

    /** A {@code LEAK} event's detail in the console. */
    static final String LEAK_WITHHELD = "holder thread and borrow stack withheld (the application's log has them, "
            + "at WARNING)";

    private ConsoleViews() {
    }

    /** The whole page: the pool header, one card per origin, the event log (newest first). */
    public record ConsoleView(Header header, List<OriginCard> origins, List<EventRow> events) {
    }

    /**
     * The pool header. {@code freeSlots} are table slots no origin holds (drawn as empty cells);
     * {@code borrowRate} is borrows per second between the last two samples; the wait percentiles are the
     * slowest origin's, in milliseconds, or null without a MeterRegistry.
     */
    public record Header(String name, String state, int min, int max, int total, int available, int borrowed,
                         int creating, int closing, int freeSlots, int waiting, long oldestWaitMillis, long borrows,
                         double borrowRate, Double waitP50Millis, Double waitP99Millis, long timeouts,
                         long connectionsOpened, long connectionsClosed, String lastCreationFailure) {
    }

    /** One origin: its state, dimensions, routing shares, counts and one cell per slot it holds or is opening. */
    public record OriginCard(String name, String url, String state, String stateReason, String service,
                             String database, String instance, String host, int weight, double targetShare,
                             double actualShare, int total, int available, int borrowed, int creating, int closing,
                             long borrows, double borrowRate, Double waitP50Millis, Double waitP99Millis,
                             List<SlotCell> slots) {
    }

    /**
     * One slot. {@code state} is the cell's class ({@code reserved, available, borrowed, closing, retiring}:
     * retiring is borrowed and to be closed at return), {@code symbol} the letter drawn in the cell (so colour is
     * not the only carrier), {@code label} its text, {@code title} the hover and
     * screen-reader text. Times in milliseconds, -1 where they do not apply.
     */
    public record SlotCell(int index, String state, String symbol, String label, String title, long borrowCount, long ageMillis,
                           long idleMillis, long heldMillis, String holderThread, Map<String, String> labels) {
    }

    /**
     * A slot in full, for the detail dialog: the cell plus the borrow stack (leak tracing only, else null). The
     * holder thread, labels and the stack only for a request that may act (docs/console.md, Security model), else
     * null.
     */
    public record SlotDetail(String origin, SlotCell slot, String borrowStack) {
    }

    /** One line of the event log. */
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
     * as the snapshot counts them.
     */
    public record HistoryValues(double borrowRate, Integer waiting, Double waitP99Millis, int available,
                                int borrowed, int creating, int closing) {
    }

    /** The event log as {@code GET {path}/events} answers it: the filters applied and the events, newest first. */
    public record EventLog(String pool, List<String> origins, List<String> kinds, List<EventRow> events) {
    }

    /** An action's answer. */
    public record Outcome(String action, String origin, String outcome) {
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

    static ConsoleView view(PoolSnapshot s, Rates rates, WaitPercentiles waits, List<EventRow> events,
                            Readers readers) {
        Double p50 = null;
        Double p99 = null;
        int held = 0;
        List<OriginCard> cards = new java.util.ArrayList<>(s.origins().size());
        for (OriginSnapshot o : s.origins()) {
            Percentiles p = waits.of(s.name(), o.name());
            if (p != null) {
                p50 = max(p50, p.p50Millis());
                p99 = max(p99, p.p99Millis());
            }
            held += o.slots().size();
            cards.add(origin(o, rates.of(o.name()), p, readers));
        }
        Header header = new Header(s.name(), s.closed() ? "CLOSED" : "OPEN", s.minSize(), s.maxSize(), s.total(),
                s.available(), s.borrowed(), s.creating(), s.closing(), Math.max(0, s.maxSize() - held), s.waiting(),
                s.oldestWaitMillis(), s.borrows(), oneDecimal(rates.pool()), p50, p99, s.timeouts(),
                s.connectionsOpened(), s.connectionsClosed(),
                s.lastCreationFailure().map(readers.forReaders()).orElse(null));
        return new ConsoleView(header, cards, events.stream().map(e -> forReaders(e, readers)).toList());
    }

    /** An event as every reader may see it: without its holder ({@link #withoutHolder}), addresses or user names. */
    static EventRow forReaders(EventRow e, Readers readers) {
        EventRow r = withoutHolder(e);
        UnaryOperator<String> t = readers.forReaders();
        return new EventRow(r.seq(), r.at(), r.type(), r.origin(), r.reason() == null ? null : t.apply(r.reason()),
                r.detail() == null ? null : t.apply(r.detail()));
    }

    /**
     * The event without what names a holder: a {@code LEAK} event's detail names the holder's thread and its
     * borrow stack. The page's data, its stream and the log's download go to every reader, and only those who may
     * act see a holder (docs/console.md, Security), so the console's log never shows them; the engine logs the
     * event, holder included, at WARNING.
     */
    static EventRow withoutHolder(EventRow e) {
        return PoolEvent.Type.LEAK.name().equals(e.type()) ? new EventRow(e.seq(), e.at(), e.type(), e.origin(),
                e.reason(), LEAK_WITHHELD) : e;
    }

    static OriginCard origin(OriginSnapshot o, double rate, Percentiles p, Readers readers) {
        // An UP origin whose server refuses new sessions says so where the reason of its state is shown.
        String reason = o.refusingNewSessions() ? "refusing new sessions"
                : o.stateReason() == null ? null : readers.forReaders().apply(o.stateReason());
        return new OriginCard(o.name(), readers.showUrls() || o.url() == null ? o.url() : URL_MASKED, o.state().name(),
                reason, o.service(), o.database(),
                o.instance(), o.host(), o.weight(), oneDecimal(o.targetShare()), oneDecimal(o.actualShare()), o.total(),
                o.available(), o.borrowed(), o.creating(), o.closing(), o.borrows(), oneDecimal(rate),
                p == null ? null : p.p50Millis(), p == null ? null : p.p99Millis(),
                o.slots().stream().map(x -> slot(x, false)).toList());
    }

    /** A slot's cell; {@code holder}: whether it names who holds it, thread and labels (only for who may act). */
    static SlotCell slot(SlotSnapshot x, boolean holder) {
        String state = x.retiring() && x.state() == SlotState.BORROWED ? "retiring"
                : x.state().name().toLowerCase(Locale.ROOT);
        String label = "retiring".equals(state) ? "borrowed, retiring" : state;
        String title = "slot " + x.index() + ": " + label + ", " + x.borrowCount()
                + (x.borrowCount() == 1 ? " borrow" : " borrows");
        String symbol = switch (state) {
            case "reserved" -> "R";
            case "available" -> "A";
            case "held" -> "H";
            case "borrowed" -> "B";
            case "closing" -> "C";
            case "retiring" -> "X";
            default -> "·";
        };
        return new SlotCell(x.index(), state, symbol, label, title, x.borrowCount(), x.ageMillis(), x.idleMillis(),
                x.heldMillis(), holder ? x.holderThread() : null, holder ? x.labels() : null);
    }

    private static Double max(Double a, Double b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : Math.max(a, b);
    }

}
