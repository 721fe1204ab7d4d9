package dev.slotpool;

import dev.slotpool.pool.ConnectionPool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * Collects a pool's settings; {@link #build()} validates all of them, reports every violation in one
 * {@link InvalidPoolConfigException}, and starts the pool. Nothing is rewritten silently. Each setter documents
 * its default and range; {@code docs/configuration.md} has the same table.
 */
public final class SlotPoolBuilder implements Cloneable {

    /** silenceTimeout when unset (and connectTimeout is not shorter): the connect timeout the pool used before a
     * first connect got its own, longer budget, so silent-origin detection keeps its pace (docs/failover.md). */
    static final Duration DEFAULT_SILENCE = Duration.ofSeconds(2);

    String name = "slotpool";
    String url;
    String username;
    String password;
    String driverClassName;
    // Not final: copy() gives the copy its own.
    Map<String, String> connectionProperties = new LinkedHashMap<>();
    List<OriginConfig> origins = new ArrayList<>();
    Pooler pooler = Pooler.NONE;
    int minSize = 2;
    int maxSize = 10;
    Integer initialSize;
    Duration borrowTimeout = Duration.ofSeconds(30);
    Duration turnDuration = Duration.ofNanos(250_000);
    int creatorThreads = 2;
    Duration creationBackoffMax = Duration.ofSeconds(5);
    Duration connectTimeout = Duration.ofSeconds(30);
    Duration silenceTimeout;
    Duration inactiveTimeout = Duration.ofMinutes(10);
    Duration maxLifetime = Duration.ofMinutes(30);
    Duration abandonedTimeout = Duration.ZERO;
    Duration timeToLive = Duration.ZERO;
    Duration keepaliveInterval = Duration.ofMinutes(2);
    Duration validateAfterIdle = Duration.ofMillis(500);
    Duration validationTimeout = Duration.ofSeconds(5);
    String validationQuery;
    Duration housekeepingPeriod = Duration.ofSeconds(5);
    Duration shutdownTimeout = Duration.ofSeconds(10);
    Duration downGracePeriod = Duration.ofSeconds(5);
    boolean abortBorrowedOnDown = true;
    boolean readsToStandbys;
    Duration maxReplicaLag = Duration.ofSeconds(5);
    Balancing balancing = Balancing.WEIGHTS;
    int downAfterFailures = 3;
    int rebalanceStep = 2;
    boolean leakTracing;
    Duration leakDetectionThreshold = Duration.ZERO;
    int statementCacheSize;
    Duration initializationFailTimeout;
    Boolean autoCommit;
    String transactionIsolation;
    Boolean readOnly;
    String catalog;
    String schema;
    String connectionInitSql;
    CredentialsProvider credentialsProvider;
    SqlExceptionOverride exceptionOverride;
    LabelingCallback labeling;
    BorrowObserver borrowObserver;
    ThreadFactory threadFactory;
    List<PoolListener> listeners = new ArrayList<>();
    Ticker ticker = Ticker.SYSTEM;

    SlotPoolBuilder() {
    }

    /** Pool name, used in thread names, snapshots and metrics. Default {@code slotpool}; non-blank. */
    public SlotPoolBuilder name(String name) { this.name = name; return this; }

    /** JDBC URL of the default origin (and of origins that name none). Required unless every origin has one. */
    public SlotPoolBuilder url(String url) { this.url = url; return this; }

    /** User name for every origin that names none. Optional. */
    public SlotPoolBuilder username(String username) { this.username = username; return this; }

    /** Password for every origin that names none. Optional; never printed. */
    public SlotPoolBuilder password(String password) { this.password = password; return this; }

    /** Driver class to load; default: found by {@link java.sql.DriverManager} from the URL. */
    public SlotPoolBuilder driverClassName(String driverClassName) { this.driverClassName = driverClassName; return this; }

    /** A driver property for every origin (e.g. Oracle's {@code defaultRowPrefetch}). */
    public SlotPoolBuilder connectionProperty(String key, String value) {
        connectionProperties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return this;
    }

    /** What sits in front of the database for every origin that names none (docs/poolers.md). Default
     * {@link Pooler#NONE}. */
    public SlotPoolBuilder pooler(Pooler pooler) { this.pooler = pooler; return this; }

    /** Adds an origin. Without any, the pool has one origin named {@code default} on {@link #url(String)}. */
    public SlotPoolBuilder origin(OriginConfig origin) { origins.add(Objects.requireNonNull(origin, "origin")); return this; }

    /** Connections kept open even when idle. Default 2; 0 ≤ minSize ≤ maxSize. */
    public SlotPoolBuilder minSize(int minSize) { this.minSize = minSize; return this; }

    /** Most connections, live and being created (S3). Default 10; 1 ≤ maxSize ≤ 100000. */
    public SlotPoolBuilder maxSize(int maxSize) { this.maxSize = maxSize; return this; }

    /** Connections opened at start. Default minSize; minSize ≤ initialSize ≤ maxSize. */
    public SlotPoolBuilder initialSize(int initialSize) { this.initialSize = initialSize; return this; }

    /** Longest a borrow waits for a connection. Default 30 s; 0 – 30 d (0 fails at once when none is free). */
    public SlotPoolBuilder borrowTimeout(Duration borrowTimeout) { this.borrowTimeout = borrowTimeout; return this; }

    /**
     * While threads wait, how long a thread that the queue gave a connection may keep borrowing ahead of the
     * queue (its turn) before its returns go to the oldest waiter and its borrows join the back of the queue.
     * Default 250 µs; 0 – 1 s (0 = strict FIFO: every return goes to the oldest waiter). Shorter is fairer over
     * short windows, longer costs fewer context switches under contention. Behind 50 waiters or fewer a turn
     * is stretched, up to 5 ms (docs/architecture.md, "Turns").
     */
    public SlotPoolBuilder turnDuration(Duration turnDuration) { this.turnDuration = turnDuration; return this; }

    /** Pool threads that open connections (user threads never do, S6). Default 2; 1–64. */
    public SlotPoolBuilder creatorThreads(int creatorThreads) { this.creatorThreads = creatorThreads; return this; }

    /** Cap of the exponential back-off between failed connection attempts. Default 5 s; 50 ms – 10 min. */
    public SlotPoolBuilder creationBackoffMax(Duration creationBackoffMax) { this.creationBackoffMax = creationBackoffMax; return this; }

    /** Idle connections above minSize are closed after this. Default 10 min; 0 disables; else 1 s – 365 d. */
    public SlotPoolBuilder inactiveTimeout(Duration inactiveTimeout) { this.inactiveTimeout = inactiveTimeout; return this; }

    /** Connections are retired (when idle or at return) after this age, minus up to 2.5 % jitter so they do
     * not all reconnect at once. Default 30 min; 0 disables; else 1 s – 365 d. */
    public SlotPoolBuilder maxLifetime(Duration maxLifetime) { this.maxLifetime = maxLifetime; return this; }

    /** A borrowed connection with no JDBC activity for this long is taken back and aborted. Default 0 (off); 0 – 365 d. */
    public SlotPoolBuilder abandonedTimeout(Duration abandonedTimeout) { this.abandonedTimeout = abandonedTimeout; return this; }

    /** A connection borrowed for longer than this is taken back and aborted. Default 0 (off); 0 – 365 d. */
    public SlotPoolBuilder timeToLive(Duration timeToLive) { this.timeToLive = timeToLive; return this; }

    /** Idle connections are validated this often. Default 2 min; 0 disables; else 1 s – 365 d. */
    public SlotPoolBuilder keepaliveInterval(Duration keepaliveInterval) { this.keepaliveInterval = keepaliveInterval; return this; }

    /** A connection idle for longer than this is validated before it is lent. Default 500 ms; 0 – 365 d (0 =
     * every borrow). */
    public SlotPoolBuilder validateAfterIdle(Duration validateAfterIdle) { this.validateAfterIdle = validateAfterIdle; return this; }

    /**
     * How long a connect or probe to an origin that has not answered yet (a first connect: a cold database, a busy
     * machine) may go unanswered before it counts as one failed connect; a later success is still used, and each
     * further period without an answer counts again. An origin that has answered before is judged by
     * {@link #silenceTimeout} instead. Default 30 s (HikariCP's effective bound: its connectionTimeout as the
     * driver's login timeout); 100 ms – 10 min.
     */
    public SlotPoolBuilder connectTimeout(Duration connectTimeout) { this.connectTimeout = connectTimeout; return this; }

    /**
     * How long a connect or probe to an origin that has answered before may go unanswered before it counts as one
     * failed connect toward DOWN (a server gone silent); each further period counts again. Default: 2 s, or
     * connectTimeout if that is shorter; 100 ms – 10 min and at most connectTimeout.
     */
    public SlotPoolBuilder silenceTimeout(Duration silenceTimeout) { this.silenceTimeout = silenceTimeout; return this; }

    /** Longest a validation may take. Default 5 s; 1 s – 10 min (JDBC's isValid counts whole seconds). */
    public SlotPoolBuilder validationTimeout(Duration validationTimeout) { this.validationTimeout = validationTimeout; return this; }

    /** Query that validates a connection; default none ({@link java.sql.Connection#isValid(int)}). */
    public SlotPoolBuilder validationQuery(String validationQuery) { this.validationQuery = validationQuery; return this; }

    /** How often the housekeeper visits the table (timers, keepalive, rebalance, drains). Default 5 s;
     * 10 ms – 10 min. */
    public SlotPoolBuilder housekeepingPeriod(Duration housekeepingPeriod) { this.housekeepingPeriod = housekeepingPeriod; return this; }

    /** At {@link SlotPoolDataSource#close()}, how long borrowed connections may take to come back before they
     * are aborted. Default 10 s; 0 – 1 h. */
    public SlotPoolBuilder shutdownTimeout(Duration shutdownTimeout) { this.shutdownTimeout = shutdownTimeout; return this; }

    /** After an origin goes DOWN, how long its borrowed connections may run before they are aborted.
     * Default 5 s; 0 – 365 d. */
    public SlotPoolBuilder downGracePeriod(Duration downGracePeriod) { this.downGracePeriod = downGracePeriod; return this; }

    /** Whether a DOWN origin's borrowed connections are aborted after {@link #downGracePeriod} (true) or only
     * closed when their holders return them (false). Default true. */
    public SlotPoolBuilder abortBorrowedOnDown(boolean abortBorrowedOnDown) { this.abortBorrowedOnDown = abortBorrowedOnDown; return this; }

    /** Whether standbys serve read borrows ({@link SlotPoolDataSource#forReads()}): with it on, an origin whose
     * server is a standby stays UP, kept for reads, instead of DOWN for its role (docs/failover.md, "Reads to
     * standbys"). Default false. */
    public SlotPoolBuilder readsToStandbys(boolean readsToStandbys) { this.readsToStandbys = readsToStandbys; return this; }

    /** With {@link #readsToStandbys}: a standby whose replica lag, read on the role watch's schedule (every
     * second), is beyond this takes no reads until it is back within it. Default 5 s; 0 (caught up only) –
     * 365 d. */
    public SlotPoolBuilder maxReplicaLag(Duration maxReplicaLag) { this.maxReplicaLag = maxReplicaLag; return this; }

    /** How target shares are set: the weights, or the weights scaled by observed latency and errors.
     * Default {@link Balancing#WEIGHTS}. */
    public SlotPoolBuilder balancing(Balancing balancing) { this.balancing = balancing; return this; }

    /** Failures in a row that mark an origin DOWN (a probe marks it UP again): failed or unanswered connects and
     * probes, or lent connections broken by connection-level errors, each counted apart. Connect failures alone,
     * on an origin whose sessions answer, close nothing: it is refusing new sessions (docs/failover.md
     * "Evidence"). Default 3; 0 disables detection; ≤ 1000. */
    public SlotPoolBuilder downAfterFailures(int downAfterFailures) { this.downAfterFailures = downAfterFailures; return this; }

    /** Most idle connections a rebalance retires per housekeeping visit. Default 2; 1–1000. */
    public SlotPoolBuilder rebalanceStep(int rebalanceStep) { this.rebalanceStep = rebalanceStep; return this; }

    /** Record each borrower's stack, reported when a connection is taken back as abandoned. Default false. */
    public SlotPoolBuilder leakTracing(boolean leakTracing) { this.leakTracing = leakTracing; return this; }

    /** A connection borrowed longer than this is reported once per borrow (a LEAK event and a WARNING with the
     * holder's thread and borrow stack) and left with its holder. Default 0 (off); else 1 s – 365 d. */
    public SlotPoolBuilder leakDetectionThreshold(Duration leakDetectionThreshold) { this.leakDetectionThreshold = leakDetectionThreshold; return this; }

    /** Idle prepared and callable statements kept per connection for reuse by its next holders (prepared and
     * callable together; docs/statement-cache.md). Default 0 (off); 0–10000. */
    public SlotPoolBuilder statementCacheSize(int statementCacheSize) { this.statementCacheSize = statementCacheSize; return this; }

    /**
     * How long {@link #build()} waits for a first connection on any origin before it fails with a
     * {@link PoolInitializationException} naming every origin and its last failure (it also waits for one failed
     * attempt per origin, at most connectTimeout longer). Default: connectTimeout (30 s, so a first connect that is
     * merely slow is waited for as HikariCP waits for its one attempt); 0 = one attempt per origin; negative = start
     * at once and fill in the background. Ignored when initialSize is 0. At most 10 min; at least −365 d.
     */
    public SlotPoolBuilder initializationFailTimeout(Duration initializationFailTimeout) { this.initializationFailTimeout = initializationFailTimeout; return this; }

    /** Auto-commit mode set on each new connection, and restored at return when a holder changed it. Default:
     * the driver's (JDBC says true). */
    public SlotPoolBuilder autoCommit(boolean autoCommit) { this.autoCommit = autoCommit; return this; }

    /** Isolation level set on each new connection, and restored at return when a holder changed it:
     * {@code READ_COMMITTED}, {@code TRANSACTION_READ_COMMITTED} or {@code read-committed} (likewise
     * {@code READ_UNCOMMITTED}, {@code REPEATABLE_READ}, {@code SERIALIZABLE}). Default: the driver's. */
    public SlotPoolBuilder transactionIsolation(String transactionIsolation) { this.transactionIsolation = transactionIsolation; return this; }

    /** Read-only mode set on each new connection, and restored at return when a holder changed it. Default: the
     * driver's (false). */
    public SlotPoolBuilder readOnly(boolean readOnly) { this.readOnly = readOnly; return this; }

    /** Catalog set on each new connection, and restored at return when a holder changed it. Default: the
     * driver's. */
    public SlotPoolBuilder catalog(String catalog) { this.catalog = catalog; return this; }

    /** Schema set on each new connection, and restored at return when a holder changed it. Default: the
     * driver's. */
    public SlotPoolBuilder schema(String schema) { this.schema = schema; return this; }

    /** SQL run once on each new connection before it is lent (after the settings above); a failure closes the
     * connection and counts as a failed connect. Default none; non-blank if set. */
    public SlotPoolBuilder connectionInitSql(String connectionInitSql) { this.connectionInitSql = connectionInitSql; return this; }

    /** Supplies user and password at each new connection (and probe), in place of the configured ones, so
     * rotated credentials work without a restart. Default none. */
    public SlotPoolBuilder credentialsProvider(CredentialsProvider credentialsProvider) { this.credentialsProvider = credentialsProvider; return this; }

    /** Decides before the built-in rules whether an error on a lent connection evicts it. Default none. */
    public SlotPoolBuilder exceptionOverride(SqlExceptionOverride exceptionOverride) { this.exceptionOverride = exceptionOverride; return this; }

    /** The callback for labeled borrows. Default none (labeled borrows are refused). */
    public SlotPoolBuilder labeling(LabelingCallback labeling) { this.labeling = labeling; return this; }

    /** Wraps each borrow, for tracing (see {@link BorrowObserver}). Default none. */
    public SlotPoolBuilder borrowObserver(BorrowObserver borrowObserver) { this.borrowObserver = borrowObserver; return this; }

    /**
     * Makes the pool's threads: creators, connect and probe attempts, the housekeeper, the closer (a thread group,
     * a context class loader, an uncaught-exception handler). The pool names each thread for its job
     * ({@code slotpool-<name>-creator-0}, ...) and makes it a daemon. Default none: plain platform threads.
     */
    public SlotPoolBuilder threadFactory(ThreadFactory threadFactory) { this.threadFactory = threadFactory; return this; }

    /** Adds an event listener. */
    public SlotPoolBuilder listener(PoolListener listener) { listeners.add(Objects.requireNonNull(listener, "listener")); return this; }

    /** The clock for timers (tests inject a manual one). Default {@link Ticker#SYSTEM}. */
    public SlotPoolBuilder ticker(Ticker ticker) { this.ticker = ticker; return this; }

    /**
     * Validates and starts the pool; waits for a first connection as {@link #initializationFailTimeout} says.
     *
     * @throws InvalidPoolConfigException listing every invalid setting
     * @throws PoolInitializationException when no origin gave a first connection in time
     */
    public SlotPoolDataSource build() {
        PoolConfig config = config();
        return new SlotPoolDataSource(copy(), ConnectionPool.startedWithFirstConnection(config));
    }

    /**
     * Validates the settings without starting a pool.
     *
     * @throws InvalidPoolConfigException listing every violation
     */
    public PoolConfig config() {
        return new PoolConfig(this, SettingsCheck.check(this));
    }

    /**
     * These settings as they are now, for a built pool's bean properties: later changes to this builder (which may
     * build more pools) do not reach them. A field-by-field copy ({@code clone}), so a new setting needs no second
     * list; the collections are copied too.
     */
    SlotPoolBuilder copy() {
        try {
            SlotPoolBuilder copy = (SlotPoolBuilder) super.clone();
            copy.connectionProperties = new LinkedHashMap<>(connectionProperties);
            copy.origins = new ArrayList<>(origins);
            copy.listeners = new ArrayList<>(listeners);
            return copy;
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e); // it is Cloneable
        }
    }
}
