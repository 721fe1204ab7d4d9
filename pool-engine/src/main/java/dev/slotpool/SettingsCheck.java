package dev.slotpool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a builder's settings all at once (docs/configuration.md has the ranges): every violation is collected and
 * reported together in one {@link InvalidPoolConfigException}, and nothing is rewritten silently.
 */
final class SettingsCheck {

    /**
     * The longest timer or wait a setting may ask for (docs/configuration.md gives each setting's maximum): far
     * below the 292 years at which {@link Duration#toNanos()} overflows and below the 73 years the pool's deadlines
     * use for "never" ({@code OriginStatus.NEVER}), so a deadline of now plus any of them, or of several added,
     * cannot wrap around.
     */
    static final Duration MAX_TIMER = Duration.ofDays(365);
    /** A borrower's longest wait: room for HikariCP's "no limit" ({@code connectionTimeout=0} is
     * Integer.MAX_VALUE ms, 24.9 days), which a carried-over {@code spring.datasource.hikari} key may mean. */
    static final Duration MAX_BORROW_TIMEOUT = Duration.ofDays(30);
    /** How long close() may wait for borrowed connections (it also waits up to 3 s for pool threads). */
    static final Duration MAX_SHUTDOWN_TIMEOUT = Duration.ofHours(1);
    /** A turn is measured in microseconds; past a second the queue's oldest waiter starves behind it. */
    static final Duration MAX_TURN = Duration.ofSeconds(1);

    private SettingsCheck() {
    }

    /**
     * The origins the pool will use (the pool's url and credentials as a single origin when none is configured),
     * with every setting checked.
     *
     * @throws InvalidPoolConfigException listing every violation
     */
    static List<OriginConfig> check(SlotPoolBuilder b) {
        List<ConfigViolation> v = new ArrayList<>();
        if (b.name == null || b.name.isBlank()) {
            v.add(new ConfigViolation("name", String.valueOf(b.name), "must not be blank"));
        }
        if (b.minSize < 0) {
            v.add(new ConfigViolation("minSize", String.valueOf(b.minSize), "must be ≥ 0"));
        }
        if (b.maxSize < 1 || b.maxSize > 100_000) {
            v.add(new ConfigViolation("maxSize", String.valueOf(b.maxSize), "must be between 1 and 100000"));
        }
        if (b.minSize > b.maxSize && b.maxSize >= 1) {
            v.add(new ConfigViolation("minSize", String.valueOf(b.minSize), "must be ≤ maxSize (" + b.maxSize + ")"));
        }
        if (b.initialSize != null && (b.initialSize < Math.max(b.minSize, 0) || b.initialSize > b.maxSize)) {
            v.add(new ConfigViolation("initialSize", String.valueOf(b.initialSize),
                    "must be between minSize (" + b.minSize + ") and maxSize (" + b.maxSize + ")"));
        }
        range(v, "borrowTimeout", b.borrowTimeout, Duration.ZERO, MAX_BORROW_TIMEOUT, false);
        range(v, "turnDuration", b.turnDuration, Duration.ZERO, MAX_TURN, false);
        between(v, "creatorThreads", b.creatorThreads, 1, 64);
        within(v, "creationBackoffMax", b.creationBackoffMax, Duration.ofMillis(50), Duration.ofMinutes(10));
        range(v, "inactiveTimeout", b.inactiveTimeout, Duration.ofSeconds(1), MAX_TIMER, true);
        range(v, "maxLifetime", b.maxLifetime, Duration.ofSeconds(1), MAX_TIMER, true);
        range(v, "abandonedTimeout", b.abandonedTimeout, Duration.ZERO, MAX_TIMER, false);
        range(v, "timeToLive", b.timeToLive, Duration.ZERO, MAX_TIMER, false);
        range(v, "leakDetectionThreshold", b.leakDetectionThreshold, Duration.ofSeconds(1), MAX_TIMER, true);
        Duration initFail = b.initializationFailTimeout;
        if (initFail != null && initFail.compareTo(Duration.ofMinutes(10)) > 0) {
            v.add(new ConfigViolation("initializationFailTimeout", initFail.toString(),
                    "must be ≤ PT10M (or negative to start without waiting)"));
        } else if (initFail != null && initFail.compareTo(MAX_TIMER.negated()) < 0) {
            v.add(new ConfigViolation("initializationFailTimeout", initFail.toString(),
                    "must be ≥ " + MAX_TIMER.negated() + " (any negative value starts without waiting)"));
        }
        range(v, "keepaliveInterval", b.keepaliveInterval, Duration.ofSeconds(1), MAX_TIMER, true);
        range(v, "validateAfterIdle", b.validateAfterIdle, Duration.ZERO, MAX_TIMER, false);
        within(v, "connectTimeout", b.connectTimeout, Duration.ofMillis(100), Duration.ofMinutes(10));
        if (b.silenceTimeout != null) {
            int before = v.size();
            within(v, "silenceTimeout", b.silenceTimeout, Duration.ofMillis(100), Duration.ofMinutes(10));
            // One problem per setting: a value out of its own range is not also compared with connectTimeout.
            if (v.size() == before && b.connectTimeout != null && b.silenceTimeout.compareTo(b.connectTimeout) > 0) {
                v.add(new ConfigViolation("silenceTimeout", b.silenceTimeout.toString(),
                        "must be ≤ connectTimeout (" + b.connectTimeout + ")"));
            }
        }
        within(v, "validationTimeout", b.validationTimeout, Duration.ofSeconds(1), Duration.ofMinutes(10));
        within(v, "housekeepingPeriod", b.housekeepingPeriod, Duration.ofMillis(10), Duration.ofMinutes(10));
        range(v, "shutdownTimeout", b.shutdownTimeout, Duration.ZERO, MAX_SHUTDOWN_TIMEOUT, false);
        range(v, "downGracePeriod", b.downGracePeriod, Duration.ZERO, MAX_TIMER, false);
        range(v, "maxReplicaLag", b.maxReplicaLag, Duration.ZERO, MAX_TIMER, false);
        between(v, "downAfterFailures", b.downAfterFailures, 0, 1000);
        between(v, "rebalanceStep", b.rebalanceStep, 1, 1000);
        between(v, "statementCacheSize", b.statementCacheSize, 0, 10_000);
        if (b.validationQuery != null && b.validationQuery.isBlank()) {
            v.add(new ConfigViolation("validationQuery", "''", "must not be blank (leave it unset to use isValid)"));
        }
        if (b.transactionIsolation != null && TransactionIsolations.parse(b.transactionIsolation) < 0) {
            v.add(new ConfigViolation("transactionIsolation", b.transactionIsolation, "must be "
                    + TransactionIsolations.ALLOWED));
        }
        if (b.catalog != null && b.catalog.isBlank()) {
            v.add(new ConfigViolation("catalog", "''", "must not be blank (leave it unset to keep the driver's)"));
        }
        if (b.schema != null && b.schema.isBlank()) {
            v.add(new ConfigViolation("schema", "''", "must not be blank (leave it unset to keep the driver's)"));
        }
        if (b.connectionInitSql != null && b.connectionInitSql.isBlank()) {
            v.add(new ConfigViolation("connectionInitSql", "''", "must not be blank (leave it unset to run nothing)"));
        }
        if (b.balancing == null) {
            v.add(new ConfigViolation("balancing", "null", "must be WEIGHTS or LATENCY"));
        }
        if (b.pooler == null) {
            v.add(new ConfigViolation("pooler", "null", "must be one of " + Arrays.toString(Pooler.values())));
        }
        if (b.ticker == null) {
            v.add(new ConfigViolation("ticker", "null", "must not be null"));
        }
        if (b.url != null) {
            checkUrl(v, "url", b.url);
        }
        if (b.driverClassName != null) {
            try {
                Class.forName(b.driverClassName, false, Thread.currentThread().getContextClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                v.add(new ConfigViolation("driverClassName", b.driverClassName, "class not found on the class path"));
            }
        }
        List<OriginConfig> resolved = resolveOrigins(b, v);
        if (!v.isEmpty()) {
            throw new InvalidPoolConfigException(v);
        }
        return resolved;
    }

    private static List<OriginConfig> resolveOrigins(SlotPoolBuilder b, List<ConfigViolation> v) {
        if (b.origins.isEmpty()) {
            if (b.url == null) {
                v.add(new ConfigViolation("url", "null", "is required when no origin is configured"));
                return List.of();
            }
            Map<String, String> props = new LinkedHashMap<>(b.connectionProperties);
            PoolerRules.apply(null, b.pooler, b.url, props, b, v);
            return List.of(OriginConfig.named("default").url(b.url).username(b.username).password(b.password)
                    .connectionProperties(props).pooler(b.pooler));
        }
        List<OriginConfig> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        long totalWeight = 0;
        for (int i = 0; i < b.origins.size(); i++) {
            OriginConfig o = b.origins.get(i);
            String nameProblem = OriginConfig.nameProblem(o.name());
            String label = nameProblem != null ? "origins[" + i + "]" : "origins[" + o.name() + "]";
            if (nameProblem != null) {
                v.add(new ConfigViolation(label + ".name", String.valueOf(o.name()), nameProblem));
            } else if (!names.add(o.name())) {
                v.add(new ConfigViolation(label + ".name", o.name(), "duplicate origin name"));
            }
            if (o.weight() < 0) {
                v.add(new ConfigViolation(label + ".weight", String.valueOf(o.weight()), "must be ≥ 0"));
            } else {
                totalWeight += o.weight();
            }
            if (o.maxConnections() < 0) {
                v.add(new ConfigViolation(label + ".maxConnections", String.valueOf(o.maxConnections()),
                        "must be ≥ 0 (0 = no cap but maxSize)"));
            }
            if (o.originQuery() != null && o.originQuery().isBlank()) {
                v.add(new ConfigViolation(label + ".originQuery", "''", "must not be blank (leave it unset for a "
                        + "configured origin)"));
            }
            String originUrl = o.url() != null ? o.url() : b.url;
            if (originUrl == null) {
                v.add(new ConfigViolation(label + ".url", "null",
                        "is required (neither the origin nor the pool has a url)"));
            } else if (o.url() != null) {
                checkUrl(v, label + ".url", o.url());
            }
            Map<String, String> props = new LinkedHashMap<>(b.connectionProperties);
            props.putAll(o.connectionProperties());
            Pooler pooler = o.pooler() != null ? o.pooler() : b.pooler;
            PoolerRules.apply(label, pooler, originUrl, props, b, v);
            PoolerRules.adminUrl(label, o.poolerAdminUrl(), v);
            out.add(o.url(originUrl).pooler(pooler)
                    .username(o.username() != null ? o.username() : b.username)
                    .password(o.password() != null ? o.password() : b.password)
                    .connectionProperties(props));
        }
        if (totalWeight == 0 && v.stream().noneMatch(x -> x.property().endsWith(".weight"))) {
            v.add(new ConfigViolation("origins[*].weight", "0", "at least one origin needs a weight > 0"));
        } else if (totalWeight > OriginConfig.MAX_TOTAL_WEIGHT) {
            v.add(new ConfigViolation("origins[*].weight", String.valueOf(totalWeight), "the weights add up to more "
                    + "than " + OriginConfig.MAX_TOTAL_WEIGHT));
        }
        return out;
    }

    private static void checkUrl(List<ConfigViolation> v, String property, String url) {
        if (!url.startsWith("jdbc:") || url.length() <= "jdbc:".length() || url.indexOf(':', 5) < 0) {
            v.add(new ConfigViolation(property, JdbcUrls.redact(url), "must be a JDBC URL (jdbc:<subprotocol>:...)"));
        }
    }

    private static void between(List<ConfigViolation> v, String property, int value, int min, int max) {
        if (value < min || value > max) {
            v.add(new ConfigViolation(property, String.valueOf(value), "must be between " + min + " and " + max));
        }
    }

    /** At least {@code min} (or 0, where {@code zeroDisables}) and at most {@code max}. */
    private static void range(List<ConfigViolation> v, String property, Duration value, Duration min, Duration max,
                              boolean zeroDisables) {
        if (value == null) {
            v.add(new ConfigViolation(property, "null", "must be set"));
        } else if (value.isNegative()) {
            v.add(new ConfigViolation(property, value.toString(), "must not be negative"));
        } else if (!(zeroDisables && value.isZero()) && value.compareTo(min) < 0) {
            v.add(new ConfigViolation(property, value.toString(),
                    "must be ≥ " + min + (zeroDisables ? " (or 0 to disable)" : "")));
        } else if (value.compareTo(max) > 0) {
            v.add(new ConfigViolation(property, value.toString(), "must be ≤ " + max));
        }
    }

    private static void within(List<ConfigViolation> v, String property, Duration value, Duration min, Duration max) {
        if (value == null) {
            v.add(new ConfigViolation(property, "null", "must be set"));
        } else if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            v.add(new ConfigViolation(property, value.toString(), "must be between " + min + " and " + max));
        }
    }
}
