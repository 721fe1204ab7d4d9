package dev.slotpool;

import java.time.Duration;

import static dev.slotpool.SettingsCheck.MAX_TIMER;

/**
 * The rules of the {@link Setting} rows: the bounds {@link SettingsCheck} checks, each message naming the bound as
 * docs/configuration.md does. A rule sees the value as written and the other settings, so one that depends on
 * another setting (minSize on maxSize) reports one problem on its own row.
 */
final class SettingRules {

    /** Why a value is refused, or null when it is not. */
    @FunctionalInterface
    interface Rule<T> {
        ConfigViolation check(String name, T value, Settings all);
    }

    private SettingRules() {
    }

    static <T> Rule<T> any() {
        return (name, value, all) -> null;
    }

    static Rule<String> notBlank() {
        return (name, value, all) -> value == null || value.isBlank()
                ? new ConfigViolation(name, String.valueOf(value), "must not be blank") : null;
    }

    static Rule<String> notBlankIfSet(String unset) {
        return (name, value, all) -> value != null && value.isBlank()
                ? new ConfigViolation(name, "''", "must not be blank (" + unset + ")") : null;
    }

    static <T> Rule<T> notNull(String problem) {
        return (name, value, all) -> value == null ? new ConfigViolation(name, "null", problem) : null;
    }

    static Rule<String> jdbcUrl() {
        return (name, url, all) -> url == null || SettingsCheck.isJdbcUrl(url) ? null
                : new ConfigViolation(name, JdbcUrls.redact(url), "must be a JDBC URL (jdbc:<subprotocol>:...)");
    }

    static Rule<String> loadableClass() {
        return (name, className, all) -> {
            if (className == null) {
                return null;
            }
            try {
                Class.forName(className, false, Thread.currentThread().getContextClassLoader());
                return null;
            } catch (ClassNotFoundException | LinkageError e) {
                return new ConfigViolation(name, className, "class not found on the class path");
            }
        };
    }

    static Rule<Integer> between(int min, int max) {
        return (name, value, all) -> value == null || value < min || value > max
                ? new ConfigViolation(name, String.valueOf(value), "must be between " + min + " and " + max) : null;
    }

    static Rule<Integer> minSize() {
        return (name, value, all) -> {
            Integer max = all.written(Setting.MAX_SIZE);
            if (value == null || value < 0) {
                return new ConfigViolation(name, String.valueOf(value), "must be ≥ 0");
            }
            return max != null && value > max && max >= 1
                    ? new ConfigViolation(name, String.valueOf(value), "must be ≤ maxSize (" + max + ")") : null;
        };
    }

    /** 0 (none), else within minSize and 100000, and only with adaptive sizing (a fixed pool is bounded by
     * maxSize). */
    static Rule<Integer> fleetBudget() {
        return (name, value, all) -> {
            if (value == null || value == 0) {
                return value == null ? new ConfigViolation(name, "null", "must be 0 (none) or a number") : null;
            }
            if (all.get(Setting.SIZING) != Sizing.ADAPTIVE) {
                return new ConfigViolation(name, String.valueOf(value),
                        "needs sizing ADAPTIVE (a fixed pool is bounded by maxSize)");
            }
            Integer minSize = all.get(Setting.MIN_SIZE);
            int min = minSize == null ? 1 : Math.max(1, minSize);
            return value < min || value > 100_000 ? new ConfigViolation(name, String.valueOf(value),
                    "must be 0 (none) or between minSize (" + min + ") and 100000") : null;
        };
    }

    static Rule<Integer> initialSize() {
        return (name, value, all) -> {
            Integer min = all.written(Setting.MIN_SIZE);
            Integer max = all.written(Setting.MAX_SIZE);
            if (value == null || min == null || max == null) {
                return null;
            }
            return value < Math.max(min, 0) || value > max ? new ConfigViolation(name, String.valueOf(value),
                    "must be between minSize (" + min + ") and maxSize (" + max + ")") : null;
        };
    }

    static Rule<Duration> initializationFailTimeout() {
        return (name, value, all) -> {
            if (value != null && value.compareTo(Duration.ofMinutes(10)) > 0) {
                return new ConfigViolation(name, value.toString(),
                        "must be ≤ PT10M (or negative to start without waiting)");
            }
            if (value != null && value.compareTo(MAX_TIMER.negated()) < 0) {
                return new ConfigViolation(name, value.toString(),
                        "must be ≥ " + MAX_TIMER.negated() + " (any negative value starts without waiting)");
            }
            return null;
        };
    }

    /** One problem per setting: a value out of its own range is not also compared with connectTimeout. */
    static Rule<Duration> silenceTimeout() {
        Rule<Duration> within = within(Duration.ofMillis(100), Duration.ofMinutes(10));
        return (name, value, all) -> {
            if (value == null) {
                return null;
            }
            ConfigViolation outside = within.check(name, value, all);
            Duration connect = all.written(Setting.CONNECT_TIMEOUT);
            if (outside == null && connect != null && value.compareTo(connect) > 0) {
                return new ConfigViolation(name, value.toString(), "must be ≤ connectTimeout (" + connect + ")");
            }
            return outside;
        };
    }

    static Rule<String> isolationLevel() {
        return (name, value, all) -> value != null && TransactionIsolations.parse(value) < 0
                ? new ConfigViolation(name, value, "must be " + TransactionIsolations.ALLOWED) : null;
    }

    /** From {@code min} to {@code max}, ends included. */
    static Rule<Duration> within(Duration min, Duration max) {
        return (name, value, all) -> {
            if (value == null) {
                return new ConfigViolation(name, "null", "must be set");
            }
            return value.compareTo(min) < 0 || value.compareTo(max) > 0
                    ? new ConfigViolation(name, value.toString(), "must be between " + min + " and " + max) : null;
        };
    }

    /** From {@code min} (zero or more) to {@code max}. */
    static Rule<Duration> upTo(Duration min, Duration max) {
        return range(min, max, false);
    }

    /** Zero (off), or from {@code min} to {@code max}. */
    static Rule<Duration> zeroOrUpTo(Duration min, Duration max) {
        return range(min, max, true);
    }

    static Rule<Duration> range(Duration min, Duration max, boolean zeroDisables) {
        return (name, value, all) -> {
            if (value == null) {
                return new ConfigViolation(name, "null", "must be set");
            } else if (value.isNegative()) {
                return new ConfigViolation(name, value.toString(), "must not be negative");
            } else if (!(zeroDisables && value.isZero()) && value.compareTo(min) < 0) {
                return new ConfigViolation(name, value.toString(),
                        "must be ≥ " + min + (zeroDisables ? " (or 0 to disable)" : ""));
            } else if (value.compareTo(max) > 0) {
                return new ConfigViolation(name, value.toString(), "must be ≤ " + max);
            }
            return null;
        };
    }
}
