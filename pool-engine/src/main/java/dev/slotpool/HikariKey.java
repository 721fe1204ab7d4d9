package dev.slotpool;

import java.time.Duration;
import java.util.function.Function;

/**
 * The HikariCP key with a {@link Setting}'s meaning, {@code spring.datasource.hikari.<key>}.
 *
 * @param key       HikariCP's property in kebab form
 * @param boundAs   the type HikariCP's setter takes (its durations are milliseconds)
 * @param toSetting reads a bound value as the setting's
 * @param carried   whether the starter carries the key over onto the setting; false where Boot's own
 *                  {@code spring.datasource.*} key serves, which the starter's warning names instead
 */
public record HikariKey(String key, Class<?> boundAs, Function<Object, ?> toSetting, boolean carried) {

    /** The same value, bound as the setting's type (filled in by the row). */
    static HikariKey hikariSame(String key) {
        return new HikariKey(key, null, v -> v, true);
    }

    /** A key the starter only names in its warning: Boot's own {@code spring.datasource.*} key serves. */
    static HikariKey hikariNamed(String key) {
        return new HikariKey(key, null, v -> v, false);
    }

    /** A duration, which HikariCP takes in milliseconds. */
    static HikariKey hikariMillis(String key) {
        return new HikariKey(key, Long.class, v -> Duration.ofMillis((Long) v), true);
    }

    /** HikariCP's {@code connectionTimeout} 0 is its longest wait, {@code Integer.MAX_VALUE} milliseconds. */
    static HikariKey hikariConnectionTimeout() {
        return new HikariKey("connection-timeout", Long.class,
                v -> Duration.ofMillis((Long) v == 0 ? Integer.MAX_VALUE : (Long) v), true);
    }

    /** HikariCP also takes the level's number ({@code 2}); the engine takes its name. */
    static HikariKey hikariIsolation() {
        return new HikariKey("transaction-isolation", String.class, v -> switch (((String) v).trim()) {
            case "1" -> "TRANSACTION_READ_UNCOMMITTED";
            case "2" -> "TRANSACTION_READ_COMMITTED";
            case "4" -> "TRANSACTION_REPEATABLE_READ";
            case "8" -> "TRANSACTION_SERIALIZABLE";
            default -> v;
        }, true);
    }
}
