package dev.slotpool.autoconfigure;

import dev.slotpool.OriginConfig;
import dev.slotpool.PoolConfig;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.core.env.Environment;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The settings a pool runs with, read from its {@link PoolConfig} (after defaults, the
 * {@code spring.datasource.hikari.*} carry-over and customizers), each under its {@code slotpool.*} name with where
 * its value came from: {@code /actuator/pool}'s {@code settings} (docs/operations.md) and, through
 * {@link EffectiveSlotPoolProperties}, {@code /actuator/configprops}. The auto-configured pool's sources are
 * recorded when it is built; a pool the application builds itself shows {@link #APPLICATION_POOL}.
 */
public final class PoolSettings {

    /** The engine's default, neither set nor carried over. */
    static final String DEFAULT = "default";
    static final String CUSTOMIZER = "a SlotPoolBuilderCustomizer bean";
    static final String BOOT_START = "default under Spring Boot: start without waiting for a connection";
    static final String APPLICATION_POOL = "the application's own pool";

    /**
     * One setting: its name (the {@code slotpool.*} key without the prefix; {@code url} and
     * {@code driver-class-name} are the default connection's), its value as a property writes it (durations in
     * Boot's syntax; driver properties and origins by name only), and its source (the key that set it,
     * {@code default}, a customizer).
     */
    public record Setting(String setting, @Nullable Object value, String source) {
    }

    private record Entry(String name, Function<PoolConfig, @Nullable Object> value) {
    }

    /**
     * Every setting shown, once: each {@link dev.slotpool.Setting} row but the credentials, with the origins after the default
     * connection's and the driver properties last. The URL goes through the reader's URL rule.
     */
    private static final List<Entry> TABLE = table();

    private static List<Entry> table() {
        List<Entry> table = new ArrayList<>();
        for (dev.slotpool.Setting<?> setting : dev.slotpool.Setting.all()) {
            if (setting == dev.slotpool.Setting.USERNAME || setting == dev.slotpool.Setting.PASSWORD) {
                continue;
            }
            String name = SlotPoolPropertiesMapper.kebab(setting.name());
            table.add(setting == dev.slotpool.Setting.TRANSACTION_ISOLATION
                    ? new Entry(name, c -> isolationName(c.transactionIsolation()))
                    : new Entry(name, c -> c.value(setting)));
            if (setting == dev.slotpool.Setting.DRIVER_CLASS_NAME) {
                table.add(new Entry("origins", c -> c.origins().stream().map(OriginConfig::name).toList()));
            }
        }
        table.add(new Entry("connection-properties",
                c -> List.copyOf(new TreeSet<>(c.connectionProperties().keySet()))));
        return List.copyOf(table);
    }

    private volatile @Nullable PoolConfig autoConfigured;
    private volatile Map<String, String> sources = Map.of();

    /** No pool recorded yet: every pool's settings show {@link #APPLICATION_POOL}. */
    public PoolSettings() {
    }

    /** Records the auto-configured pool's sources ({@link #sources}). */
    void record(PoolConfig config, Map<String, String> sources) {
        this.sources = Map.copyOf(sources);
        this.autoConfigured = config;
    }

    /** The auto-configured pool's settings, or null before it is built (or where none is). */
    @Nullable PoolConfig autoConfigured() {
        return autoConfigured;
    }

    /** The pool's settings with their sources; {@code url} turns a URL into what this reader sees. */
    public List<Setting> of(SlotPoolDataSource pool, UnaryOperator<@Nullable String> url) {
        PoolConfig config = pool.config();
        boolean known = config == autoConfigured;
        return TABLE.stream().map(e -> {
            Object value = e.value().apply(config);
            return new Setting(e.name(), e.name().equals("url") ? url.apply((String) value) : written(value),
                    known ? sources.getOrDefault(e.name(), DEFAULT) : APPLICATION_POOL);
        }).toList();
    }

    /** The setting names and their values as the engine holds them, for {@link EffectiveSlotPoolProperties}. */
    static Map<String, @Nullable Object> values(PoolConfig config) {
        Map<String, @Nullable Object> values = new LinkedHashMap<>();
        TABLE.forEach(e -> values.put(e.name(), e.value().apply(config)));
        return values;
    }

    /**
     * What the builder holds, before the customizers run, for {@link #sources}: each row's value as set (null when
     * unset), the origins' names and the driver properties' keys, under the names {@link #of} shows.
     */
    static Map<String, @Nullable Object> written(SlotPoolBuilder builder) {
        Map<String, @Nullable Object> written = new HashMap<>();
        dev.slotpool.Setting.all().forEach(s -> written.put(SlotPoolPropertiesMapper.kebab(s.name()),
                builder.value(s)));
        written.put("origins", builder.origins().stream().map(OriginConfig::name).toList());
        written.put("connection-properties", List.copyOf(new TreeSet<>(builder.connectionProperties().keySet())));
        return written;
    }

    /**
     * Where each setting of the auto-configured pool came from: a customizer where what the builder holds differs
     * from what it held before the customizers ran ({@link #written}), else the {@code slotpool.*} key if set, else
     * the key {@code writtenAs} names ({@code spring.datasource.hikari.*}, {@code spring.datasource.*}), else
     * {@link #DEFAULT} ({@link #BOOT_START} for the start Boot gives).
     */
    static Map<String, String> sources(Map<String, @Nullable Object> beforeCustomizers, SlotPoolBuilder builder,
                                       PoolConfig effective, Environment environment,
                                       Function<String, @Nullable String> writtenAs, boolean bootStart) {
        Map<String, @Nullable Object> after = written(builder);
        Set<String> customized = new HashSet<>();
        after.forEach((name, value) -> {
            if (!Objects.equals(beforeCustomizers.get(name), value)) {
                customized.add(name);
            }
        });
        Map<String, String> sources = new LinkedHashMap<>();
        values(effective).forEach((name, value) -> {
            String property = "slotpool." + name;
            String source;
            if (customized.contains(name)) {
                source = CUSTOMIZER;
            } else if (isSet(environment, property)) {
                source = property;
            } else if (writtenAs.apply(name) != null) {
                source = writtenAs.apply(name);
            } else if (name.equals("initialization-fail-timeout") && bootStart) {
                source = BOOT_START;
            } else {
                source = DEFAULT;
            }
            sources.put(name, source);
        });
        return sources;
    }

    /** Whether any property source sets the key or a key under it (a map's entry, a list's element). */
    private static boolean isSet(Environment environment, String property) {
        ConfigurationPropertyName key = ConfigurationPropertyName.of(property);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (source.getConfigurationProperty(key) != null
                    || source.containsDescendantOf(key) == ConfigurationPropertyState.PRESENT) {
                return true;
            }
        }
        return false;
    }

    private static @Nullable Object written(@Nullable Object value) {
        return value instanceof Duration d ? SlotPoolPropertiesMapper.written(d) : value;
    }

    /** The {@code Connection.TRANSACTION_*} constant's name, as slotpool.transaction-isolation takes it. */
    static @Nullable String isolationName(@Nullable Integer level) {
        if (level == null) {
            return null;
        }
        return switch (level) {
            case Connection.TRANSACTION_NONE -> "TRANSACTION_NONE";
            case Connection.TRANSACTION_READ_UNCOMMITTED -> "TRANSACTION_READ_UNCOMMITTED";
            case Connection.TRANSACTION_READ_COMMITTED -> "TRANSACTION_READ_COMMITTED";
            case Connection.TRANSACTION_REPEATABLE_READ -> "TRANSACTION_REPEATABLE_READ";
            case Connection.TRANSACTION_SERIALIZABLE -> "TRANSACTION_SERIALIZABLE";
            default -> String.valueOf(level);
        };
    }
}
