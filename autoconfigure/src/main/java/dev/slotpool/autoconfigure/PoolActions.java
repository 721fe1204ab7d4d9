package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * An operator's action on a pool, one way for the Actuator endpoint, the console and the Oracle FAN adapter:
 * parse the action (rebalance with or without weights, drain with a timeout, down, up; the text rules are
 * {@link PoolActionInput}'s), resolve the origins through the engine's selector
 * ({@link SlotPoolDataSource#select}: an origin's name or {@code key=value[,key=value]} such as {@code host=db3}),
 * apply the engine operation, and answer an {@link Outcome} or a {@link Problem} (400) with the pool unchanged.
 * The engine's operations are all-or-nothing, so a refusal at any step changes nothing (docs/operations.md,
 * Write operations).
 */
public final class PoolActions {

    /** Drain timeout when a drain names none: an operator's drain, and a planned FAN DOWN without one. */
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);

    private PoolActions() {
    }

    /** What an answer carries: the outcome of an applied action, or the refusal. */
    public sealed interface Result permits Outcome, Problem {
    }

    /**
     * An applied action.
     *
     * @param action  {@code rebalance}, {@code drain}, {@code down} or {@code up}
     * @param origin  the selector the action named, null for a rebalance
     * @param outcome what the pool does now, e.g. {@code draining within 30s}
     */
    public record Outcome(String action, @Nullable String origin, String outcome) implements Result {
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
        REBALANCE, DRAIN, DOWN, UP;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One parsed action, ready to apply to the origins a selector names (a rebalance: the whole pool).
     *
     * @param weights a rebalance's weights in the order given, null for the configured weights
     * @param timeout a drain's timeout
     */
    public record Action(Kind kind, @Nullable Map<String, Integer> weights, @Nullable Duration timeout) {

        public Action {
            Objects.requireNonNull(kind, "kind");
            if (kind == Kind.DRAIN) {
                Objects.requireNonNull(timeout, "a drain's timeout");
            }
        }

        /** Back to the configured weights ({@code weights} null), or to these weights. */
        public static Action rebalance(@Nullable Map<String, Integer> weights) {
            return new Action(Kind.REBALANCE,
                    weights == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(weights)), null);
        }

        public static Action drain(Duration timeout) {
            return new Action(Kind.DRAIN, null, timeout);
        }

        public static Action down() {
            return new Action(Kind.DOWN, null, null);
        }

        public static Action up() {
            return new Action(Kind.UP, null, null);
        }
    }

    /**
     * A pool action: {@code rebalance}, to the configured weights when {@code weights} is null, else to the
     * {@code origin=weight} pairs it lists.
     */
    public static Result poolAction(SlotPoolDataSource pool, @Nullable String action, @Nullable String weights) {
        if (!"rebalance".equals(normalize(action))) {
            return Problem.badRequest("unknown pool action '" + PoolActionInput.quoted(String.valueOf(action))
                    + "' (allowed: rebalance)");
        }
        if (weights == null) {
            return apply(pool, null, Action.rebalance(null));
        }
        try {
            return apply(pool, null, Action.rebalance(PoolActionInput.weights(weights)));
        } catch (IllegalArgumentException e) {
            return Problem.badRequest(e.getMessage());
        }
    }

    /**
     * An origin action on every origin {@code selector} names: {@code drain} within {@code timeout} (null:
     * {@link #DEFAULT_DRAIN_TIMEOUT}), {@code down} or {@code up}.
     */
    public static Result originAction(SlotPoolDataSource pool, String selector, @Nullable String action,
                                      @Nullable String timeout) {
        Problem unresolved = resolve(pool, selector);
        if (unresolved != null) {
            return unresolved;
        }
        String a = normalize(action);
        if (timeout != null && !"drain".equals(a)) {
            return Problem.badRequest("'timeout' applies to drain only");
        }
        try {
            return switch (a) {
                case "drain" -> apply(pool, selector, Action.drain(PoolActionInput.drainTimeout(timeout)));
                case "down" -> apply(pool, selector, Action.down());
                case "up" -> apply(pool, selector, Action.up());
                default -> Problem.badRequest("unknown origin action '"
                        + PoolActionInput.quoted(String.valueOf(action)) + "' (allowed: drain, down, up)");
            };
        } catch (IllegalArgumentException e) {
            return Problem.badRequest(e.getMessage());
        }
    }

    /**
     * Applies a parsed action to the origins {@code selector} names (null for a rebalance). The engine's refusal
     * (an unknown origin, a weight it rejects) is the problem's message, cut for an answer.
     */
    public static Result apply(SlotPoolDataSource pool, @Nullable String selector, Action action) {
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
                    pool.markDown(selector);
                    yield "marked DOWN";
                }
                case UP -> {
                    pool.markUp(selector);
                    yield "marked UP";
                }
            };
        } catch (IllegalArgumentException | IllegalStateException e) {
            return Problem.badRequest(PoolActionInput.message(e));
        }
        return new Outcome(action.kind().label(), selector, outcome);
    }

    /** {@code 30s}, {@code 1500ms}: a duration as a request would write it, not {@code PT30S}. */
    public static String print(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    /** Null when the selector names at least one origin, else the refusal: an unknown name lists the known ones. */
    private static @Nullable Problem resolve(SlotPoolDataSource pool, String selector) {
        try {
            pool.select(selector);
            return null;
        } catch (IllegalArgumentException e) {
            return Problem.badRequest(selector == null || selector.indexOf('=') >= 0 ? PoolActionInput.message(e)
                    : PoolActionInput.unknownOrigin(selector, pool.snapshot()));
        }
    }

    private static String normalize(@Nullable String action) {
        return action == null ? "" : action.trim().toLowerCase(Locale.ROOT);
    }
}
