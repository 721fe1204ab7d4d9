package dev.slotpool;

import dev.slotpool.pool.ConnectionPool;
import dev.slotpool.table.Parking;

import java.io.PrintWriter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A wait-free connection pool as a {@link DataSource}: a table of slots changed only by CAS, spanning one or
 * more origins. Built and started by {@link #builder()}; see {@code docs/architecture.md}.
 *
 * <p>Also a JavaBean, for tools that create a {@code DataSource} by type and setters (Spring Boot's
 * {@code DataSourceBuilder} and {@code spring.datasource.type}): the public no-argument constructor gives an
 * unstarted pool whose setters (one per builder setting with a single value) configure it until its first use
 * ({@link #getConnection()} or an origin operation) validates the settings and starts it; a snapshot does not start
 * it. After that every setter throws {@link IllegalStateException}. One caller starts it while the others wait for
 * that start (a few milliseconds: it does not wait for a first connection), then each borrows within its own borrow
 * timeout, counted from its own call; a database that does not answer yet is the pool's to wait for, not a failed
 * start. A pool from {@link #builder()} is started at once and its setters always throw; its {@code getConnection}
 * reads only final fields, as before.
 *
 * <pre>{@code
 * SlotPoolDataSource ds = SlotPoolDataSource.builder()
 *     .url("jdbc:h2:mem:app").username("sa").password("")
 *     .minSize(4).maxSize(16)
 *     .borrowTimeout(Duration.ofSeconds(5))
 *     .build();
 * try (Connection c = ds.getConnection()) { ... }
 * ds.close();
 * }</pre>
 */
public final class SlotPoolDataSource implements DataSource, AutoCloseable {

    /** The bean-style instance's state while another thread starts its pool. */
    private static final Object STARTING = new Object();
    /** The bean-style instance's state when it was closed before its first use. */
    private static final Object CLOSED = new Object();
    private static final VarHandle STATE;
    /** How often a first use looks again while another thread starts the pool (builds it: no connect waited for). */
    private static final long START_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(SlotPoolDataSource.class, "state", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The builder path's settings and pool; both null for a bean-style instance. */
    private final PoolConfig config;
    private final ConnectionPool pool;
    /** The bean-style instance's settings, changed by the setters until the first use; null on the builder path. */
    private final SlotPoolBuilder settings;
    /** The bean-style instance's lifecycle: null (configuring), {@link #STARTING}, a {@link Running}, or {@link #CLOSED}. */
    private volatile Object state;
    private volatile PrintWriter logWriter;

    private record Running(PoolConfig config, ConnectionPool pool) {
    }

    SlotPoolDataSource(PoolConfig config) {
        this.config = config;
        this.pool = new ConnectionPool(config);
        this.settings = null;
        pool.awaitFirstConnection();
    }

    /**
     * An unstarted pool with the builder's defaults, configured by the setters; the first use validates the
     * settings (an {@link InvalidPoolConfigException} lists every violation, such as a missing url) and starts it.
     */
    public SlotPoolDataSource() {
        this.config = null;
        this.pool = null;
        this.settings = new SlotPoolBuilder();
    }

    /**
     * Whether the pool runs (or ran: a closed pool stays started): always for a pool from {@link #builder()}; for a
     * bean-style instance, once its first use started it. Reads state only: it never starts a pool.
     */
    public boolean isStarted() {
        return pool != null || state instanceof Running;
    }

    /** A builder with the documented defaults. */
    public static SlotPoolBuilder builder() {
        return new SlotPoolBuilder();
    }

    /**
     * The validated settings this pool runs with; for a bean-style instance not yet started, its settings so far,
     * validated without starting it.
     *
     * @throws InvalidPoolConfigException when a bean-style instance's settings are not valid (yet)
     */
    public PoolConfig config() {
        PoolConfig running = runningConfig();
        return running != null ? running : settings.config();
    }

    /**
     * Borrows a connection, waiting up to the borrow timeout. Closing it returns it to the pool.
     *
     * @throws java.sql.SQLTransientConnectionException on timeout, with the pool's state in the message and the
     *                                                  last connection failure chained
     * @throws SQLException if the pool is closed or the thread was interrupted while waiting (its interrupt
     *                      status is kept)
     */
    @Override
    public Connection getConnection() throws SQLException {
        ConnectionPool p = pool;
        if (p != null) {
            return p.borrow();
        }
        long since = settings.ticker.nanoTime(); // a first use's wait for the start counts against its borrow timeout
        return startedToBorrow().borrowSince(since);
    }

    /**
     * Borrows the cheapest connection for these labels, configured by the {@link LabelingCallback}; the returned
     * connection implements {@link LabeledConnection}.
     */
    public Connection getConnection(Map<String, String> labels) throws SQLException {
        ConnectionPool p = pool;
        return (p != null ? p : startedToBorrow()).borrow(labels);
    }

    /** Not supported: a pool lends connections with the credentials of its origins (or of its CredentialsProvider). */
    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("slotpool lends connections with the credentials configured per "
                + "origin; getConnection(user, password) is not supported");
    }

    /**
     * An immutable view of every origin and slot; cheap enough to call every second. A bean-style instance not
     * started yet (or closed before its first use) is not started by it: its snapshot has its name and sizes, no
     * connection and no origin yet.
     */
    public PoolSnapshot snapshot() {
        ConnectionPool p = pool;
        if (p != null) {
            return p.snapshot();
        }
        Object s = state;
        if (s instanceof Running running) {
            return running.pool().snapshot();
        }
        return new PoolSnapshot(settings.name, s == CLOSED, settings.minSize, settings.maxSize, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, Optional.empty(), List.of());
    }

    /**
     * Drains an origin, or every origin a selector such as {@code host=db3} matches ({@link #select}): planned
     * failover. No new borrows; idle connections closed one by one spread over the timeout, or sooner when
     * borrowers wait and the pool is full; borrowed ones closed at return; those still out at the timeout aborted.
     * Each origin turns DOWN once empty. Idempotent: an origin that is not UP is left as it is.
     */
    public void drain(String origin, Duration timeout) {
        checkTimeout("drain", timeout);
        pool().operations().drain(origin, timeout);
    }

    /**
     * The names of the origins a selector names: an origin's name (a configured origin with a discovery query names
     * itself and every origin it discovered), or {@code key=value[,key=value]} over
     * {@code name, service, database, instance, host}, every pair matching case-insensitively, e.g. {@code host=db3}.
     *
     * @throws IllegalArgumentException when nothing matches or the selector is malformed
     */
    public List<String> select(String selector) {
        return pool().operations().select(selector);
    }

    /** Marks an origin, or every origin a selector matches, DOWN (unplanned failover). */
    public void markDown(String origin) {
        pool().operations().markDown(origin);
    }

    /** Marks an origin, or every origin a selector matches, UP again. */
    public void markUp(String origin) {
        pool().operations().markUp(origin);
    }

    /** Moves connections toward new target weights, gradually. All or nothing on bad input. */
    public void rebalance(Map<String, Integer> weights) {
        pool().operations().rebalance(weights);
    }

    /** Moves connections back toward the configured weights. */
    public void rebalanceToConfigured() {
        pool().operations().rebalanceToConfigured();
    }

    /**
     * Takes the pool out of service for a JVM checkpoint (docs/architecture.md, Checkpoint and restore): every
     * origin DOWN ("suspended for checkpoint"), idle connections closed now, borrowed ones closed at return and
     * aborted at {@code timeout}, no connection created. Borrowers wait meanwhile and time out with the origins'
     * states in the message. Waits until no connection is open, at most {@code timeout} plus one housekeeping
     * period; {@link #resume()} undoes it.
     *
     * @return whether every connection was closed in time
     * @throws InterruptedException if interrupted while waiting (the pool stays suspended)
     */
    public boolean suspend(Duration timeout) throws InterruptedException {
        checkTimeout("suspend", timeout);
        return pool().suspension().suspend(timeout);
    }

    /** An operation's timeout: not negative, and within the bound of the timer settings (its deadline cannot
     * overflow; docs/configuration.md). */
    private static void checkTimeout(String operation, Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.compareTo(SettingsCheck.MAX_TIMER) > 0) {
            throw new IllegalArgumentException(operation + " timeout must be between 0 and " + SettingsCheck.MAX_TIMER
                    + " (was " + timeout + ")");
        }
    }

    /**
     * After a restore: brings back the origins {@link #suspend} took down (an origin an operator had marked down or
     * was draining stays so); the pool refills to {@code minSize}. Does nothing when not suspended.
     */
    public void resume() {
        pool().suspension().resume();
    }

    /** Whether {@link #suspend} took the pool out of service and {@link #resume()} has not been called since. */
    public boolean isSuspended() {
        return pool().suspension().suspended();
    }

    /**
     * Closes the pool: stops its threads, closes idle connections, waits up to {@code shutdownTimeout} for
     * borrowed ones and for connects under way, then aborts the borrowed ones and interrupts the connects
     * (a connect that ignores the interrupt finishes later on its own thread and closes what it opened).
     * Waiting borrowers fail with "pool is closed". Idempotent; a call while another runs waits for it, at most
     * {@code shutdownTimeout} plus 3 s; a call after one that failed half way runs the steps again.
     */
    @Override
    public void close() {
        if (pool != null) {
            pool.close();
            return;
        }
        for (;;) {
            Object s = state;
            if (s instanceof Running running) {
                running.pool().close();
                return;
            }
            if (s == CLOSED || (s == null && STATE.compareAndSet(this, null, CLOSED))) {
                return;
            }
            Parking.park(STARTING, START_POLL_NANOS); // another thread is starting the pool: close it once it runs
        }
    }

    /** Whether {@link #close()} has begun (or this bean-style instance was closed before its first use). */
    public boolean isClosed() {
        if (pool != null) {
            return pool.isClosed();
        }
        Object s = state;
        return s == CLOSED || (s instanceof Running running && running.pool().isClosed());
    }

    // JavaBean properties: the names Boot's DataSourceBuilder looks for (url, username, password,
    // driverClassName), HikariCP's jdbcUrl and poolName, and one per builder setting with a single value, so
    // @ConfigurationProperties on a bean-style pool binds every setting.

    public String getUrl() { PoolConfig c = runningConfig(); return c != null ? c.url : settings.url; }
    public void setUrl(String url) { settingsBeforeStart("url").url(url); }
    /** The same as {@link #getUrl()}, under HikariCP's name. */
    public String getJdbcUrl() { return getUrl(); }
    /** The same as {@link #setUrl}, under HikariCP's name. */
    public void setJdbcUrl(String url) { setUrl(url); }
    public String getUsername() { PoolConfig c = runningConfig(); return c != null ? c.username : settings.username; }
    public void setUsername(String username) { settingsBeforeStart("username").username(username); }
    /** The default origin's password, as {@code DataSourceBuilder.derivedFrom} copies it; never logged. */
    public String getPassword() { PoolConfig c = runningConfig(); return c != null ? c.password : settings.password; }
    public void setPassword(String password) { settingsBeforeStart("password").password(password); }
    public String getDriverClassName() { PoolConfig c = runningConfig(); return c != null ? c.driverClassName : settings.driverClassName; }
    public void setDriverClassName(String driverClassName) { settingsBeforeStart("driverClassName").driverClassName(driverClassName); }
    public String getPoolName() { PoolConfig c = runningConfig(); return c != null ? c.name : settings.name; }
    public void setPoolName(String name) { settingsBeforeStart("poolName").name(name); }
    public int getMinSize() { PoolConfig c = runningConfig(); return c != null ? c.minSize : settings.minSize; }
    public void setMinSize(int minSize) { settingsBeforeStart("minSize").minSize(minSize); }
    public int getMaxSize() { PoolConfig c = runningConfig(); return c != null ? c.maxSize : settings.maxSize; }
    public void setMaxSize(int maxSize) { settingsBeforeStart("maxSize").maxSize(maxSize); }
    public Duration getBorrowTimeout() { PoolConfig c = runningConfig(); return c != null ? c.borrowTimeout : settings.borrowTimeout; }
    public void setBorrowTimeout(Duration borrowTimeout) { settingsBeforeStart("borrowTimeout").borrowTimeout(borrowTimeout); }
    public int getStatementCacheSize() { PoolConfig c = runningConfig(); return c != null ? c.statementCacheSize : settings.statementCacheSize; }
    public void setStatementCacheSize(int size) { settingsBeforeStart("statementCacheSize").statementCacheSize(size); }
    public int getInitialSize() { return property(PoolConfig::initialSize, b -> b.initialSize != null ? b.initialSize : b.minSize); }
    public void setInitialSize(int initialSize) { settingsBeforeStart("initialSize").initialSize(initialSize); }
    public Duration getTurnDuration() { return property(PoolConfig::turnDuration, b -> b.turnDuration); }
    public void setTurnDuration(Duration turnDuration) { settingsBeforeStart("turnDuration").turnDuration(turnDuration); }
    public int getCreatorThreads() { return property(PoolConfig::creatorThreads, b -> b.creatorThreads); }
    public void setCreatorThreads(int creatorThreads) { settingsBeforeStart("creatorThreads").creatorThreads(creatorThreads); }
    public Duration getCreationBackoffMax() { return property(PoolConfig::creationBackoffMax, b -> b.creationBackoffMax); }
    public void setCreationBackoffMax(Duration max) { settingsBeforeStart("creationBackoffMax").creationBackoffMax(max); }
    public Duration getConnectTimeout() { return property(PoolConfig::connectTimeout, b -> b.connectTimeout); }
    public void setConnectTimeout(Duration connectTimeout) { settingsBeforeStart("connectTimeout").connectTimeout(connectTimeout); }
    public Duration getSilenceTimeout() { return property(PoolConfig::silenceTimeout, b -> b.silenceTimeout); }
    public void setSilenceTimeout(Duration silenceTimeout) { settingsBeforeStart("silenceTimeout").silenceTimeout(silenceTimeout); }
    public Duration getInactiveTimeout() { return property(PoolConfig::inactiveTimeout, b -> b.inactiveTimeout); }
    public void setInactiveTimeout(Duration inactiveTimeout) { settingsBeforeStart("inactiveTimeout").inactiveTimeout(inactiveTimeout); }
    public Duration getMaxLifetime() { return property(PoolConfig::maxLifetime, b -> b.maxLifetime); }
    public void setMaxLifetime(Duration maxLifetime) { settingsBeforeStart("maxLifetime").maxLifetime(maxLifetime); }
    public Duration getAbandonedTimeout() { return property(PoolConfig::abandonedTimeout, b -> b.abandonedTimeout); }
    public void setAbandonedTimeout(Duration abandonedTimeout) { settingsBeforeStart("abandonedTimeout").abandonedTimeout(abandonedTimeout); }
    public Duration getTimeToLive() { return property(PoolConfig::timeToLive, b -> b.timeToLive); }
    public void setTimeToLive(Duration timeToLive) { settingsBeforeStart("timeToLive").timeToLive(timeToLive); }
    public Duration getKeepaliveInterval() { return property(PoolConfig::keepaliveInterval, b -> b.keepaliveInterval); }
    public void setKeepaliveInterval(Duration interval) { settingsBeforeStart("keepaliveInterval").keepaliveInterval(interval); }
    public Duration getValidateAfterIdle() { return property(PoolConfig::validateAfterIdle, b -> b.validateAfterIdle); }
    public void setValidateAfterIdle(Duration idle) { settingsBeforeStart("validateAfterIdle").validateAfterIdle(idle); }
    public Duration getValidationTimeout() { return property(PoolConfig::validationTimeout, b -> b.validationTimeout); }
    public void setValidationTimeout(Duration timeout) { settingsBeforeStart("validationTimeout").validationTimeout(timeout); }
    public String getValidationQuery() { return property(PoolConfig::validationQuery, b -> b.validationQuery); }
    public void setValidationQuery(String query) { settingsBeforeStart("validationQuery").validationQuery(query); }
    public Duration getHousekeepingPeriod() { return property(PoolConfig::housekeepingPeriod, b -> b.housekeepingPeriod); }
    public void setHousekeepingPeriod(Duration period) { settingsBeforeStart("housekeepingPeriod").housekeepingPeriod(period); }
    public Duration getShutdownTimeout() { return property(PoolConfig::shutdownTimeout, b -> b.shutdownTimeout); }
    public void setShutdownTimeout(Duration timeout) { settingsBeforeStart("shutdownTimeout").shutdownTimeout(timeout); }
    public Duration getDownGracePeriod() { return property(PoolConfig::downGracePeriod, b -> b.downGracePeriod); }
    public void setDownGracePeriod(Duration period) { settingsBeforeStart("downGracePeriod").downGracePeriod(period); }
    public boolean isAbortBorrowedOnDown() { return property(PoolConfig::abortBorrowedOnDown, b -> b.abortBorrowedOnDown); }
    public void setAbortBorrowedOnDown(boolean abort) { settingsBeforeStart("abortBorrowedOnDown").abortBorrowedOnDown(abort); }
    public Balancing getBalancing() { return property(PoolConfig::balancing, b -> b.balancing); }
    public void setBalancing(Balancing balancing) { settingsBeforeStart("balancing").balancing(balancing); }
    public int getDownAfterFailures() { return property(PoolConfig::downAfterFailures, b -> b.downAfterFailures); }
    public void setDownAfterFailures(int failures) { settingsBeforeStart("downAfterFailures").downAfterFailures(failures); }
    public int getRebalanceStep() { return property(PoolConfig::rebalanceStep, b -> b.rebalanceStep); }
    public void setRebalanceStep(int step) { settingsBeforeStart("rebalanceStep").rebalanceStep(step); }
    public boolean isLeakTracing() { return property(PoolConfig::leakTracing, b -> b.leakTracing); }
    public void setLeakTracing(boolean leakTracing) { settingsBeforeStart("leakTracing").leakTracing(leakTracing); }
    public Duration getLeakDetectionThreshold() { return property(PoolConfig::leakDetectionThreshold, b -> b.leakDetectionThreshold); }
    public void setLeakDetectionThreshold(Duration threshold) { settingsBeforeStart("leakDetectionThreshold").leakDetectionThreshold(threshold); }
    /** Null until set on an instance not started yet: the engine then uses the connect timeout. */
    public Duration getInitializationFailTimeout() { return property(PoolConfig::initializationFailTimeout, b -> b.initializationFailTimeout); }
    public void setInitializationFailTimeout(Duration timeout) { settingsBeforeStart("initializationFailTimeout").initializationFailTimeout(timeout); }
    /** Null when unset: the driver's. */
    public Boolean getAutoCommit() { return property(PoolConfig::autoCommit, b -> b.autoCommit); }
    public void setAutoCommit(boolean autoCommit) { settingsBeforeStart("autoCommit").autoCommit(autoCommit); }
    /** Null when unset: the driver's; a running pool names the level as JDBC's constant does. */
    public String getTransactionIsolation() { return property(c -> TransactionIsolations.name(c.transactionIsolation()), b -> b.transactionIsolation); }
    public void setTransactionIsolation(String level) { settingsBeforeStart("transactionIsolation").transactionIsolation(level); }
    /** Null when unset: the driver's. */
    public Boolean getReadOnly() { return property(PoolConfig::readOnly, b -> b.readOnly); }
    public void setReadOnly(boolean readOnly) { settingsBeforeStart("readOnly").readOnly(readOnly); }
    public String getCatalog() { return property(PoolConfig::catalog, b -> b.catalog); }
    public void setCatalog(String catalog) { settingsBeforeStart("catalog").catalog(catalog); }
    public String getSchema() { return property(PoolConfig::schema, b -> b.schema); }
    public void setSchema(String schema) { settingsBeforeStart("schema").schema(schema); }
    public String getConnectionInitSql() { return property(PoolConfig::connectionInitSql, b -> b.connectionInitSql); }
    public void setConnectionInitSql(String sql) { settingsBeforeStart("connectionInitSql").connectionInitSql(sql); }
    /** A copy of the driver properties; values are never printed. */
    public Map<String, String> getConnectionProperties() { return property(PoolConfig::connectionProperties, b -> Map.copyOf(b.connectionProperties)); }
    /** Adds these driver properties (a key set before keeps its value unless this map names it). */
    public void setConnectionProperties(Map<String, String> properties) {
        SlotPoolBuilder b = settingsBeforeStart("connectionProperties");
        properties.forEach(b::connectionProperty);
    }

    /** A bean property's value: the running pool's, else the settings so far. */
    private <T> T property(Function<PoolConfig, T> running, Function<SlotPoolBuilder, T> configured) {
        PoolConfig c = runningConfig();
        return c != null ? running.apply(c) : configured.apply(settings);
    }

    /** The bean-style instance's settings, while they may still change. */
    private SlotPoolBuilder settingsBeforeStart(String property) {
        if (settings == null) {
            throw new IllegalStateException("pool '" + config.name + "' was built by SlotPoolDataSource.builder(): "
                    + property + " cannot change");
        }
        if (state != null) {
            throw new IllegalStateException("pool '" + settings.name + "' has been used (or closed): " + property
                    + " cannot change after the first getConnection");
        }
        return settings;
    }

    /** The settings of the running (or closed) pool; null for a bean-style instance not started yet. */
    private PoolConfig runningConfig() {
        if (config != null) {
            return config;
        }
        return state instanceof Running running ? running.config() : null;
    }

    /** The bean-style instance's pool for a borrow, started if need be. */
    private ConnectionPool startedToBorrow() throws SQLException {
        ConnectionPool p = started();
        if (p == null) {
            throw new SQLException("pool '" + settings.name + "' is closed");
        }
        return p;
    }

    /** The pool for an operation other than a borrow; starts a bean-style instance. */
    private ConnectionPool pool() {
        ConnectionPool p = pool;
        if (p == null && (p = started()) == null) {
            throw new IllegalStateException("pool '" + settings.name + "' was closed before its first use");
        }
        return p;
    }

    /**
     * The bean-style instance's pool, started by the first caller to win the CAS from "configuring"; null if it
     * was closed before its first use. The start builds the pool and returns without waiting for a first
     * connection (a Boot app's DataSource is used as HikariCP's is: the pool fills in the background and each
     * borrow waits up to its own borrow timeout), so one pool serves every caller even while the database does
     * not answer. A start that fails (invalid settings) leaves it configuring, so a later call reports the same
     * violations or, once fixed by the setters, starts it.
     */
    private ConnectionPool started() {
        for (;;) {
            Object s = state;
            if (s instanceof Running running) {
                return running.pool();
            }
            if (s == CLOSED) {
                return null;
            }
            if (s == null && STATE.compareAndSet(this, null, STARTING)) {
                try {
                    PoolConfig c = settings.config();
                    ConnectionPool started = new ConnectionPool(c);
                    Running running = new Running(c, started);
                    state = running;
                    return running.pool();
                } catch (RuntimeException | Error e) {
                    state = null;
                    throw e;
                }
            }
            Parking.park(STARTING, START_POLL_NANOS); // another thread is building the pool
        }
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    /** Kept for the DataSource contract; slotpool logs through {@link System.Logger}. */
    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    /** Not supported: the borrow timeout is fixed at build time ({@link SlotPoolBuilder#borrowTimeout}). */
    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        throw new SQLFeatureNotSupportedException("set the borrow timeout with SlotPoolBuilder.borrowTimeout");
    }

    /** The borrow timeout in whole seconds. */
    @Override
    public int getLoginTimeout() {
        return (int) getBorrowTimeout().toSeconds();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("slotpool logs through System.Logger");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper for " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    @Override
    public String toString() {
        PoolConfig c = runningConfig();
        return c != null ? "SlotPoolDataSource[" + c + "]" : "SlotPoolDataSource[" + settings.name + ", not started]";
    }
}
