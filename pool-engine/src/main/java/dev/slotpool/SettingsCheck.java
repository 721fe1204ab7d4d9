package dev.slotpool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a builder's settings all at once (each {@link Setting} row's rule, then the origins; docs/configuration.md
 * has the ranges): every violation is collected and reported together in one {@link InvalidPoolConfigException},
 * and nothing is rewritten silently.
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
     * with every setting checked: each {@link Setting} row's rule, in the table's order, then the hooks and the
     * origins.
     *
     * @throws InvalidPoolConfigException listing every violation
     */
    static List<OriginConfig> check(Settings s) {
        List<ConfigViolation> v = new ArrayList<>();
        for (Setting<?> setting : Setting.all()) {
            ConfigViolation violation = setting.check(s);
            if (violation != null) {
                v.add(violation);
            }
        }
        if (s.ticker == null) {
            v.add(new ConfigViolation("ticker", "null", "must not be null"));
        }
        List<OriginConfig> resolved = resolveOrigins(s, v);
        Integer budget = s.get(Setting.FLEET_BUDGET);
        if (budget != null && budget != 0 && budget < resolved.size()) {
            v.add(new ConfigViolation("fleetBudget", String.valueOf(budget),
                    "must be ≥ the number of origins (" + resolved.size() + "): each keeps a limit of at least 1"));
        }
        if (!v.isEmpty()) {
            throw new InvalidPoolConfigException(v);
        }
        return resolved;
    }

    private static List<OriginConfig> resolveOrigins(Settings s, List<ConfigViolation> v) {
        String url = s.get(Setting.URL);
        String username = s.get(Setting.USERNAME);
        String password = s.get(Setting.PASSWORD);
        Pooler poolPooler = s.get(Setting.POOLER);
        if (s.origins.isEmpty()) {
            if (url == null) {
                v.add(new ConfigViolation("url", "null", "is required when no origin is configured"));
                return List.of();
            }
            Map<String, String> props = new LinkedHashMap<>(s.connectionProperties);
            PoolerRules.apply(null, poolPooler, url, props, s, v);
            return List.of(OriginConfig.named("default").url(url).username(username).password(password)
                    .connectionProperties(props).pooler(poolPooler));
        }
        List<OriginConfig> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        long totalWeight = 0;
        for (int i = 0; i < s.origins.size(); i++) {
            OriginConfig o = s.origins.get(i);
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
            String originUrl = o.url() != null ? o.url() : url;
            if (originUrl == null) {
                v.add(new ConfigViolation(label + ".url", "null",
                        "is required (neither the origin nor the pool has a url)"));
            } else if (o.url() != null) {
                checkUrl(v, label + ".url", o.url());
            }
            Map<String, String> props = new LinkedHashMap<>(s.connectionProperties);
            props.putAll(o.connectionProperties());
            Pooler pooler = o.pooler() != null ? o.pooler() : poolPooler;
            PoolerRules.apply(label, pooler, originUrl, props, s, v);
            PoolerRules.adminUrl(label, o.poolerAdminUrl(), v);
            out.add(o.url(originUrl).pooler(pooler)
                    .username(o.username() != null ? o.username() : username)
                    .password(o.password() != null ? o.password() : password)
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
        if (!isJdbcUrl(url)) {
            v.add(new ConfigViolation(property, JdbcUrls.redact(url), "must be a JDBC URL (jdbc:<subprotocol>:...)"));
        }
    }

    static boolean isJdbcUrl(String url) {
        return url.startsWith("jdbc:") && url.length() > "jdbc:".length() && url.indexOf(':', 5) >= 0;
    }
}
