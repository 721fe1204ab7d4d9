package dev.slotpool.autoconfigure;

import dev.slotpool.Balancing;
import dev.slotpool.Sizing;
import dev.slotpool.Pooler;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code slotpool.*} properties: a thin bean for Boot's binding and metadata. Every field but the two switches
 * ({@code enabled}, {@code failOnUnknownProperties}) is nullable: {@link SlotPoolPropertiesMapper} copies only what
 * is set onto the engine's builder, which keeps the defaults and the range checks (the engine's
 * {@link dev.slotpool.Setting} table). Unknown keys under {@code slotpool.} fail startup rather than being ignored
 * (unless {@code fail-on-unknown-properties} is false: {@link LenientSlotPoolBinding}). A field's comment is its
 * description in the generated configuration metadata, a table row's is the row's description;
 * {@code docs/configuration.md} has the same list.
 */
@ConfigurationProperties(prefix = "slotpool", ignoreUnknownFields = false)
public class SlotPoolProperties {

    /** Whether slotpool becomes the application's DataSource. */
    private boolean enabled = true;

    /** Whether an unknown key under slotpool. fails startup; false names such keys in a WARN instead (shared configuration, such as a config server's, with keys of another slotpool version). */
    private boolean failOnUnknownProperties = true;

    // The engine's settings: one field per row of the dev.slotpool.Setting table with the row's name and type
    // (SlotPoolPropertiesTableTest); each row's description and default are its metadata entry in
    // additional-spring-configuration-metadata.json.
    private String name;
    private Integer minSize;
    private Integer maxSize;
    private Integer initialSize;
    private Duration borrowTimeout;
    private Duration turnDuration;
    private Integer creatorThreads;
    private Duration creationBackoffMax;
    private Duration inactiveTimeout;
    private Duration maxLifetime;
    private Duration abandonedTimeout;
    private Duration timeToLive;
    private Duration keepaliveInterval;
    private Duration validateAfterIdle;
    private Duration connectTimeout;
    private Duration silenceTimeout;
    private Duration validationTimeout;
    private String validationQuery;
    private Duration housekeepingPeriod;
    private Duration shutdownTimeout;
    private Duration downGracePeriod;
    private Boolean abortBorrowedOnDown;
    private Boolean readsToStandbys;
    private Duration maxReplicaLag;
    private Balancing balancing;
    private Sizing sizing;
    private Integer fleetBudget;
    private Pooler pooler;
    private Integer downAfterFailures;
    private Integer rebalanceStep;
    private Integer statementCacheSize;
    private Boolean leakTracing;
    private Duration leakDetectionThreshold;
    private Duration initializationFailTimeout;
    private Boolean autoCommit;
    private String transactionIsolation;
    private Boolean readOnly;
    private String catalog;
    private String schema;
    private String connectionInitSql;

    /** Driver properties for every origin (an origin's own connection-properties win); values are never printed. */
    private Map<String, String> connectionProperties = new LinkedHashMap<>();

    /** The origins (databases, instances or hosts) the pool spans; when empty, spring.datasource.url is the one origin, named "default". */
    private List<Origin> origins = new ArrayList<>();

    /** Oracle settings (driver properties, FAN). */
    private final Oracle oracle = new Oracle();

    /** The admin console (module slotpool-console). */
    private final Console console = new Console();

    /** The pool's meters. */
    private final Metrics metrics = new Metrics();

    /** Spring Security roles (without the ROLE_ prefix) whose users may act on the pool through the console and see who holds its connections, at the console and /actuator/pool/{origin}; none named means nobody (docs/console.md, Security model). */
    private List<String> operatorRoles = new ArrayList<>();

    /** Host names (or IP literals, IPv6 in brackets), besides loopback ones, that an action on the pool (a POST to the console or /actuator/pool) may be addressed to in the request's Host header when Spring Security is absent; the request's Origin, when sent, must name that Host too. Against DNS rebinding (docs/console.md, Security model). */
    private List<String> allowedHosts = new ArrayList<>();

    /** The pool's meters beyond slotpool.* (docs/operations.md, Meters). */
    public static class Metrics {

        /** Whether to register HikariCP's meter names too (hikaricp.connections, .active, .idle, .pending, .max, .min, .timeout, .acquire, .usage; tag pool), so dashboards and alerts written for HikariCP keep reading. */
        private boolean hikaricp;

        public boolean isHikaricp() { return hikaricp; }
        public void setHikaricp(boolean hikaricp) { this.hikaricp = hikaricp; }
    }

    /** One origin of the pool. */
    public static class Origin {

        /** Origin name, unique in the pool; used by the endpoint, metrics and the console. */
        private String name;

        /** JDBC URL of this origin; unset uses spring.datasource.url. */
        private String url;

        /** User name for this origin; unset uses spring.datasource.username. */
        private String username;

        /** Password for this origin; unset uses spring.datasource.password. Never printed. */
        private String password;

        /** Service dimension (e.g. the Oracle service name), shown in snapshots and usable to select origins. */
        private String service;

        /** Database dimension. */
        private String database;

        /** Instance dimension (e.g. the Oracle instance or PostgreSQL server). */
        private String instance;

        /** Host dimension. */
        private String host;

        /** Relative share of connections and borrows (at least 0; one origin above 0). Engine default: 1. */
        private Integer weight;

        /** Cap on this origin's connections, counting those being opened; 0 means only max-size. Engine default: 0. */
        private Integer maxConnections;

        /** Driver properties for this origin, merged over slotpool.connection-properties; values are never printed. */
        private Map<String, String> connectionProperties = new LinkedHashMap<>();

        /** Discovery query run on every new connection of this origin: its first column names the server the connection landed on, which becomes an origin of its own (columns service, database, instance, host fill its dimensions). */
        private String originQuery;

        /** What sits in front of this origin's database (as slotpool.pooler); unset: the pool's. */
        private Pooler pooler;

        /** The pooler's admin console, postgresql://host:port/pgbouncer?user=name (add &password=... for a password login; never printed): its SHOW POOLS view of this origin's database appears in the snapshot. */
        private String poolerAdminUrl;

        public String getName() { return name; }
        public void setName(String name) { this.name = name; }
        public String getUrl() { return url; }
        public void setUrl(String url) { this.url = url; }
        public String getUsername() { return username; }
        public void setUsername(String username) { this.username = username; }
        public String getPassword() { return password; }
        public void setPassword(String password) { this.password = password; }
        public String getService() { return service; }
        public void setService(String service) { this.service = service; }
        public String getDatabase() { return database; }
        public void setDatabase(String database) { this.database = database; }
        public String getInstance() { return instance; }
        public void setInstance(String instance) { this.instance = instance; }
        public String getHost() { return host; }
        public void setHost(String host) { this.host = host; }
        public Integer getWeight() { return weight; }
        public void setWeight(Integer weight) { this.weight = weight; }
        public Integer getMaxConnections() { return maxConnections; }
        public void setMaxConnections(Integer maxConnections) { this.maxConnections = maxConnections; }
        public Map<String, String> getConnectionProperties() { return connectionProperties; }
        public void setConnectionProperties(Map<String, String> connectionProperties) { this.connectionProperties = connectionProperties; }
        public String getOriginQuery() { return originQuery; }
        public void setOriginQuery(String originQuery) { this.originQuery = originQuery; }
        public Pooler getPooler() { return pooler; }
        public void setPooler(Pooler pooler) { this.pooler = pooler; }
        public String getPoolerAdminUrl() { return poolerAdminUrl; }
        public void setPoolerAdminUrl(String poolerAdminUrl) { this.poolerAdminUrl = poolerAdminUrl; }
    }

    /** Oracle settings: driver properties applied to every origin, and the FAN adapter. */
    public static class Oracle {

        /** Rows the Oracle driver fetches per round trip for every statement (driver property defaultRowPrefetch, at least 1). Driver default: 10. */
        private Integer defaultRowPrefetch;

        /** Oracle RAC Fast Application Notification (docs/oracle.md). */
        private final Fan fan = new Fan();

        public Integer getDefaultRowPrefetch() { return defaultRowPrefetch; }
        public void setDefaultRowPrefetch(Integer defaultRowPrefetch) { this.defaultRowPrefetch = defaultRowPrefetch; }
        public Fan getFan() { return fan; }
    }

    /**
     * The Oracle FAN adapter (package {@code dev.slotpool.autoconfigure.oracle}): needs
     * {@code com.oracle.database.ha:simplefan} and {@code ons} on the class path and origins with a service.
     */
    public static class Fan {

        /** Whether FAN events (service and node DOWN/UP, load advisories) drain, mark down, mark up and rebalance the matching origins; needs simplefan and ons on the class path. */
        private boolean enabled;

        /** ONS client configuration handed to simplefan, e.g. nodes=rac1:6200,rac2:6200; unset leaves ONS to simplefan's defaults (an Oracle home's ons.config). */
        private String onsConfiguration;

        /** Oracle wallet (directory or file) for SSL to the ONS daemons; added to ons-configuration as walletfile. */
        private String walletFile;

        /** Password of the ONS wallet; added to ons-configuration as walletpassword. Never printed. */
        private String walletPassword;

        /** Drain timeout of a planned DOWN (reason USER) whose event carries none (at least 0). Default: 30s. */
        private Duration drainTimeoutDefault;

        public boolean isEnabled() { return enabled; }
        public void setEnabled(boolean enabled) { this.enabled = enabled; }
        public String getOnsConfiguration() { return onsConfiguration; }
        public void setOnsConfiguration(String onsConfiguration) { this.onsConfiguration = onsConfiguration; }
        public String getWalletFile() { return walletFile; }
        public void setWalletFile(String walletFile) { this.walletFile = walletFile; }
        public String getWalletPassword() { return walletPassword; }
        public void setWalletPassword(String walletPassword) { this.walletPassword = walletPassword; }
        public Duration getDrainTimeoutDefault() { return drainTimeoutDefault; }
        public void setDrainTimeoutDefault(Duration drainTimeoutDefault) { this.drainTimeoutDefault = drainTimeoutDefault; }
    }

    /**
     * The admin console's settings (docs/console.md). Nested here because {@code slotpool.*} rejects unknown keys.
     */
    public static class Console {

        /** Whether the admin console is served (when the slotpool-console module, Spring MVC and Thymeleaf are present); off unless true, with or without Spring Security. */
        private Boolean enabled;

        /** Path of the admin console's page; its snapshot, stream, actions and assets are below it. */
        private String path = "/slotpool";

        /** Whether the console may act on the pool, within what management.endpoint.pool.access permits; unset means only for users with one of slotpool.operator-roles (Spring Security), nobody without Spring Security (true: whoever reaches the console, trusted networks only). */
        private Boolean actionsEnabled;

        public Boolean getEnabled() { return enabled; }
        public void setEnabled(Boolean enabled) { this.enabled = enabled; }
        public String getPath() { return path; }
        public void setPath(String path) { this.path = path; }
        public Boolean getActionsEnabled() { return actionsEnabled; }
        public void setActionsEnabled(Boolean actionsEnabled) { this.actionsEnabled = actionsEnabled; }
    }

    public boolean isEnabled() { return enabled; }
    public void setEnabled(boolean enabled) { this.enabled = enabled; }
    public boolean isFailOnUnknownProperties() { return failOnUnknownProperties; }
    public void setFailOnUnknownProperties(boolean failOnUnknownProperties) { this.failOnUnknownProperties = failOnUnknownProperties; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public Integer getMinSize() { return minSize; }
    public void setMinSize(Integer minSize) { this.minSize = minSize; }
    public Integer getMaxSize() { return maxSize; }
    public void setMaxSize(Integer maxSize) { this.maxSize = maxSize; }
    public Integer getInitialSize() { return initialSize; }
    public void setInitialSize(Integer initialSize) { this.initialSize = initialSize; }
    public Duration getBorrowTimeout() { return borrowTimeout; }
    public void setBorrowTimeout(Duration borrowTimeout) { this.borrowTimeout = borrowTimeout; }
    public Duration getTurnDuration() { return turnDuration; }
    public void setTurnDuration(Duration turnDuration) { this.turnDuration = turnDuration; }
    public Integer getCreatorThreads() { return creatorThreads; }
    public void setCreatorThreads(Integer creatorThreads) { this.creatorThreads = creatorThreads; }
    public Duration getCreationBackoffMax() { return creationBackoffMax; }
    public void setCreationBackoffMax(Duration creationBackoffMax) { this.creationBackoffMax = creationBackoffMax; }
    public Duration getInactiveTimeout() { return inactiveTimeout; }
    public void setInactiveTimeout(Duration inactiveTimeout) { this.inactiveTimeout = inactiveTimeout; }
    public Duration getMaxLifetime() { return maxLifetime; }
    public void setMaxLifetime(Duration maxLifetime) { this.maxLifetime = maxLifetime; }
    public Duration getAbandonedTimeout() { return abandonedTimeout; }
    public void setAbandonedTimeout(Duration abandonedTimeout) { this.abandonedTimeout = abandonedTimeout; }
    public Duration getTimeToLive() { return timeToLive; }
    public void setTimeToLive(Duration timeToLive) { this.timeToLive = timeToLive; }
    public Duration getKeepaliveInterval() { return keepaliveInterval; }
    public void setKeepaliveInterval(Duration keepaliveInterval) { this.keepaliveInterval = keepaliveInterval; }
    public Duration getValidateAfterIdle() { return validateAfterIdle; }
    public void setValidateAfterIdle(Duration validateAfterIdle) { this.validateAfterIdle = validateAfterIdle; }
    public Duration getConnectTimeout() { return connectTimeout; }
    public void setConnectTimeout(Duration connectTimeout) { this.connectTimeout = connectTimeout; }
    public Duration getSilenceTimeout() { return silenceTimeout; }
    public void setSilenceTimeout(Duration silenceTimeout) { this.silenceTimeout = silenceTimeout; }
    public Duration getValidationTimeout() { return validationTimeout; }
    public void setValidationTimeout(Duration validationTimeout) { this.validationTimeout = validationTimeout; }
    public String getValidationQuery() { return validationQuery; }
    public void setValidationQuery(String validationQuery) { this.validationQuery = validationQuery; }
    public Duration getHousekeepingPeriod() { return housekeepingPeriod; }
    public void setHousekeepingPeriod(Duration housekeepingPeriod) { this.housekeepingPeriod = housekeepingPeriod; }
    public Duration getShutdownTimeout() { return shutdownTimeout; }
    public void setShutdownTimeout(Duration shutdownTimeout) { this.shutdownTimeout = shutdownTimeout; }
    public Duration getDownGracePeriod() { return downGracePeriod; }
    public void setDownGracePeriod(Duration downGracePeriod) { this.downGracePeriod = downGracePeriod; }
    public Boolean getAbortBorrowedOnDown() { return abortBorrowedOnDown; }
    public void setAbortBorrowedOnDown(Boolean abortBorrowedOnDown) { this.abortBorrowedOnDown = abortBorrowedOnDown; }
    public Boolean getReadsToStandbys() { return readsToStandbys; }
    public void setReadsToStandbys(Boolean readsToStandbys) { this.readsToStandbys = readsToStandbys; }
    public Duration getMaxReplicaLag() { return maxReplicaLag; }
    public void setMaxReplicaLag(Duration maxReplicaLag) { this.maxReplicaLag = maxReplicaLag; }
    public Balancing getBalancing() { return balancing; }
    public void setBalancing(Balancing balancing) { this.balancing = balancing; }
    public Sizing getSizing() { return sizing; }
    public void setSizing(Sizing sizing) { this.sizing = sizing; }
    public Integer getFleetBudget() { return fleetBudget; }
    public void setFleetBudget(Integer fleetBudget) { this.fleetBudget = fleetBudget; }
    public Pooler getPooler() { return pooler; }
    public void setPooler(Pooler pooler) { this.pooler = pooler; }
    public Integer getDownAfterFailures() { return downAfterFailures; }
    public void setDownAfterFailures(Integer downAfterFailures) { this.downAfterFailures = downAfterFailures; }
    public Integer getRebalanceStep() { return rebalanceStep; }
    public void setRebalanceStep(Integer rebalanceStep) { this.rebalanceStep = rebalanceStep; }
    public Integer getStatementCacheSize() { return statementCacheSize; }
    public void setStatementCacheSize(Integer statementCacheSize) { this.statementCacheSize = statementCacheSize; }
    public Boolean getLeakTracing() { return leakTracing; }
    public void setLeakTracing(Boolean leakTracing) { this.leakTracing = leakTracing; }
    public Duration getLeakDetectionThreshold() { return leakDetectionThreshold; }
    public void setLeakDetectionThreshold(Duration leakDetectionThreshold) { this.leakDetectionThreshold = leakDetectionThreshold; }
    public Duration getInitializationFailTimeout() { return initializationFailTimeout; }
    public void setInitializationFailTimeout(Duration initializationFailTimeout) { this.initializationFailTimeout = initializationFailTimeout; }
    public Boolean getAutoCommit() { return autoCommit; }
    public void setAutoCommit(Boolean autoCommit) { this.autoCommit = autoCommit; }
    public String getTransactionIsolation() { return transactionIsolation; }
    public void setTransactionIsolation(String transactionIsolation) { this.transactionIsolation = transactionIsolation; }
    public Boolean getReadOnly() { return readOnly; }
    public void setReadOnly(Boolean readOnly) { this.readOnly = readOnly; }
    public String getCatalog() { return catalog; }
    public void setCatalog(String catalog) { this.catalog = catalog; }
    public String getSchema() { return schema; }
    public void setSchema(String schema) { this.schema = schema; }
    public String getConnectionInitSql() { return connectionInitSql; }
    public void setConnectionInitSql(String connectionInitSql) { this.connectionInitSql = connectionInitSql; }
    public Map<String, String> getConnectionProperties() { return connectionProperties; }
    public void setConnectionProperties(Map<String, String> connectionProperties) { this.connectionProperties = connectionProperties; }
    public List<Origin> getOrigins() { return origins; }
    public void setOrigins(List<Origin> origins) { this.origins = origins; }
    public Oracle getOracle() { return oracle; }
    public Console getConsole() { return console; }
    public Metrics getMetrics() { return metrics; }
    public List<String> getOperatorRoles() { return operatorRoles; }
    public void setOperatorRoles(List<String> operatorRoles) { this.operatorRoles = operatorRoles; }
    public List<String> getAllowedHosts() { return allowedHosts; }
    public void setAllowedHosts(List<String> allowedHosts) { this.allowedHosts = allowedHosts; }
}
