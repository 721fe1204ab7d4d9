package dev.slotpool.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

import javax.sql.DataSource;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Once the context is up with slotpool as its pool, logs one WARN naming every {@code spring.datasource.hikari.*}
 * key in the environment (never its value) that the auto-configured pool did not read ({@link HikariCarryOver}),
 * with its slotpool equivalent, or "none"; the full table with reasons is {@code docs/migrating-from-hikaricp.md}.
 */
final class HikariPropertiesWarning implements SmartInitializingSingleton {

    private static final Log log = LogFactory.getLog(HikariPropertiesWarning.class);

    private static final ConfigurationPropertyName HIKARI = ConfigurationPropertyName.of("spring.datasource.hikari");

    /** HikariCP's keys and what slotpool has instead. */
    private static final Map<String, String> EQUIVALENTS = Map.ofEntries(
            Map.entry("jdbc-url", "spring.datasource.url"),
            Map.entry("username", "spring.datasource.username"),
            Map.entry("password", "spring.datasource.password"),
            Map.entry("driver-class-name", "spring.datasource.driver-class-name"),
            Map.entry("maximum-pool-size", "slotpool.max-size"),
            Map.entry("minimum-idle", "slotpool.min-size"),
            Map.entry("connection-timeout", "slotpool.borrow-timeout"),
            Map.entry("idle-timeout", "slotpool.inactive-timeout"),
            Map.entry("max-lifetime", "slotpool.max-lifetime"),
            Map.entry("keepalive-time", "slotpool.keepalive-interval"),
            Map.entry("validation-timeout", "slotpool.validation-timeout"),
            Map.entry("connection-test-query", "slotpool.validation-query"),
            Map.entry("leak-detection-threshold", "slotpool.leak-detection-threshold"),
            Map.entry("initialization-fail-timeout", "slotpool.initialization-fail-timeout"),
            Map.entry("connection-init-sql", "slotpool.connection-init-sql"),
            Map.entry("auto-commit", "slotpool.auto-commit"),
            Map.entry("transaction-isolation", "slotpool.transaction-isolation"),
            Map.entry("read-only", "slotpool.read-only"),
            Map.entry("catalog", "slotpool.catalog"),
            Map.entry("schema", "slotpool.schema"),
            Map.entry("pool-name", "slotpool.name"),
            Map.entry("data-source-properties", "slotpool.connection-properties"),
            Map.entry("exception-override-class-name", "a dev.slotpool.SqlExceptionOverride bean"),
            Map.entry("credentials", "a dev.slotpool.CredentialsProvider bean"),
            Map.entry("register-mbeans", "spring.jmx.enabled (pool and origin MBeans, docs/operations.md)"));

    /** The same keys without dashes, as a relaxed name such as {@code connectionTimeout} reads in uniform form. */
    private static final Map<String, String> KEBAB_BY_UNIFORM = EQUIVALENTS.keySet().stream()
            .collect(Collectors.toMap(k -> k.replace("-", ""), k -> k));

    private final Environment environment;
    private final ObjectProvider<DataSource> dataSources;
    private final ObjectProvider<HikariCarryOver> carryOver;

    HikariPropertiesWarning(Environment environment, ObjectProvider<DataSource> dataSources,
                            ObjectProvider<HikariCarryOver> carryOver) {
        this.environment = environment;
        this.dataSources = dataSources;
        this.carryOver = carryOver;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (dataSources.stream().map(SlotPools::unwrap).allMatch(Objects::isNull)) {
            return; // another pool is the DataSource: its keys may well be HikariCP's own
        }
        Map<String, String> keys = hikariKeys(environment);
        carryOver.ifAvailable(read -> read.readKeys().forEach(k -> keys.remove(HIKARI + "." + k)));
        if (!keys.isEmpty()) {
            log.warn("spring.datasource.hikari.* keys have no effect: slotpool is the connection pool. Use instead: "
                    + keys.entrySet().stream().map(e -> e.getKey() + " → " + e.getValue())
                    .collect(Collectors.joining(", ")));
        }
    }

    /**
     * Each {@code spring.datasource.hikari.<key>} set anywhere in the environment (HikariCP's keys in their kebab
     * form, whatever relaxed form was written; nested keys such as data-source-properties' once) with its
     * slotpool equivalent, or "none".
     */
    static Map<String, String> hikariKeys(Environment environment) {
        Map<String, String> keys = new TreeMap<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (source instanceof IterableConfigurationPropertySource iterable) {
                iterable.filter(HIKARI::isAncestorOf).forEach(name -> {
                    String uniform = name.getElement(HIKARI.getNumberOfElements(), ConfigurationPropertyName.Form.UNIFORM);
                    String key = KEBAB_BY_UNIFORM.getOrDefault(uniform,
                            name.getElement(HIKARI.getNumberOfElements(), ConfigurationPropertyName.Form.DASHED));
                    keys.put(HIKARI + "." + key, EQUIVALENTS.getOrDefault(key, "none"));
                });
            }
        }
        return keys;
    }
}
