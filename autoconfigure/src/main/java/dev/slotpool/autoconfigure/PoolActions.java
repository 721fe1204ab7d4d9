package dev.slotpool.autoconfigure;

import dev.slotpool.LimitSnapshot;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.SlotPoolDataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * An operator's action on a pool, one way for the Actuator endpoint, the console, JMX and the Oracle FAN adapter:
 * each front door reads its request into one typed {@link Action} (the text rules are {@link PoolActionInput}'s;
 * a console button names its action by its path, so it reads only its field), and {@link #apply} hands it to the
 * engine operation with the selector as given ({@link SlotPoolDataSource#drain}: an origin's name or
 * {@code key=value[,key=value]} such as {@code host=db3}), which the engine resolves once. The answer is an
 * {@link Outcome} or a {@link Problem} (400) with the pool unchanged: the engine's operations are all-or-nothing,
 * so a refusal at any step changes nothing (docs/operations.md, Write operations). Every action applied or refused
 * here is one INFO line of the {@value #AUDIT_LOGGER} logger naming the pool, the action, who asked (when known)
 * and through which door, and the outcome (docs/console.md, Audit log).
 */
public final class PoolActions {

    /** The logger of the audit lines: one per action, applied or refused. */
    public static final String AUDIT_LOGGER = "dev.slotpool.audit";

    private static final Log audit = LogFactory.getLog(AUDIT_LOGGER);

    /** Drain timeout when a drain names none: an operator's drain, and a planned FAN DOWN without one. */
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);

    private PoolActions() {
    }

    /**
     * Who asks for an action, for the audit line.
     *
     * @param door {@code console}, {@code actuator}, {@code jmx} or {@code oracle-fan}
     * @param user the user Spring Security (or the container) authenticated, null when none is known
     */
    public record Caller(String door, @Nullable String user) {

        public Caller {
            Objects.requireNonNull(door, "door");
        }

        /** A caller through {@code door} with this principal, or none. */
        public static Caller of(String door, java.security.@Nullable Principal principal) {
            return new Caller(door, principal == null ? null : principal.getName());
        }

        @Override
        public String toString() {
            return "via " + door + (user == null ? ", no user" : ", user '" + user + "'");
        }
    }

    /** What an answer carries: the outcome of an applied action, or the refusal. */
    public sealed interface Result permits Outcome, Problem {
    }

    /**
     * An applied action, as both front doors answer it.
     *
     * @param action  {@code rebalance}, {@code drain}, {@code down}, {@code up} or {@code switchover}
     * @param origin  the selector the action named, null for a rebalance
     * @param outcome what the pool does now, e.g. {@code draining within 30s}
     * @param pool    the pool after the action as the door's reader sees it ({@link #showing}); null until a front
     *                door adds it (JMX and the FAN adapter answer the outcome alone)
     */
    public record Outcome(String action, @Nullable String origin, String outcome, PoolViews.@Nullable PoolView pool)
            implements Result {

        /** This outcome with the pool's view after it. */
        public Outcome showing(PoolViews.PoolView view) {
            return new Outcome(action, origin, outcome, view);
        }
    }

    /** The body of a refused request (400, 403, 404): the endpoint's and the console's. */
    public record Problem(int status, String error, String message) implements Result {

        public static Problem badRequest(String message) {
            return new Problem(400, "Bad Request", message);
        }

        public static Problem notFound(String message) {
            return new Problem(404, "Not Found", message);
        }

        public static Problem forbidden(String message) {
            return new Problem(403, "Forbidden", message);
        }
    }

    /** The operations an operator may ask for; {@link #label()} is the name a request and an answer use. */
    public enum Kind {
        REBALANCE, DRAIN, DOWN, UP, SWITCHOVER, LIMIT;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One parsed action, ready to apply to the origins a selector names (a rebalance: the whole pool).
     *
     * @param weights a rebalance's weights in the order given, null for the configured weights
     * @param timeout a drain's timeout; a switchover's (its wait for the primary's transactions, then for the
     *                standby's catch-up)
     * @param to      a switchover's standby, the origin to promote
     * @param limit   a limit action's value: a number to pin at, {@code fixed} (the ceiling) or {@code adaptive}
     */
    public record Action(Kind kind, @Nullable Map<String, Integer> weights, @Nullable Duration timeout,
                         @Nullable String to, @Nullable String limit) {

        public Action {
            Objects.requireNonNull(kind, "kind");
            if (kind == Kind.DRAIN || kind == Kind.SWITCHOVER) {
                Objects.requireNonNull(timeout, "a drain's or switchover's timeout");
            }
            if (kind == Kind.SWITCHOVER) {
                Objects.requireNonNull(to, "a switchover's standby");
            }
            if (kind == Kind.LIMIT) {
                Objects.requireNonNull(limit, "a limit action's value");
            }
        }

        /** Back to the configured weights ({@code weights} null), or to these weights. */
        public static Action rebalance(@Nullable Map<String, Integer> weights) {
            return new Action(Kind.REBALANCE,
                    weights == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(weights)), null, null, null);
        }

        public static Action drain(Duration timeout) {
            return new Action(Kind.DRAIN, null, timeout, null, null);
        }

        public static Action down() {
            return new Action(Kind.DOWN, null, null, null, null);
        }

        public static Action up() {
            return new Action(Kind.UP, null, null, null, null);
        }

        /** A planned switchover from the selected primary to the standby {@code to} (docs/failover.md, "Planned
         * switchover"). */
        public static Action switchover(String to, Duration timeout) {
            return new Action(Kind.SWITCHOVER, null, timeout, to, null);
        }
    }

    /** An adaptive limit pinned ({@code limit} a number, or {@code fixed}: the ceiling) or released
     * ({@code adaptive}), as {@link PoolActionInput#limit} reads it. */
    public static Action limitAction(String limit) {
        return new Action(Kind.LIMIT, null, null, null, limit);
    }

    /** An action read from a request's text: its {@link IllegalArgumentException} is the refusal's message. */
    @FunctionalInterface
    public interface Request {

        Action read();
    }

    /** Reads the request, then applies its action ({@link #apply(SlotPoolDataSource, String, Action, Caller)}). */
    public static Result apply(SlotPoolDataSource pool, @Nullable String selector, Request request, Caller caller) {
        Action action;
        try {
            action = request.read();
        } catch (IllegalArgumentException e) {
            audit.info("pool " + pool.getPoolName() + ": a request on "
                    + (selector == null ? "the pool" : "'" + PoolActionInput.quoted(selector) + "'") + " " + caller
                    + " refused: " + e.getMessage());
            return Problem.badRequest(e.getMessage());
        }
        return apply(pool, selector, action, caller);
    }

    /**
     * Applies an action to the origins {@code selector} names (null for a rebalance). The engine resolves the
     * selector, once; its refusal (an unknown origin, a selector matching nothing, a weight it rejects) is the
     * problem's message, cut for an answer. A mark up or down that found every origin it names already so says
     * that nothing changed. The audit line names {@code caller}.
     */
    public static Result apply(SlotPoolDataSource pool, @Nullable String selector, Action action, Caller caller) {
        Result result = applied(pool, selector, action);
        String what = action.kind().label() + (selector == null ? "" : " '" + PoolActionInput.quoted(selector) + "'");
        audit.info("pool " + pool.getPoolName() + ": " + what + " " + caller + (result instanceof Outcome o
                ? ": " + o.outcome() : " refused: " + ((Problem) result).message()));
        return result;
    }

    private static Result applied(SlotPoolDataSource pool, @Nullable String selector, Action action) {
        String outcome;
        try {
            outcome = switch (action.kind()) {
                case REBALANCE -> {
                    if (action.weights() == null) {
                        pool.rebalanceToConfigured();
                        yield "moving toward the configured weights";
                    }
                    pool.rebalance(action.weights());
                    yield "moving toward " + action.weights();
                }
                case DRAIN -> {
                    pool.drain(selector, action.timeout());
                    yield "draining within " + print(action.timeout());
                }
                case DOWN -> {
                    Map<String, OriginState> before = states(pool);
                    pool.markDown(selector);
                    yield before.equals(states(pool)) ? "nothing changed: already DOWN" : "marked DOWN";
                }
                case UP -> {
                    Map<String, OriginState> before = states(pool);
                    pool.markUp(selector);
                    yield before.equals(states(pool)) ? "nothing changed: already UP" : "marked UP";
                }
                case SWITCHOVER -> pool.prepareSwitchover(selector, action.to(), action.timeout()).summary();
                case LIMIT -> limit(pool, Objects.requireNonNull(selector, "an origin"),
                        Objects.requireNonNull(action.limit()));
            };
        } catch (IllegalArgumentException | IllegalStateException e) {
            return Problem.badRequest(PoolActionInput.message(e));
        }
        return new Outcome(action.kind().label(), selector, outcome, null);
    }

    /** Pins or releases an origin's adaptive limit; the engine refuses an unknown origin, a limit out of its bounds
     * and a pool with fixed sizing. */
    private static String limit(SlotPoolDataSource pool, String origin, String limit) {
        if (limit.equals("adaptive")) {
            pool.releaseLimit(origin);
            return "limit handed back to the controller";
        }
        int to = limit.equals("fixed") ? pool.limits().stream().filter(l -> l.origin().equals(origin))
                .mapToInt(LimitSnapshot::ceiling).findFirst().orElse(Integer.MAX_VALUE) : Integer.parseInt(limit);
        pool.pinLimit(origin, to);
        return "limit pinned at " + to;
    }

    /**
     * Each origin's state: a mark up or down that leaves them all as they were changed nothing (the engine
     * resolves the selector, so the states of all origins are compared, not those of the origins it names).
     */
    private static Map<String, OriginState> states(SlotPoolDataSource pool) {
        return pool.snapshot().origins().stream().collect(Collectors.toMap(OriginSnapshot::name,
                OriginSnapshot::state, (a, b) -> a, LinkedHashMap::new));
    }

    /** {@code 30s}, {@code 1500ms}: a duration as a request would write it, not {@code PT30S}. */
    public static String print(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
