package dev.slotpool.autoconfigure;

import dev.slotpool.OriginConfig;
import dev.slotpool.PoolConfig;
import dev.slotpool.SlotPoolDataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.core.env.Environment;

import java.sql.Connection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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

    /** Every setting shown, once. Credentials are left out; the URL goes through the reader's URL rule. */
    private static final List<Entry> TABLE = List.of(
            new Entry("name", PoolConfig::name),
            new Entry("url", PoolConfig::url),
            new Entry("driver-class-name", PoolConfig::driverClassName),
            new Entry("origins", c -> c.origins().stream().map(OriginConfig::name).toList()),
            new Entry("min-size", PoolConfig::minSize),
            new Entry("max-size", PoolConfig::maxSize),
            new Entry("initial-size", PoolConfig::initialSize),
            new Entry("borrow-timeout", PoolConfig::borrowTimeout),
            new Entry("turn-duration", PoolConfig::turnDuration),
            new Entry("creator-threads", PoolConfig::creatorThreads),
            new Entry("creation-backoff-max", PoolConfig::creationBackoffMax),
            new Entry("inactive-timeout", PoolConfig::inactiveTimeout),
            new Entry("max-lifetime", PoolConfig::maxLifetime),
            new Entry("abandoned-timeout", PoolConfig::abandonedTimeout),
            new Entry("time-to-live", PoolConfig::timeToLive),
            new Entry("keepalive-interval", PoolConfig::keepaliveInterval),
            new Entry("validate-after-idle", PoolConfig::validateAfterIdle),
            new Entry("connect-timeout", PoolConfig::connectTimeout),
            new Entry("silence-timeout", PoolConfig::silenceTimeout),
            new Entry("validation-timeout", PoolConfig::validationTimeout),
            new Entry("validation-query", PoolConfig::validationQuery),
            new Entry("housekeeping-period", PoolConfig::housekeepingPeriod),
            new Entry("shutdown-timeout", PoolConfig::shutdownTimeout),
            new Entry("down-grace-period", PoolConfig::downGracePeriod),
            new Entry("abort-borrowed-on-down", PoolConfig::abortBorrowedOnDown),
            new Entry("reads-to-standbys", PoolConfig::readsToStandbys),
            new Entry("max-replica-lag", PoolConfig::maxReplicaLag),
            new Entry("balancing", PoolConfig::balancing),
            new Entry("pooler", PoolConfig::pooler),
            new Entry("down-after-failures", PoolConfig::downAfterFailures),
            new Entry("rebalance-step", PoolConfig::rebalanceStep),
            new Entry("statement-cache-size", PoolConfig::statementCacheSize),
            new Entry("leak-tracing", PoolConfig::leakTracing),
            new Entry("leak-detection-threshold", PoolConfig::leakDetectionThreshold),
            new Entry("initialization-fail-timeout", PoolConfig::initializationFailTimeout),
            new Entry("auto-commit", PoolConfig::autoCommit),
            new Entry("transaction-isolation", c -> isolationName(c.transactionIsolation())),
            new Entry("read-only", PoolConfig::readOnly),
            new Entry("catalog", PoolConfig::catalog),
            new Entry("schema", PoolConfig::schema),
            new Entry("connection-init-sql", PoolConfig::connectionInitSql),
            new Entry("connection-properties", c -> List.copyOf(new TreeSet<>(c.connectionProperties().keySet()))));

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
     * Where each setting of the auto-configured pool came from: a customizer where its value differs from the one
     * {@code beforeCustomizers} had (null if that did not validate yet), else the {@code slotpool.*} key if set,
     * else the key {@code writtenAs} names ({@code spring.datasource.hikari.*}, {@code spring.datasource.*}),
     * else {@link #DEFAULT} ({@link #BOOT_START} for the start Boot gives).
     */
    static Map<String, String> sources(@Nullable PoolConfig beforeCustomizers, PoolConfig effective,
                                       Environment environment, Function<String, @Nullable String> writtenAs,
                                       boolean bootStart) {
        Map<String, @Nullable Object> before = beforeCustomizers == null ? null : values(beforeCustomizers);
        Map<String, String> sources = new LinkedHashMap<>();
        values(effective).forEach((name, value) -> {
            String property = "slotpool." + name;
            String source;
            if (before != null && !Objects.equals(before.get(name), value)) {
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
