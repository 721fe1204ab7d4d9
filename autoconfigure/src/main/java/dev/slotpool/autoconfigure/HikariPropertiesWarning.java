package dev.slotpool.autoconfigure;

import dev.slotpool.Setting;
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
import java.util.HashMap;
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

    /** HikariCP's keys that no {@link Setting} row names, and what slotpool has instead. */
    private static final Map<String, String> NOT_IN_THE_TABLE = Map.of(
            "data-source-properties", "slotpool.connection-properties",
            "exception-override-class-name", "a dev.slotpool.SqlExceptionOverride bean",
            "credentials", "a dev.slotpool.CredentialsProvider bean",
            "register-mbeans", "spring.jmx.enabled (pool and origin MBeans, docs/operations.md)");

    /** HikariCP's keys and what slotpool has instead: each row's own property, then the keys above. */
    private static final Map<String, String> EQUIVALENTS = equivalents();

    /** The same keys without dashes, as a relaxed name such as {@code connectionTimeout} reads in uniform form. */
    private static final Map<String, String> KEBAB_BY_UNIFORM = EQUIVALENTS.keySet().stream()
            .collect(Collectors.toMap(k -> k.replace("-", ""), k -> k));

    private static Map<String, String> equivalents() {
        Map<String, String> equivalents = new HashMap<>(NOT_IN_THE_TABLE);
        for (Setting<?> setting : Setting.all()) {
            if (setting.hikari() != null) {
                equivalents.put(setting.hikari().key(), setting.property());
            }
        }
        return Map.copyOf(equivalents);
    }

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
