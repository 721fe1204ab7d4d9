package dev.slotpool.origins;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Which origins an operator's selector names (docs/failover.md): an origin's name (a configured origin with a
 * discovery query names itself and every origin it discovered), or dimension matches {@code key=value[,...]}
 * over {@code name} and {@link #DIMENSIONS} (every pair must match, case-insensitively), e.g. {@code host=db3}.
 * Also the one list of dimensions a discovery query's labelled columns fill.
 */
public final class OriginSelector {

    /** An origin's dimensions, in {@code OriginConfig}'s order. */
    static final List<String> DIMENSIONS = List.of("service", "database", "instance", "host");
    /** The keys a selector may use: the name, then the dimensions. */
    private static final List<String> KEYS = List.of("name", "service", "database", "instance", "host");

    /** The origins connections belong to, and the lookup by name of those and the configured ones. */
    private final Supplier<Origin[]> all;
    private final Function<String, Origin> find;

    public OriginSelector(Supplier<Origin[]> all, Function<String, Origin> find) {
        this.all = all;
        this.find = find;
    }

    /** The origins {@code selector} names; {@link IllegalArgumentException} when nothing matches or a key is
     * unknown, with the known origins in the message. */
    public List<Origin> resolve(String selector) {
        if (selector == null || selector.isBlank()) {
            throw new IllegalArgumentException("an origin name or key=value selector is required (known origins: "
                    + known() + ")");
        }
        List<Origin> out = new ArrayList<>();
        if (selector.indexOf('=') < 0) {
            Origin o = require(selector);
            out.add(o);
            if (o.discovers()) {
                for (Origin d : all.get()) {
                    if (d.parent == o) {
                        out.add(d);
                    }
                }
            }
            return out;
        }
        Map<String, String> wanted = new LinkedHashMap<>();
        for (String pair : selector.split(",")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair.trim() : pair.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            if (eq < 0 || !KEYS.contains(key) || pair.substring(eq + 1).isBlank()) {
                throw new IllegalArgumentException("bad origin selector '" + selector + "': expected key=value pairs "
                        + "with keys " + KEYS);
            }
            wanted.put(key, pair.substring(eq + 1).trim());
        }
        for (Origin o : all.get()) {
            if (wanted.entrySet().stream().allMatch(w -> w.getValue().equalsIgnoreCase(value(o, w.getKey())))) {
                out.add(o);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no origin matches '" + selector + "' (known origins: " + known() + ")");
        }
        return out;
    }

    /** The origin with this name; {@link IllegalArgumentException} naming the known origins when there is none. */
    public Origin require(String name) {
        Origin o = name == null ? null : find.apply(name);
        if (o == null) {
            throw new IllegalArgumentException("unknown origin '" + name + "' (known origins: " + known() + ")");
        }
        return o;
    }

    /** The origins' names, for messages. */
    String known() {
        List<String> names = new ArrayList<>();
        for (Origin o : all.get()) {
            names.add(o.name);
        }
        return String.join(", ", names);
    }

    private static String value(Origin o, String key) {
        return switch (key) {
            case "name" -> o.name;
            case "service" -> o.config.service();
            case "database" -> o.config.database();
            case "instance" -> o.config.instance();
            default -> o.config.host();
        };
    }

    /** The origins a rebalance's weights name, with their new weights; {@link IllegalArgumentException} naming
     * every problem (unknown origin, negative weight, all weights zero) when the map is not valid as a whole. */
    public Map<Origin, Integer> weights(Map<String, Integer> weights) {
        if (weights == null || weights.isEmpty()) {
            throw new IllegalArgumentException("rebalance needs at least one origin weight");
        }
        List<String> problems = new ArrayList<>();
        Map<Origin, Integer> resolved = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> w : weights.entrySet()) {
            Origin o = find.apply(w.getKey());
            if (o == null) {
                problems.add("unknown origin '" + w.getKey() + "'");
            } else if (w.getValue() == null || w.getValue() < 0) {
                problems.add("weight of '" + w.getKey() + "' must be ≥ 0 (was " + w.getValue() + ")");
            } else {
                resolved.put(o, w.getValue());
            }
        }
        int total = 0;
        for (Origin o : all.get()) {
            total += resolved.getOrDefault(o, o.baseWeight);
        }
        if (problems.isEmpty() && total == 0) {
            problems.add("at least one origin needs a weight > 0");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("rebalance rejected: " + String.join("; ", problems)
                    + " (known origins: " + known() + ")");
        }
        return resolved;
    }
}
