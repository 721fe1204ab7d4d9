package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolBuilder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The {@code spring.datasource.hikari.*} keys the auto-configured pool reads: those with an exact slotpool
 * equivalent, in HikariCP's meaning (durations in milliseconds, a {@code connection-timeout} of 0 waits without
 * limit, an isolation level also as its number). A {@code slotpool.*} key wins over its twin (per key for the
 * driver properties). {@code minimum-idle} is read as {@code min-size}, capped at the maximum size (whichever key
 * set it): the connections HikariCP holds open at rest with the same numbers, so a fixed-size pool stays fixed and
 * one next to a larger {@code slotpool.max-size} keeps its floor. {@code docs/migrating-from-hikaricp.md} has the
 * table.
 */
final class HikariCarryOver {

    static final String PREFIX = "spring.datasource.hikari";

    private static final Log log = LogFactory.getLog(HikariCarryOver.class);

    /** HikariCP's {@code maximumPoolSize} when none is set. */
    private static final int HIKARI_DEFAULT_MAX = 10;

    private final Environment environment;
    /** HikariCP key to the engine setting it set; written once, by {@link #applyTo}. */
    private Map<String, String> read = Map.of();

    HikariCarryOver(Environment environment) {
        this.environment = environment;
    }

    /**
     * Sets on the builder each key whose {@code slotpool.*} twin is unset, and logs one INFO naming the keys read
     * and those a twin overrides (never values). Call after the {@code slotpool.*} properties are mapped.
     */
    void applyTo(SlotPoolBuilder b, SlotPoolProperties p) {
        // Bound here, not before: with another pool as the DataSource, the keys are that pool's business.
        Keys keys = Binder.get(environment).bind(PREFIX, Bindable.of(Keys.class)).orElseGet(Keys::new);
        Map<String, String> applied = new TreeMap<>();
        Map<String, String> overridden = new TreeMap<>();
        Step step = new Step(applied, overridden);
        Integer max = p.getMaxSize() != null ? p.getMaxSize() : keys.maximumPoolSize;
        step.carry("maximum-pool-size", "maxSize", keys.maximumPoolSize, p.getMaxSize(), b::maxSize);
        step.carry("minimum-idle", "minSize", minSize(keys.minimumIdle, max), p.getMinSize(), size -> {
            b.minSize(size);
            if (max == null && size > 0) {
                b.maxSize(HIKARI_DEFAULT_MAX); // the fixed size HikariCP gives it
            }
        });
        step.carry("connection-timeout", "borrowTimeout", borrowTimeout(keys.connectionTimeout), p.getBorrowTimeout(),
                b::borrowTimeout);
        step.carry("idle-timeout", "inactiveTimeout", millis(keys.idleTimeout), p.getInactiveTimeout(),
                b::inactiveTimeout);
        step.carry("max-lifetime", "maxLifetime", millis(keys.maxLifetime), p.getMaxLifetime(), b::maxLifetime);
        step.carry("keepalive-time", "keepaliveInterval", millis(keys.keepaliveTime), p.getKeepaliveInterval(),
                b::keepaliveInterval);
        step.carry("validation-timeout", "validationTimeout", millis(keys.validationTimeout),
                p.getValidationTimeout(), b::validationTimeout);
        step.carry("leak-detection-threshold", "leakDetectionThreshold", millis(keys.leakDetectionThreshold),
                p.getLeakDetectionThreshold(), b::leakDetectionThreshold);
        step.carry("initialization-fail-timeout", "initializationFailTimeout",
                millis(keys.initializationFailTimeout), p.getInitializationFailTimeout(),
                b::initializationFailTimeout);
        step.carry("connection-init-sql", "connectionInitSql", keys.connectionInitSql, p.getConnectionInitSql(),
                b::connectionInitSql);
        step.carry("connection-test-query", "validationQuery", keys.connectionTestQuery, p.getValidationQuery(),
                b::validationQuery);
        step.carry("transaction-isolation", "transactionIsolation", isolation(keys.transactionIsolation),
                p.getTransactionIsolation(), b::transactionIsolation);
        step.carry("auto-commit", "autoCommit", keys.autoCommit, p.getAutoCommit(), b::autoCommit);
        step.carry("read-only", "readOnly", keys.readOnly, p.getReadOnly(), b::readOnly);
        step.carry("catalog", "catalog", keys.catalog, p.getCatalog(), b::catalog);
        step.carry("schema", "schema", keys.schema, p.getSchema(), b::schema);
        step.carry("pool-name", "name", keys.poolName, p.getName(), b::name);
        if (!keys.dataSourceProperties.isEmpty()) {
            // Driver properties merge per key: slotpool.connection-properties' own keys win.
            keys.dataSourceProperties.forEach((k, v) -> {
                if (!p.getConnectionProperties().containsKey(k)) {
                    b.connectionProperty(k, v);
                }
            });
            applied.put("data-source-properties", "connectionProperties");
        }
        read = Map.copyOf(applied);
        if (!applied.isEmpty() || !overridden.isEmpty()) {
            log.info(PREFIX + ".* keys read for slotpool: " + applied.keySet().stream()
                    .map(k -> k + " → slotpool." + SlotPoolPropertiesMapper.kebab(applied.get(k)))
                    .collect(Collectors.joining(", "))
                    + overridden.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + " is set and wins)")
                    .collect(Collectors.joining(", ", applied.isEmpty() || overridden.isEmpty() ? "" : "; ", "")));
        }
    }

    /** The HikariCP keys (kebab form) {@link #applyTo} set on the pool. */
    Set<String> readKeys() {
        return read.keySet();
    }

    /** The property a user wrote for an engine setting this carry-over set, or null. */
    String propertyOf(String setting) {
        return read.entrySet().stream().filter(e -> e.getValue().equals(setting)).map(e -> PREFIX + "." + e.getKey())
                .findFirst().orElse(null);
    }

    /** minimum-idle as min-size: HikariCP reads a negative one, or one above the maximum, as the maximum. */
    private static Integer minSize(Integer minimumIdle, Integer max) {
        if (minimumIdle == null) {
            return null;
        }
        int effectiveMax = max != null ? max : HIKARI_DEFAULT_MAX;
        return minimumIdle < 0 || minimumIdle > effectiveMax ? effectiveMax : minimumIdle;
    }

    /** HikariCP's {@code connectionTimeout} 0 is its longest wait, {@code Integer.MAX_VALUE} milliseconds. */
    private static Duration borrowTimeout(Long millis) {
        return millis == null ? null : Duration.ofMillis(millis == 0 ? Integer.MAX_VALUE : millis);
    }

    private static Duration millis(Long millis) {
        return millis == null ? null : Duration.ofMillis(millis);
    }

    /** HikariCP also takes the level's number ({@code 2}); the engine takes its name. */
    private static String isolation(String level) {
        if (level == null) {
            return null;
        }
        return switch (level.trim()) {
            case "1" -> "TRANSACTION_READ_UNCOMMITTED";
            case "2" -> "TRANSACTION_READ_COMMITTED";
            case "4" -> "TRANSACTION_REPEATABLE_READ";
            case "8" -> "TRANSACTION_SERIALIZABLE";
            default -> level;
        };
    }

    /** Records what each key did: set its engine setting, or lost to its slotpool.* twin. */
    private record Step(Map<String, String> applied, Map<String, String> overridden) {

        <T> void carry(String key, String setting, T hikari, Object twin, Consumer<T> to) {
            if (hikari == null) {
                return;
            }
            if (twin != null) {
                overridden.put(key, "slotpool." + SlotPoolPropertiesMapper.kebab(setting));
                return;
            }
            to.accept(hikari);
            applied.put(key, setting);
        }
    }

    /** The bound keys, typed as HikariCP's setters take them. */
    static final class Keys {

        private Boolean autoCommit;
        private Integer maximumPoolSize;
        private Integer minimumIdle;
        private Long connectionTimeout;
        private Long idleTimeout;
        private Long maxLifetime;
        private Long keepaliveTime;
        private Long validationTimeout;
        private Long leakDetectionThreshold;
        private Long initializationFailTimeout;
        private String connectionInitSql;
        private String connectionTestQuery;
        private String transactionIsolation;
        private Boolean readOnly;
        private String catalog;
        private String schema;
        private String poolName;
        private Map<String, String> dataSourceProperties = new LinkedHashMap<>();

        public Boolean getAutoCommit() { return autoCommit; }
        public void setAutoCommit(Boolean autoCommit) { this.autoCommit = autoCommit; }
        public Integer getMaximumPoolSize() { return maximumPoolSize; }
        public void setMaximumPoolSize(Integer maximumPoolSize) { this.maximumPoolSize = maximumPoolSize; }
        public Integer getMinimumIdle() { return minimumIdle; }
        public void setMinimumIdle(Integer minimumIdle) { this.minimumIdle = minimumIdle; }
        public Long getConnectionTimeout() { return connectionTimeout; }
        public void setConnectionTimeout(Long connectionTimeout) { this.connectionTimeout = connectionTimeout; }
        public Long getIdleTimeout() { return idleTimeout; }
        public void setIdleTimeout(Long idleTimeout) { this.idleTimeout = idleTimeout; }
        public Long getMaxLifetime() { return maxLifetime; }
        public void setMaxLifetime(Long maxLifetime) { this.maxLifetime = maxLifetime; }
        public Long getKeepaliveTime() { return keepaliveTime; }
        public void setKeepaliveTime(Long keepaliveTime) { this.keepaliveTime = keepaliveTime; }
        public Long getValidationTimeout() { return validationTimeout; }
        public void setValidationTimeout(Long validationTimeout) { this.validationTimeout = validationTimeout; }
        public Long getLeakDetectionThreshold() { return leakDetectionThreshold; }
        public void setLeakDetectionThreshold(Long leakDetectionThreshold) { this.leakDetectionThreshold = leakDetectionThreshold; }
        public Long getInitializationFailTimeout() { return initializationFailTimeout; }
        public void setInitializationFailTimeout(Long initializationFailTimeout) { this.initializationFailTimeout = initializationFailTimeout; }
        public String getConnectionInitSql() { return connectionInitSql; }
        public void setConnectionInitSql(String connectionInitSql) { this.connectionInitSql = connectionInitSql; }
        public String getConnectionTestQuery() { return connectionTestQuery; }
        public void setConnectionTestQuery(String connectionTestQuery) { this.connectionTestQuery = connectionTestQuery; }
        public String getTransactionIsolation() { return transactionIsolation; }
        public void setTransactionIsolation(String transactionIsolation) { this.transactionIsolation = transactionIsolation; }
        public Boolean getReadOnly() { return readOnly; }
        public void setReadOnly(Boolean readOnly) { this.readOnly = readOnly; }
        public String getCatalog() { return catalog; }
        public void setCatalog(String catalog) { this.catalog = catalog; }
        public String getSchema() { return schema; }
        public void setSchema(String schema) { this.schema = schema; }
        public String getPoolName() { return poolName; }
        public void setPoolName(String poolName) { this.poolName = poolName; }
        public Map<String, String> getDataSourceProperties() { return dataSourceProperties; }
        public void setDataSourceProperties(Map<String, String> dataSourceProperties) { this.dataSourceProperties = dataSourceProperties; }
    }
}
