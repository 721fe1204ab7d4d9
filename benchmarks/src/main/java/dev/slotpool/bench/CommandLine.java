package dev.slotpool.bench;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The option syntax the harnesses share ({@code --name value}, {@code --name=value}, bare flags) and the parsing
 * of their values; every failure is a {@link UsageException} whose message starts with the option's name.
 */
public final class CommandLine {

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m)");

    private CommandLine() {
    }

    /** The options given, by name; a flag's value is the empty string. */
    public static Map<String, String> collect(String[] args, Set<String> flags, Set<String> valued) {
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + arg + "' (options start with --)");
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            String value = eq < 0 ? null : arg.substring(eq + 1);
            if (flags.contains(name)) {
                if (value != null) {
                    throw new UsageException(name + " takes no value");
                }
                value = "";
            } else if (valued.contains(name)) {
                if (value == null) {
                    if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
                        throw new UsageException(name + " needs a value");
                    }
                    value = args[++i];
                }
            } else {
                throw new UsageException("unknown option '" + name + "'");
            }
            if (given.put(name, value) != null) {
                throw new UsageException(name + " is given twice");
            }
        }
        return given;
    }

    /** A comma list of pool ids for {@code --pools}; {@code allAllowed}: "all" alone means every pool. */
    public static List<PoolKind> pools(String value, boolean allAllowed) {
        if (allAllowed && value.trim().equals("all")) {
            return List.of(PoolKind.values());
        }
        List<PoolKind> pools = new ArrayList<>();
        for (String name : value.split(",", -1)) {
            String id = name.trim().toLowerCase(Locale.ROOT);
            PoolKind kind = Arrays.stream(PoolKind.values()).filter(k -> k.id().equals(id)).findFirst()
                    .orElseThrow(() -> new UsageException("--pools: unknown pool '" + name.trim() + "' (known: "
                            + Arrays.stream(PoolKind.values()).map(PoolKind::id).collect(Collectors.joining(", "))
                            + (allAllowed ? "; or all, alone)" : ")")));
            if (pools.contains(kind)) {
                throw new UsageException("--pools: " + id + " is listed twice");
            }
            pools.add(kind);
        }
        return pools;
    }

    /** A comma list of positive whole numbers; the message quotes the bad one. */
    public static List<Integer> positives(String option, String value) {
        List<Integer> numbers = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            numbers.add(positive(option, part));
        }
        return numbers;
    }

    public static int positive(String option, String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below with the option's name
        }
        throw new UsageException(option + ": expected a positive whole number, got '" + value + "'");
    }

    /** Parses e.g. 500us, 300ms or 1.5s exactly; zero is allowed only where {@code zeroAllowed}. */
    public static Duration duration(String option, String value, boolean zeroAllowed) {
        Matcher m = DURATION.matcher(value.trim());
        if (!m.matches()) {
            throw new UsageException(option + ": expected a duration such as 500us, 300ms, 2s or 1m, got '"
                    + value + "'");
        }
        long nanosPerUnit = switch (m.group(2)) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            default -> 60_000_000_000L;
        };
        Duration d;
        try {
            d = Duration.ofNanos(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(nanosPerUnit))
                    .longValueExact());
        } catch (ArithmeticException e) {
            throw new UsageException(option + ": '" + value + "' is out of range or finer than a nanosecond");
        }
        if (d.isZero() && !zeroAllowed) {
            throw new UsageException(option + ": must be more than zero, got '" + value + "'");
        }
        return d;
    }
}
