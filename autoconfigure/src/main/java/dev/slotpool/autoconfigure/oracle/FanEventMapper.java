package dev.slotpool.autoconfigure.oracle;

import dev.slotpool.OriginSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.PoolActions;
import dev.slotpool.autoconfigure.PoolActions.Action;
import oracle.simplefan.FanUpEventListener;
import oracle.simplefan.LoadAdvisoryEvent;
import oracle.simplefan.NodeDownEvent;
import oracle.simplefan.NodeUpEvent;
import oracle.simplefan.ServiceDownEvent;
import oracle.simplefan.ServiceUpEvent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * Turns Oracle FAN events (simplefan's types) into the pool's origin operations on every origin whose dimensions
 * match the event ({@link EventDimensions}), through {@link PoolActions} as an operator's actions are. Knows no
 * Spring; the glue only maps, the engine decides (docs/architecture.md, Spring Boot integration).
 *
 * <table>
 *   <caption>Events and operations</caption>
 *   <tr><th>simplefan event</th><th>dimensions it names</th><th>operation</th></tr>
 *   <tr><td>{@link ServiceDownEvent}, reason {@code USER}
 *       (planned, e.g. {@code srvctl stop service -drain_timeout})</td>
 *       <td>service, database; instance and host for a member event</td>
 *       <td>{@code drain(origin, drain timeout of the event, else the default)}</td></tr>
 *   <tr><td>{@link ServiceDownEvent}, any other reason (FAILURE, DEPENDENCY, ...)</td><td>as above</td>
 *       <td>{@code markDown(origin)}</td></tr>
 *   <tr><td>{@link NodeDownEvent} (has no reason: always unplanned)</td><td>host</td>
 *       <td>{@code markDown(origin)}</td></tr>
 *   <tr><td>{@link ServiceUpEvent}</td><td>service, database; instance and host for a member event</td>
 *       <td>{@code markUp(origin)}</td></tr>
 *   <tr><td>{@link NodeUpEvent}</td><td>host</td><td>{@code markUp(origin)}</td></tr>
 *   <tr><td>{@link LoadAdvisoryEvent}</td><td>service, database, instance</td>
 *       <td>{@code rebalance} of the advised origins to the advised percentages</td></tr>
 * </table>
 *
 * <p><b>Load advisories.</b> simplefan splits one advisory notification into one event per instance, all with
 * the notification's timestamp, delivered back to back on the subscription's thread. The mapper collects the
 * events of one notification (same service, database and timestamp) into a round and, after each event, calls
 * {@code rebalance} once with every origin the round has advised so far, so the last event of a notification
 * sets all of them in one all-or-nothing call. Origins the advisory does not name keep their weights; a round
 * whose percentages are all 0 is ignored (logged once); an event without a percentage is skipped.
 *
 * <p>Every action is logged at INFO (event, reason, matched origins, operation); an event that matches no origin
 * at DEBUG. An operation the engine refuses, or any other failure, is logged at WARN and never reaches
 * simplefan's thread. Events carry no secrets and nothing here prints a URL or credential. Thread-safe: each
 * subscription delivers on its own thread, so the handlers are serialized on this object (events are rare).
 */
public final class FanEventMapper implements FanUpEventListener {

    private static final Log log = LogFactory.getLog(FanEventMapper.class);

    /** The database's own notices act, not a user: the audit line says the door. */
    private static final PoolActions.Caller FAN = new PoolActions.Caller("oracle-fan", null);

    private final SlotPoolDataSource pool;
    private final Duration drainTimeoutDefault;
    /** The advisory round per service of a database; guarded by {@code this}. */
    private final Map<String, AdvisoryRound> rounds = new HashMap<>();

    /**
     * @param pool                the pool whose origins the events act on
     * @param drainTimeoutDefault used by a planned DOWN whose event has no drain timeout; null means an operator's
     *                            default, {@link PoolActions#DEFAULT_DRAIN_TIMEOUT}
     */
    public FanEventMapper(SlotPoolDataSource pool, Duration drainTimeoutDefault) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.drainTimeoutDefault = drainTimeoutDefault != null ? drainTimeoutDefault : PoolActions.DEFAULT_DRAIN_TIMEOUT;
    }

    @Override
    public synchronized void handleEvent(ServiceDownEvent event) {
        isolated("service DOWN", () -> serviceDown(event));
    }

    @Override
    public synchronized void handleEvent(NodeDownEvent event) {
        isolated("node DOWN", () -> apply("node DOWN", "unplanned, incarnation " + event.getIncarnation(),
                new EventDimensions(null, null, null, event.getNodeName()), "markDown", Action.down()));
    }

    @Override
    public synchronized void handleEvent(ServiceUpEvent event) {
        isolated("service UP", () -> {
            ServiceUpEvent.ServiceMemberEvent member = event.getServiceMemberEvent();
            EventDimensions d = new EventDimensions(event.getServiceName(), event.getDatabaseUniqueName(),
                    member == null ? null : member.getInstanceName(), member == null ? null : member.getNodeName());
            apply("service " + kind(event.getKind()) + "UP", "reason " + event.getReason(), d, "markUp", Action.up());
        });
    }

    @Override
    public synchronized void handleEvent(NodeUpEvent event) {
        isolated("node UP", () -> apply("node UP", "incarnation " + event.getIncarnation(),
                new EventDimensions(null, null, null, event.getNodeName()), "markUp", Action.up()));
    }

    @Override
    public synchronized void handleEvent(LoadAdvisoryEvent event) {
        isolated("load advisory", () -> loadAdvisory(event));
    }

    private void serviceDown(ServiceDownEvent event) {
        ServiceDownEvent.ServiceMemberEvent member = event.getServiceMemberEvent();
        EventDimensions d = new EventDimensions(event.getServiceName(), event.getDatabaseUniqueName(),
                member == null ? null : member.getInstanceName(), member == null ? null : member.getNodeName());
        String what = "service " + kind(event.getKind()) + "DOWN";
        if (event.getReason() == ServiceDownEvent.Reason.USER) {
            int seconds = event.getDrainTimeout(); // FAN's drain_timeout is in seconds; simplefan gives 0 when absent
            Duration timeout = seconds > 0 ? Duration.ofSeconds(seconds) : drainTimeoutDefault;
            String detail = "reason USER (planned), drain timeout " + PoolActions.print(timeout)
                    + (seconds > 0 ? " from the event" : " (default; the event has none)");
            apply(what, detail, d, "drain", Action.drain(timeout));
        } else {
            apply(what, "reason " + event.getReason() + " (unplanned)", d, "markDown", Action.down());
        }
    }

    /**
     * Applies {@code action} ({@link PoolActions}) to every origin matching {@code d}, each by its name on its own
     * (one refusal skips no other).
     */
    private void apply(String event, String detail, EventDimensions d, String operation, Action action) {
        if (d.isEmpty()) {
            log.debug("FAN " + event + " names no service, database, instance or host; ignored (" + detail + ")");
            return;
        }
        List<String> matched = new ArrayList<>();
        for (OriginSnapshot o : pool.snapshot().origins()) {
            if (d.matches(o)) {
                matched.add(o.name());
            }
        }
        if (matched.isEmpty()) {
            if (log.isDebugEnabled()) {
                log.debug("FAN " + event + " [" + d + "] (" + detail + ") matches no origin; ignored");
            }
            return;
        }
        log.info("FAN " + event + " [" + d + "] (" + detail + "): " + operation + " " + matched);
        for (String origin : matched) {
            if (PoolActions.apply(pool, origin, action, FAN) instanceof PoolActions.Problem refusal) {
                log.warn("FAN " + event + " [" + d + "]: " + operation + "(" + origin + ") refused by the pool: "
                        + refusal.message());
            }
        }
    }

    private void loadAdvisory(LoadAdvisoryEvent event) {
        EventDimensions d = new EventDimensions(event.getServiceName(), event.getDatabaseUniqueName(),
                event.getInstanceName(), null);
        int percent = event.getPercent();
        if (d.service() == null || d.instance() == null || percent < 0) {
            if (log.isDebugEnabled()) {
                log.debug("FAN load advisory [" + d + "] without a service, instance or percentage (" + percent
                        + "); skipped");
            }
            return;
        }
        AdvisoryRound round = rounds.get(d.serviceKey());
        if (round == null || !round.sameNotification(event.getTimestamp())) {
            round = new AdvisoryRound(event.getTimestamp());
            rounds.put(d.serviceKey(), round);
        }
        round.advice.put(EventDimensions.lower(d.instance()), new Advice(d, percent));
        String what = "load advisory [service=" + d.service()
                + (d.database() == null ? "" : " database=" + d.database())
                + "] (status " + event.getLoadStatus() + ", " + round + ")";
        if (round.allZero()) {
            if (!round.zeroLogged) {
                round.zeroLogged = true;
                log.info("FAN " + what + ": every advised percentage is 0; ignored, weights unchanged");
            }
            return;
        }
        Map<String, Integer> weights = new LinkedHashMap<>();
        boolean changes = false;
        for (OriginSnapshot o : pool.snapshot().origins()) {
            for (Advice a : round.advice.values()) {
                if (a.dimensions().matches(o)) {
                    weights.put(o.name(), a.percent());
                    changes |= o.weight() != a.percent();
                    break;
                }
            }
        }
        if (weights.isEmpty()) {
            log.debug("FAN " + what + " matches no origin; ignored");
            return;
        }
        if (!changes) {
            log.debug("FAN " + what + ": origins already at " + weights);
            return;
        }
        log.info("FAN " + what + ": rebalance " + weights);
        if (PoolActions.apply(pool, null, Action.rebalance(weights), FAN) instanceof PoolActions.Problem refusal) {
            log.warn("FAN " + what + ": rebalance " + weights + " refused by the pool, weights unchanged: "
                    + refusal.message());
        }
    }

    /** MEMBER (one instance), COMPOSITE (the whole service) or BOTH, followed by a space; empty when unknown. */
    private static String kind(Enum<?> kind) {
        return kind == null ? "" : kind.name() + " ";
    }

    /** Keeps simplefan's thread free of our failures. */
    private static void isolated(String event, Runnable handler) {
        try {
            handler.run();
        } catch (RuntimeException e) {
            log.warn("FAN " + event + " event not applied: " + e, e);
        }
    }

    /** One instance's advice: the dimensions it names and its percentage. */
    private record Advice(EventDimensions dimensions, int percent) {
    }

    /** The events of one advisory notification for one service of one database. */
    private static final class AdvisoryRound {

        private final Date timestamp;
        private final Map<String, Advice> advice = new LinkedHashMap<>();
        private boolean zeroLogged;

        AdvisoryRound(Date timestamp) {
            this.timestamp = timestamp;
        }

        /** simplefan stamps every event of a notification with its creation time; without one, no grouping. */
        boolean sameNotification(Date other) {
            return timestamp != null && timestamp.equals(other);
        }

        boolean allZero() {
            return advice.values().stream().allMatch(a -> a.percent() == 0);
        }

        @Override
        public String toString() {
            StringJoiner j = new StringJoiner(", ", "advised ", "");
            advice.values().forEach(a -> j.add(a.dimensions().instance() + "=" + a.percent() + "%"));
            return j.toString();
        }
    }
}
