package dev.slotpool;

import dev.slotpool.pool.ConnectionPool;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * Collects a pool's settings; {@link #build()} validates all of them, reports every violation in one
 * {@link InvalidPoolConfigException}, and starts the pool. Nothing is rewritten silently. Each setter of a single
 * value writes into its {@link Setting} row, which holds the default and the range the setter documents;
 * {@code docs/configuration.md} has the same table.
 */
public final class SlotPoolBuilder {

    /** Not final: {@link #over} shares a config's. */
    private Settings settings = new Settings();

    SlotPoolBuilder() {
    }

    /** Pool name, used in thread names, snapshots and metrics. Default {@code slotpool}; non-blank. */
    public SlotPoolBuilder name(String name) { return set(Setting.NAME, name); }

    /** JDBC URL of the default origin (and of origins that name none). Required unless every origin has one. */
    public SlotPoolBuilder url(String url) { return set(Setting.URL, url); }

    /** User name for every origin that names none. Optional. */
    public SlotPoolBuilder username(String username) { return set(Setting.USERNAME, username); }

    /** Password for every origin that names none. Optional; never printed. */
    public SlotPoolBuilder password(String password) { return set(Setting.PASSWORD, password); }

    /** Driver class to load; default: found by {@link java.sql.DriverManager} from the URL. */
    public SlotPoolBuilder driverClassName(String driverClassName) { return set(Setting.DRIVER_CLASS_NAME, driverClassName); }

    /** A driver property for every origin (e.g. Oracle's {@code defaultRowPrefetch}). */
    public SlotPoolBuilder connectionProperty(String key, String value) {
        settings.connectionProperties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return this;
    }

    /** What sits in front of the database for every origin that names none (docs/poolers.md). Default
     * {@link Pooler#NONE}. */
    public SlotPoolBuilder pooler(Pooler pooler) { return set(Setting.POOLER, pooler); }

    /** Adds an origin. Without any, the pool has one origin named {@code default} on {@link #url(String)}. */
    public SlotPoolBuilder origin(OriginConfig origin) { settings.origins.add(Objects.requireNonNull(origin, "origin")); return this; }

    /** Connections kept open even when idle. Default 2; 0 ≤ minSize ≤ maxSize. */
    public SlotPoolBuilder minSize(int minSize) { return set(Setting.MIN_SIZE, minSize); }

    /** Most connections, live and being created (S3). Default 10; 1 ≤ maxSize ≤ 100000. */
    public SlotPoolBuilder maxSize(int maxSize) { return set(Setting.MAX_SIZE, maxSize); }

    /** Connections opened at start. Default minSize; minSize ≤ initialSize ≤ maxSize. */
    public SlotPoolBuilder initialSize(int initialSize) { return set(Setting.INITIAL_SIZE, initialSize); }

    /** Longest a borrow waits for a connection. Default 30 s; 0 – 30 d (0 fails at once when none is free). */
    public SlotPoolBuilder borrowTimeout(Duration borrowTimeout) { return set(Setting.BORROW_TIMEOUT, borrowTimeout); }

    /**
     * While threads wait, how long a thread that the queue gave a connection may keep borrowing ahead of the
     * queue (its turn) before its returns go to the oldest waiter and its borrows join the back of the queue.
     * Default 250 µs; 0 – 1 s (0 = strict FIFO: every return goes to the oldest waiter). Shorter is fairer over
     * short windows, longer costs fewer context switches under contention. Behind 50 waiters or fewer a turn
     * is stretched, up to 5 ms (docs/architecture.md, "Turns").
     */
    public SlotPoolBuilder turnDuration(Duration turnDuration) { return set(Setting.TURN_DURATION, turnDuration); }

    /** Pool threads that open connections (user threads never do, S6). Default 2; 1–64. */
    public SlotPoolBuilder creatorThreads(int creatorThreads) { return set(Setting.CREATOR_THREADS, creatorThreads); }

    /** Cap of the exponential back-off between failed connection attempts. Default 5 s; 50 ms – 10 min. */
    public SlotPoolBuilder creationBackoffMax(Duration creationBackoffMax) { return set(Setting.CREATION_BACKOFF_MAX, creationBackoffMax); }

    /** Idle connections above minSize are closed after this. Default 10 min; 0 disables; else 1 s – 365 d. */
    public SlotPoolBuilder inactiveTimeout(Duration inactiveTimeout) { return set(Setting.INACTIVE_TIMEOUT, inactiveTimeout); }

    /** Connections are retired (when idle or at return) after this age, minus up to 2.5 % jitter so they do
     * not all reconnect at once. Default 30 min; 0 disables; else 1 s – 365 d. */
    public SlotPoolBuilder maxLifetime(Duration maxLifetime) { return set(Setting.MAX_LIFETIME, maxLifetime); }

    /** A borrowed connection with no JDBC activity for this long is taken back and aborted. Default 0 (off); 0 – 365 d. */
    public SlotPoolBuilder abandonedTimeout(Duration abandonedTimeout) { return set(Setting.ABANDONED_TIMEOUT, abandonedTimeout); }

    /** A connection borrowed for longer than this is taken back and aborted. Default 0 (off); 0 – 365 d. */
    public SlotPoolBuilder timeToLive(Duration timeToLive) { return set(Setting.TIME_TO_LIVE, timeToLive); }

    /** Idle connections are validated this often. Default 2 min; 0 disables; else 1 s – 365 d. */
    public SlotPoolBuilder keepaliveInterval(Duration keepaliveInterval) { return set(Setting.KEEPALIVE_INTERVAL, keepaliveInterval); }

    /** A connection idle for longer than this is validated before it is lent. Default 500 ms; 0 – 365 d (0 =
     * every borrow). */
    public SlotPoolBuilder validateAfterIdle(Duration validateAfterIdle) { return set(Setting.VALIDATE_AFTER_IDLE, validateAfterIdle); }

    /**
     * How long a connect or probe to an origin that has not answered yet (a first connect: a cold database, a busy
     * machine) may go unanswered before it counts as one failed connect; a later success is still used, and each
     * further period without an answer counts again. An origin that has answered before is judged by
     * {@link #silenceTimeout} instead. Default 30 s (HikariCP's effective bound: its connectionTimeout as the
     * driver's login timeout); 100 ms – 10 min.
     */
    public SlotPoolBuilder connectTimeout(Duration connectTimeout) { return set(Setting.CONNECT_TIMEOUT, connectTimeout); }

    /**
     * How long a connect or probe to an origin that has answered before may go unanswered before it counts as one
     * failed connect toward DOWN (a server gone silent); each further period counts again. Default: 2 s, or
     * connectTimeout if that is shorter; 100 ms – 10 min and at most connectTimeout.
     */
    public SlotPoolBuilder silenceTimeout(Duration silenceTimeout) { return set(Setting.SILENCE_TIMEOUT, silenceTimeout); }

    /** Longest a validation may take. Default 5 s; 1 s – 10 min (JDBC's isValid counts whole seconds). */
    public SlotPoolBuilder validationTimeout(Duration validationTimeout) { return set(Setting.VALIDATION_TIMEOUT, validationTimeout); }

    /** Query that validates a connection; default none ({@link java.sql.Connection#isValid(int)}). */
    public SlotPoolBuilder validationQuery(String validationQuery) { return set(Setting.VALIDATION_QUERY, validationQuery); }

    /** How often the housekeeper visits the table (timers, keepalive, rebalance, drains). Default 5 s;
     * 10 ms – 10 min. */
    public SlotPoolBuilder housekeepingPeriod(Duration housekeepingPeriod) { return set(Setting.HOUSEKEEPING_PERIOD, housekeepingPeriod); }

    /** At {@link SlotPoolDataSource#close()}, how long borrowed connections may take to come back before they
     * are aborted. Default 10 s; 0 – 1 h. */
    public SlotPoolBuilder shutdownTimeout(Duration shutdownTimeout) { return set(Setting.SHUTDOWN_TIMEOUT, shutdownTimeout); }

    /** After an origin goes DOWN, how long its borrowed connections may run before they are aborted.
     * Default 5 s; 0 – 365 d. */
    public SlotPoolBuilder downGracePeriod(Duration downGracePeriod) { return set(Setting.DOWN_GRACE_PERIOD, downGracePeriod); }

    /** Whether a DOWN origin's borrowed connections are aborted after {@link #downGracePeriod} (true) or only
     * closed when their holders return them (false). Default true. */
    public SlotPoolBuilder abortBorrowedOnDown(boolean abortBorrowedOnDown) { return set(Setting.ABORT_BORROWED_ON_DOWN, abortBorrowedOnDown); }

    /** Whether standbys serve read borrows ({@link SlotPoolDataSource#forReads()}): with it on, an origin whose
     * server is a standby stays UP, kept for reads, instead of DOWN for its role (docs/failover.md, "Reads to
     * standbys"). Default false. */
    public SlotPoolBuilder readsToStandbys(boolean readsToStandbys) { return set(Setting.READS_TO_STANDBYS, readsToStandbys); }

    /** With {@link #readsToStandbys}: a standby whose replica lag, read on the role watch's schedule (every
     * second), is beyond this takes no reads until it is back within it. Default 5 s; 0 (caught up only) –
     * 365 d. */
    public SlotPoolBuilder maxReplicaLag(Duration maxReplicaLag) { return set(Setting.MAX_REPLICA_LAG, maxReplicaLag); }

    /** How target shares are set: the weights, or the weights scaled by observed latency and errors.
     * Default {@link Balancing#WEIGHTS}. */
    public SlotPoolBuilder balancing(Balancing balancing) { return set(Setting.BALANCING, balancing); }

    /** Whether each origin may hold up to its cap, or keeps its connections in use under a limit the pool finds
     * and follows below it (docs/architecture.md, "Adaptive sizing"). Default {@link Sizing#FIXED}. */
    public SlotPoolBuilder sizing(Sizing sizing) { return set(Setting.SIZING, sizing); }

    /** With {@link Sizing#ADAPTIVE}: the most sessions the origins may hold together (this instance's share of a
     * server's {@code max_connections} or of a pooler's pool). Default 0 (no budget); minSize–100000. */
    public SlotPoolBuilder fleetBudget(int fleetBudget) { return set(Setting.FLEET_BUDGET, fleetBudget); }

    /** Failures in a row that mark an origin DOWN (a probe marks it UP again): failed or unanswered connects and
     * probes, or lent connections broken by connection-level errors, each counted apart. Connect failures alone,
     * on an origin whose sessions answer, close nothing: it is refusing new sessions (docs/failover.md
     * "Evidence"). Default 3; 0 disables detection; ≤ 1000. */
    public SlotPoolBuilder downAfterFailures(int downAfterFailures) { return set(Setting.DOWN_AFTER_FAILURES, downAfterFailures); }

    /** Most idle connections a rebalance retires per housekeeping visit. Default 2; 1–1000. */
    public SlotPoolBuilder rebalanceStep(int rebalanceStep) { return set(Setting.REBALANCE_STEP, rebalanceStep); }

    /** Record each borrower's stack, reported when a connection is taken back as abandoned. Default false. */
    public SlotPoolBuilder leakTracing(boolean leakTracing) { return set(Setting.LEAK_TRACING, leakTracing); }

    /** A connection borrowed longer than this is reported once per borrow (a LEAK event and a WARNING with the
     * holder's thread and borrow stack) and left with its holder. Default 0 (off); else 1 s – 365 d. */
    public SlotPoolBuilder leakDetectionThreshold(Duration leakDetectionThreshold) { return set(Setting.LEAK_DETECTION_THRESHOLD, leakDetectionThreshold); }

    /** Idle prepared and callable statements kept per connection for reuse by its next holders (prepared and
     * callable together; docs/statement-cache.md). Default 0 (off); 0–10000. */
    public SlotPoolBuilder statementCacheSize(int statementCacheSize) { return set(Setting.STATEMENT_CACHE_SIZE, statementCacheSize); }

    /**
     * How long {@link #build()} waits for a first connection on any origin before it fails with a
     * {@link PoolInitializationException} naming every origin and its last failure (it also waits for one failed
     * attempt per origin, at most connectTimeout longer). Default: connectTimeout (30 s, so a first connect that is
     * merely slow is waited for as HikariCP waits for its one attempt); 0 = one attempt per origin; negative = start
     * at once and fill in the background. Ignored when initialSize is 0. At most 10 min; at least −365 d.
     */
    public SlotPoolBuilder initializationFailTimeout(Duration initializationFailTimeout) { return set(Setting.INITIALIZATION_FAIL_TIMEOUT, initializationFailTimeout); }

    /** Auto-commit mode set on each new connection, and restored at return when a holder changed it. Default:
     * the driver's (JDBC says true). */
    public SlotPoolBuilder autoCommit(boolean autoCommit) { return set(Setting.AUTO_COMMIT, autoCommit); }

    /** Isolation level set on each new connection, and restored at return when a holder changed it:
     * {@code READ_COMMITTED}, {@code TRANSACTION_READ_COMMITTED} or {@code read-committed} (likewise
     * {@code READ_UNCOMMITTED}, {@code REPEATABLE_READ}, {@code SERIALIZABLE}). Default: the driver's. */
    public SlotPoolBuilder transactionIsolation(String transactionIsolation) { return set(Setting.TRANSACTION_ISOLATION, transactionIsolation); }

    /** Read-only mode set on each new connection, and restored at return when a holder changed it. Default: the
     * driver's (false). */
    public SlotPoolBuilder readOnly(boolean readOnly) { return set(Setting.READ_ONLY, readOnly); }

    /** Catalog set on each new connection, and restored at return when a holder changed it. Default: the
     * driver's. */
    public SlotPoolBuilder catalog(String catalog) { return set(Setting.CATALOG, catalog); }

    /** Schema set on each new connection, and restored at return when a holder changed it. Default: the
     * driver's. */
    public SlotPoolBuilder schema(String schema) { return set(Setting.SCHEMA, schema); }

    /** SQL run once on each new connection before it is lent (after the settings above); a failure closes the
     * connection and counts as a failed connect. Default none; non-blank if set. */
    public SlotPoolBuilder connectionInitSql(String connectionInitSql) { return set(Setting.CONNECTION_INIT_SQL, connectionInitSql); }

    /** Supplies user and password at each new connection (and probe), in place of the configured ones, so
     * rotated credentials work without a restart. Default none. */
    public SlotPoolBuilder credentialsProvider(CredentialsProvider credentialsProvider) { settings.credentialsProvider = credentialsProvider; return this; }

    /** Decides before the built-in rules whether an error on a lent connection evicts it. Default none. */
    public SlotPoolBuilder exceptionOverride(SqlExceptionOverride exceptionOverride) { settings.exceptionOverride = exceptionOverride; return this; }

    /** The callback for labeled borrows. Default none (labeled borrows are refused). */
    public SlotPoolBuilder labeling(LabelingCallback labeling) { settings.labeling = labeling; return this; }

    /** Wraps each borrow, for tracing (see {@link BorrowObserver}). Default none. */
    public SlotPoolBuilder borrowObserver(BorrowObserver borrowObserver) { settings.borrowObserver = borrowObserver; return this; }

    /**
     * Makes the pool's threads: creators, connect and probe attempts, the housekeeper, the closer (a thread group,
     * a context class loader, an uncaught-exception handler). The pool names each thread for its job
     * ({@code slotpool-<name>-creator-0}, ...) and makes it a daemon. Default none: plain platform threads.
     */
    public SlotPoolBuilder threadFactory(ThreadFactory threadFactory) { settings.threadFactory = threadFactory; return this; }

    /** Adds an event listener. */
    public SlotPoolBuilder listener(PoolListener listener) { settings.listeners.add(Objects.requireNonNull(listener, "listener")); return this; }

    /** The clock for timers (tests inject a manual one). Default {@link Ticker#SYSTEM}. */
    public SlotPoolBuilder ticker(Ticker ticker) { settings.ticker = ticker; return this; }

    /**
     * Sets a setting of the table by its row: {@code set(Setting.MAX_SIZE, 20)} is {@code maxSize(20)}. Null leaves
     * a setting that has no fixed default unset (and is refused by the others' rules).
     */
    public <T> SlotPoolBuilder set(Setting<T> setting, T value) {
        settings.set(setting, value);
        return this;
    }

    /** {@return the value set for {@code setting}, or null when it is unset (its default then applies)} */
    public <T> T value(Setting<T> setting) {
        return settings.raw(setting);
    }

    /** {@return the origins added so far, as added} */
    public List<OriginConfig> origins() {
        return List.copyOf(settings.origins);
    }

    /** {@return the driver properties set so far (values are never printed)} */
    public Map<String, String> connectionProperties() {
        return Map.copyOf(settings.connectionProperties);
    }

    /**
     * Validates and starts the pool; waits for a first connection as {@link #initializationFailTimeout} says.
     *
     * @throws InvalidPoolConfigException listing every invalid setting
     * @throws PoolInitializationException when no origin gave a first connection in time
     */
    public SlotPoolDataSource build() {
        PoolConfig config = config();
        return new SlotPoolDataSource(over(config.settings()), ConnectionPool.startedWithFirstConnection(config));
    }

    /**
     * Validates the settings without starting a pool.
     *
     * @throws InvalidPoolConfigException listing every violation
     */
    public PoolConfig config() {
        return new PoolConfig(settings, SettingsCheck.check(settings));
    }

    /** The settings collected so far, for a bean-style pool's properties. */
    Settings settings() {
        return settings;
    }

    /** The value set, else the fixed default: what a bean-style pool's getter shows. */
    <T> T written(Setting<T> setting) {
        return settings.written(setting);
    }

    /**
     * A builder over the settings a config was made from, for a built pool's bean properties: the config's own copy,
     * which later changes to this builder (which may build more pools) do not reach; the pool never writes to it.
     */
    private static SlotPoolBuilder over(Settings settings) {
        SlotPoolBuilder b = new SlotPoolBuilder();
        b.settings = settings;
        return b;
    }
}
