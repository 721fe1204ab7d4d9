package dev.slotpool;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;

/**
 * A pool's settings, validated and immutable. Made by {@code SlotPoolBuilder.config()}; every single value's
 * default, unit and range are its {@link Setting} row's, documented on the builder's setter and in
 * {@code docs/configuration.md}.
 */
public final class PoolConfig {

    final String name;
    final String url;
    final String username;
    final String password;
    final String driverClassName;
    final Map<String, String> connectionProperties;
    final List<OriginConfig> origins;
    final Pooler pooler;
    final int minSize;
    final int maxSize;
    final int initialSize;
    final Duration borrowTimeout;
    final Duration turnDuration;
    final int creatorThreads;
    final Duration creationBackoffMax;
    final Duration inactiveTimeout;
    final Duration maxLifetime;
    final Duration abandonedTimeout;
    final Duration timeToLive;
    final Duration keepaliveInterval;
    final Duration validateAfterIdle;
    final Duration connectTimeout;
    final Duration silenceTimeout;
    final Duration validationTimeout;
    final String validationQuery;
    final Duration housekeepingPeriod;
    final Duration shutdownTimeout;
    final Duration downGracePeriod;
    final boolean abortBorrowedOnDown;
    final boolean readsToStandbys;
    final Duration maxReplicaLag;
    final Balancing balancing;
    final Sizing sizing;
    final int fleetBudget;
    final int downAfterFailures;
    final int rebalanceStep;
    final boolean leakTracing;
    final Duration leakDetectionThreshold;
    final int statementCacheSize;
    final Duration initializationFailTimeout;
    final Boolean autoCommit;
    final Integer transactionIsolation;
    final Boolean readOnly;
    final String catalog;
    final String schema;
    final String connectionInitSql;
    final CredentialsProvider credentialsProvider;
    final SqlExceptionOverride exceptionOverride;
    final LabelingCallback labeling;
    final BorrowObserver borrowObserver;
    final ThreadFactory threadFactory;
    final List<PoolListener> listeners;
    final Ticker ticker;
    /** The settings as written, for {@link #value(Setting)}. */
    private final Settings settings;

    PoolConfig(Settings s, List<OriginConfig> resolvedOrigins) {
        settings = s.copy();
        name = s.get(Setting.NAME);
        url = s.get(Setting.URL);
        username = s.get(Setting.USERNAME);
        password = s.get(Setting.PASSWORD);
        driverClassName = s.get(Setting.DRIVER_CLASS_NAME);
        connectionProperties = Map.copyOf(s.connectionProperties);
        origins = List.copyOf(resolvedOrigins);
        pooler = s.get(Setting.POOLER);
        minSize = s.get(Setting.MIN_SIZE);
        maxSize = s.get(Setting.MAX_SIZE);
        initialSize = s.get(Setting.INITIAL_SIZE);
        borrowTimeout = s.get(Setting.BORROW_TIMEOUT);
        turnDuration = s.get(Setting.TURN_DURATION);
        creatorThreads = s.get(Setting.CREATOR_THREADS);
        creationBackoffMax = s.get(Setting.CREATION_BACKOFF_MAX);
        inactiveTimeout = s.get(Setting.INACTIVE_TIMEOUT);
        maxLifetime = s.get(Setting.MAX_LIFETIME);
        abandonedTimeout = s.get(Setting.ABANDONED_TIMEOUT);
        timeToLive = s.get(Setting.TIME_TO_LIVE);
        keepaliveInterval = s.get(Setting.KEEPALIVE_INTERVAL);
        validateAfterIdle = s.get(Setting.VALIDATE_AFTER_IDLE);
        connectTimeout = s.get(Setting.CONNECT_TIMEOUT);
        silenceTimeout = s.get(Setting.SILENCE_TIMEOUT);
        validationTimeout = s.get(Setting.VALIDATION_TIMEOUT);
        validationQuery = s.get(Setting.VALIDATION_QUERY);
        housekeepingPeriod = s.get(Setting.HOUSEKEEPING_PERIOD);
        shutdownTimeout = s.get(Setting.SHUTDOWN_TIMEOUT);
        downGracePeriod = s.get(Setting.DOWN_GRACE_PERIOD);
        abortBorrowedOnDown = s.get(Setting.ABORT_BORROWED_ON_DOWN);
        readsToStandbys = s.get(Setting.READS_TO_STANDBYS);
        maxReplicaLag = s.get(Setting.MAX_REPLICA_LAG);
        balancing = s.get(Setting.BALANCING);
        sizing = s.get(Setting.SIZING);
        fleetBudget = s.get(Setting.FLEET_BUDGET);
        downAfterFailures = s.get(Setting.DOWN_AFTER_FAILURES);
        rebalanceStep = s.get(Setting.REBALANCE_STEP);
        leakTracing = s.get(Setting.LEAK_TRACING);
        leakDetectionThreshold = s.get(Setting.LEAK_DETECTION_THRESHOLD);
        statementCacheSize = s.get(Setting.STATEMENT_CACHE_SIZE);
        initializationFailTimeout = s.get(Setting.INITIALIZATION_FAIL_TIMEOUT);
        autoCommit = s.get(Setting.AUTO_COMMIT);
        String isolation = s.get(Setting.TRANSACTION_ISOLATION);
        transactionIsolation = isolation == null ? null : TransactionIsolations.parse(isolation);
        readOnly = s.get(Setting.READ_ONLY);
        catalog = s.get(Setting.CATALOG);
        schema = s.get(Setting.SCHEMA);
        connectionInitSql = s.get(Setting.CONNECTION_INIT_SQL);
        credentialsProvider = s.credentialsProvider;
        exceptionOverride = s.exceptionOverride;
        labeling = s.labeling;
        borrowObserver = s.borrowObserver;
        threadFactory = s.threadFactory;
        listeners = List.copyOf(s.listeners);
        ticker = s.ticker;
    }

    public String name() { return name; }
    public String url() { return url; }
    public String username() { return username; }
    /** The password; never print it. */
    public String password() { return password; }
    public String driverClassName() { return driverClassName; }
    public Map<String, String> connectionProperties() { return connectionProperties; }
    /** The origins, each with the pool's url and credentials filled in where the origin had none. */
    public List<OriginConfig> origins() { return origins; }
    /** What sits in front of the database for origins that name none; each resolved origin carries its own. */
    public Pooler pooler() { return pooler; }
    public int minSize() { return minSize; }
    public int maxSize() { return maxSize; }
    public int initialSize() { return initialSize; }
    public Duration borrowTimeout() { return borrowTimeout; }
    public Duration turnDuration() { return turnDuration; }
    public int creatorThreads() { return creatorThreads; }
    public Duration creationBackoffMax() { return creationBackoffMax; }
    public Duration inactiveTimeout() { return inactiveTimeout; }
    public Duration maxLifetime() { return maxLifetime; }
    public Duration abandonedTimeout() { return abandonedTimeout; }
    public Duration timeToLive() { return timeToLive; }
    public Duration keepaliveInterval() { return keepaliveInterval; }
    public Duration validateAfterIdle() { return validateAfterIdle; }
    /** The unanswered time that counts a connect to an origin not known to answer as failed. */
    public Duration connectTimeout() { return connectTimeout; }
    /** The unanswered time that counts a connect to an origin that has answered before as failed. */
    public Duration silenceTimeout() { return silenceTimeout; }
    public Duration validationTimeout() { return validationTimeout; }
    public String validationQuery() { return validationQuery; }
    public Duration housekeepingPeriod() { return housekeepingPeriod; }
    public Duration shutdownTimeout() { return shutdownTimeout; }
    public Duration downGracePeriod() { return downGracePeriod; }
    public boolean abortBorrowedOnDown() { return abortBorrowedOnDown; }
    /** Whether standbys serve read borrows (docs/failover.md, "Reads to standbys"). */
    public boolean readsToStandbys() { return readsToStandbys; }
    /** The replica lag beyond which a standby takes no reads. */
    public Duration maxReplicaLag() { return maxReplicaLag; }
    public Balancing balancing() { return balancing; }
    public Sizing sizing() { return sizing; }
    /** The most sessions the origins may hold together under adaptive sizing; 0: no budget. */
    public int fleetBudget() { return fleetBudget; }
    public int downAfterFailures() { return downAfterFailures; }
    public int rebalanceStep() { return rebalanceStep; }
    public boolean leakTracing() { return leakTracing; }
    /** Borrowed longer than this is reported once per borrow; zero is off. */
    public Duration leakDetectionThreshold() { return leakDetectionThreshold; }
    /** Idle statements kept per connection (prepared and callable together); zero is off. */
    public int statementCacheSize() { return statementCacheSize; }
    /** How long build() waits for a first connection; negative: not at all. */
    public Duration initializationFailTimeout() { return initializationFailTimeout; }
    /** Auto-commit set on each new connection; null keeps the driver's. */
    public Boolean autoCommit() { return autoCommit; }
    /** A {@code Connection.TRANSACTION_*} level set on each new connection; null keeps the driver's. */
    public Integer transactionIsolation() { return transactionIsolation; }
    /** Read-only mode set on each new connection; null keeps the driver's. */
    public Boolean readOnly() { return readOnly; }
    /** Catalog set on each new connection; null keeps the driver's. */
    public String catalog() { return catalog; }
    /** Schema set on each new connection; null keeps the driver's. */
    public String schema() { return schema; }
    /** SQL run once on each new connection before it is lent; null runs nothing. */
    public String connectionInitSql() { return connectionInitSql; }
    /** Supplies credentials at each new connection; null uses the configured ones. */
    public CredentialsProvider credentialsProvider() { return credentialsProvider; }
    /** Consulted before the built-in eviction rules; null if none. */
    public SqlExceptionOverride exceptionOverride() { return exceptionOverride; }
    public LabelingCallback labeling() { return labeling; }
    /** Wraps each borrow (tracing); null if none. */
    public BorrowObserver borrowObserver() { return borrowObserver; }
    /** Makes the pool's threads; null for plain platform threads. */
    public ThreadFactory threadFactory() { return threadFactory; }
    public List<PoolListener> listeners() { return listeners; }
    public Ticker ticker() { return ticker; }

    /**
     * A setting of the table by its row, as the pool runs with it: the value set, else its default (one read from
     * other settings included); {@code transactionIsolation} as written ({@link #transactionIsolation()} has the
     * JDBC level).
     */
    public <T> T value(Setting<T> setting) {
        return settings.get(setting);
    }

    /** The settings as written (a copy of the builder's), for a built pool's bean properties. */
    Settings settings() {
        return settings;
    }

    /** The settings without secrets. */
    @Override
    public String toString() {
        return "PoolConfig[" + name + ", url=" + JdbcUrls.redact(url) + ", minSize=" + minSize + ", maxSize="
                + maxSize + ", origins=" + origins + "]";
    }
}
