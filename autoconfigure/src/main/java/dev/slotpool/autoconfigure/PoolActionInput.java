package dev.slotpool.autoconfigure;

import dev.slotpool.PoolSnapshot;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The text rules of a pool action, by which a front door reads a request into one typed
 * {@link PoolActions.Action} (the endpoint its {@code action} text, the console and JMX their fields): weights as {@code origin=weight} pairs and a drain timeout in Boot's duration syntax. Each parse throws an
 * {@link IllegalArgumentException} whose message is the answer's message (the table in
 * {@code docs/operations.md}); the engine's own checks (unknown origin, negative weight, all zero) stay in the
 * engine.
 */
public final class PoolActionInput {

    /** Longest weights text parsed: room for hundreds of origins, and a 5 MB body is refused before any parse. */
    public static final int MAX_WEIGHTS_LENGTH = 64 * 1024;

    /** Longest piece of a request quoted back in a message, so an answer never echoes a huge body. */
    static final int MAX_QUOTED = 80;

    /** Longest message an answer carries (the engine lists every problem of a rebalance). */
    static final int MAX_MESSAGE = 2000;

    private PoolActionInput() {
    }

    /**
     * A pool action's text: {@code rebalance}, to the configured weights when {@code weights} is null, else to the
     * {@code origin=weight} pairs it lists.
     *
     * @throws IllegalArgumentException for another action or bad weights
     */
    public static PoolActions.Action poolAction(@Nullable String action, @Nullable String weights) {
        if (!"rebalance".equals(normalize(action))) {
            throw new IllegalArgumentException("unknown pool action '" + quoted(String.valueOf(action))
                    + "' (allowed: rebalance)");
        }
        return rebalance(weights);
    }

    /**
     * A rebalance to the configured weights ({@code weights} null) or to the {@code origin=weight} pairs listed.
     *
     * @throws IllegalArgumentException for bad weights ({@link #weights})
     */
    public static PoolActions.Action rebalance(@Nullable String weights) {
        return PoolActions.Action.rebalance(weights == null ? null : weights(weights));
    }

    /**
     * An origin action's text: {@code drain} within {@code timeout} (null: {@link PoolActions#DEFAULT_DRAIN_TIMEOUT}),
     * {@code down} or {@code up}, any case.
     *
     * @throws IllegalArgumentException for another action, a timeout with an action other than drain, or a bad
     *                                  timeout
     */
    public static PoolActions.Action originAction(@Nullable String action, @Nullable String timeout) {
        return originAction(action, timeout, null);
    }

    /**
     * An origin action's text: {@code drain} within {@code timeout} (null: {@link PoolActions#DEFAULT_DRAIN_TIMEOUT}),
     * {@code down}, {@code up}, or {@code switchover} to the standby {@code to} within {@code timeout} (null: the
     * same default), any case.
     *
     * @throws IllegalArgumentException for another action, a timeout with an action other than drain or
     *                                  switchover, a {@code to} with an action other than switchover, a switchover
     *                                  without one, or a bad timeout
     */
    public static PoolActions.Action originAction(@Nullable String action, @Nullable String timeout,
                                                  @Nullable String to) {
        return originAction(action, timeout, to, null);
    }

    /**
     * An origin action's text, {@link #originAction(String, String, String)}'s or {@code limit} with {@code limit}:
     * a number to pin the origin's adaptive limit at, {@code fixed} (its ceiling) or {@code adaptive} (released).
     *
     * @throws IllegalArgumentException as {@link #originAction(String, String, String)}, or for a {@code limit}
     *                                  with another action, a limit action without one, or a bad one
     */
    public static PoolActions.Action originAction(@Nullable String action, @Nullable String timeout,
                                                  @Nullable String to, @Nullable String limit) {
        String a = normalize(action);
        if (limit != null && !"limit".equals(a)) {
            throw new IllegalArgumentException("'limit' applies to the limit action only");
        }
        if ("limit".equals(a)) {
            if (timeout != null || to != null) {
                throw new IllegalArgumentException("the limit action takes 'limit' only");
            }
            return PoolActions.limitAction(limit(limit));
        }
        if (timeout != null && !"drain".equals(a) && !"switchover".equals(a)) {
            throw new IllegalArgumentException("'timeout' applies to drain and switchover only");
        }
        if (to != null && !"switchover".equals(a)) {
            throw new IllegalArgumentException("'to' applies to switchover only");
        }
        return switch (a) {
            case "drain" -> PoolActions.Action.drain(drainTimeout(timeout));
            case "down" -> PoolActions.Action.down();
            case "up" -> PoolActions.Action.up();
            case "switchover" -> switchover(to, timeout);
            default -> throw new IllegalArgumentException("unknown origin action '" + quoted(String.valueOf(action))
                    + "' (allowed: drain, down, up, switchover, limit)");
        };
    }

    /**
     * A limit action's value: {@code fixed}, {@code adaptive} (any case) or a whole number from 1 to 100000.
     *
     * @throws IllegalArgumentException for anything else, or none
     */
    public static String limit(@Nullable String limit) {
        if (limit == null || limit.isBlank()) {
            throw new IllegalArgumentException("the limit action needs 'limit': a number, fixed or adaptive");
        }
        String l = limit.trim().toLowerCase(java.util.Locale.ROOT);
        if (l.equals("fixed") || l.equals("adaptive")) {
            return l;
        }
        if (l.length() > 6 || !l.chars().allMatch(c -> c >= '0' && c <= '9') || Integer.parseInt(l) < 1
                || Integer.parseInt(l) > 100_000) {
            throw new IllegalArgumentException("bad limit '" + quoted(limit)
                    + "': a whole number from 1 to 100000, fixed or adaptive");
        }
        return l;
    }

    /**
     * A planned switchover to the standby {@code to} within {@code timeout} (null:
     * {@link PoolActions#DEFAULT_DRAIN_TIMEOUT}).
     *
     * @throws IllegalArgumentException without a standby, or for a bad timeout
     */
    public static PoolActions.Action switchover(@Nullable String to, @Nullable String timeout) {
        if (to == null || to.isBlank()) {
            throw new IllegalArgumentException("a switchover needs 'to': the standby to promote");
        }
        return PoolActions.Action.switchover(to.trim(), drainTimeout(timeout));
    }

    /**
     * {@code "east=70,west=20"} as an ordered map. Signs are allowed, so the engine names a negative weight.
     *
     * @throws IllegalArgumentException for a pair that is not {@code origin=whole number}, an origin twice, or
     *                                  text longer than {@link #MAX_WEIGHTS_LENGTH}
     */
    public static Map<String, Integer> weights(String weights) {
        if (weights.length() > MAX_WEIGHTS_LENGTH) {
            throw new IllegalArgumentException("weights are " + weights.length() + " characters long; at most "
                    + MAX_WEIGHTS_LENGTH + " are read");
        }
        Map<String, Integer> parsed = new LinkedHashMap<>();
        for (String pair : weights.split(",", -1)) {
            int eq = pair.indexOf('=');
            String origin = eq < 0 ? pair.trim() : pair.substring(0, eq).trim();
            Integer w = eq < 0 ? null : integer(pair.substring(eq + 1).trim());
            if (origin.isEmpty() || w == null) {
                throw new IllegalArgumentException("weights must be origin=weight pairs with whole numbers ≥ 0, "
                        + "separated by commas (e.g. east=70,west=30); '" + quoted(pair.trim()) + "' is not");
            }
            if (parsed.put(origin, w) != null) {
                throw new IllegalArgumentException("origin '" + quoted(origin) + "' is given twice in weights");
            }
        }
        return parsed;
    }

    /**
     * A drain timeout ({@code 30s}, {@code 2m}, {@code PT30S}, milliseconds); null means
     * {@link PoolActions#DEFAULT_DRAIN_TIMEOUT}.
     *
     * @throws IllegalArgumentException for text that is not a duration, or a negative one
     */
    public static Duration drainTimeout(@Nullable String timeout) {
        if (timeout == null) {
            return PoolActions.DEFAULT_DRAIN_TIMEOUT;
        }
        Duration t;
        try {
            t = DurationStyle.detectAndParse(timeout);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("timeout '" + quoted(timeout) + "' is not a duration (e.g. 30s, 2m, PT30S)");
        }
        if (t.isNegative()) {
            throw new IllegalArgumentException("timeout must be ≥ 0 (was " + quoted(timeout) + ")");
        }
        return t;
    }

    /** The message for an origin the pool does not have, naming the ones it has. */
    public static String unknownOrigin(String origin, PoolSnapshot s) {
        return "unknown origin '" + quoted(origin) + "' (known origins: "
                + String.join(", ", s.origins().stream().map(o -> o.name()).toList()) + ")";
    }

    /** A piece of a request for a message: itself, or its start and its length when it is long. */
    public static String quoted(String input) {
        return input.length() <= MAX_QUOTED ? input
                : input.substring(0, MAX_QUOTED) + "… (" + input.length() + " characters)";
    }

    /** An operation's refusal for an answer, cut at {@link #MAX_MESSAGE} characters. */
    public static String message(RuntimeException refusal) {
        String m = String.valueOf(refusal.getMessage());
        return m.length() <= MAX_MESSAGE ? m : m.substring(0, MAX_MESSAGE) + "… (" + m.length() + " characters)";
    }

    private static String normalize(@Nullable String action) {
        return action == null ? "" : action.trim().toLowerCase(Locale.ROOT);
    }

    /** A whole number (sign allowed: the engine names a negative weight), or null. */
    private static Integer integer(String value) {
        if (!value.matches("[+-]?\\d{1,9}")) {
            return null;
        }
        return Integer.valueOf(value);
    }
}
