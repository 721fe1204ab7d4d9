package dev.slotpool;

import dev.slotpool.pool.ConnectionPool;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A wait-free connection pool as a {@link DataSource}: a table of slots changed only by CAS, spanning one or
 * more origins. Built and started by {@link #builder()}; see {@code docs/architecture.md}.
 *
 * <p>Two types share the work: this class is the DataSource an application holds and its bean-style settings; the
 * started pool is a {@code ConnectionPool}, inside the module, and each borrow and operation here is one call to
 * it.
 *
 * <p>Also a JavaBean, for tools that create a {@code DataSource} by type and setters (Spring Boot's
 * {@code DataSourceBuilder} and {@code spring.datasource.type}): the public no-argument constructor gives an
 * unstarted pool whose setters (one per builder setting with a single value) configure it until its first use
 * ({@link #getConnection()} or an origin operation) validates the settings and starts it; a snapshot does not start
 * it. After that every setter throws {@link IllegalStateException}, and the getters read the settings as they were
 * set ({@link #config()} has them validated, defaults resolved). One caller starts it while the others wait for that
 * start (a few milliseconds: it does not wait for a first connection), then each borrows within its own borrow
 * timeout, counted from its own call; a database that does not answer yet is the pool's to wait for, not a failed
 * start. A pool from {@link #builder()} is started at once and its setters always throw.
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

    /** The settings as written: the getters read them (the lifecycle owns their changes). */
    private final SlotPoolBuilder settings;
    private final DataSourceLifecycle lifecycle;
    private volatile PrintWriter logWriter;

    /** A pool that {@link SlotPoolBuilder#build()} started. */
    SlotPoolDataSource(SlotPoolBuilder settings, ConnectionPool started) {
        this.settings = settings;
        this.lifecycle = new DataSourceLifecycle(settings, started);
    }

    /**
     * An unstarted pool with the builder's defaults, configured by the setters; the first use validates the
     * settings (an {@link InvalidPoolConfigException} lists every violation, such as a missing url) and starts it.
     */
    public SlotPoolDataSource() {
        this.settings = new SlotPoolBuilder();
        this.lifecycle = new DataSourceLifecycle(settings);
    }

    /**
     * Whether the pool runs (or ran: a closed pool stays started): always for a pool from {@link #builder()}; for a
     * bean-style instance, once its first use started it. Reads state only: it never starts a pool.
     */
    public boolean isStarted() {
        return lifecycle.running() != null;
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
        ConnectionPool pool = lifecycle.running();
        return pool != null ? pool.config() : settings.config();
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
        return lifecycle.borrow();
    }

    /**
     * Borrows the cheapest connection for these labels, configured by the {@link LabelingCallback}; the returned
     * connection implements {@link LabeledConnection}.
     */
    public Connection getConnection(Map<String, String> labels) throws SQLException {
        return lifecycle.startedToBorrow().borrow(labels);
    }

    /**
     * A view of this pool for read-only work, such as the read-only DataSource of Spring's
     * {@code LazyConnectionDataSourceProxy}: its borrows go to a standby that takes reads when
     * {@link SlotPoolBuilder#readsToStandbys} is on and one has an available connection, else to the pool's
     * ordinary borrow (the primary), so a read never fails for want of a standby. Its connections are read-only
     * ({@link Connection#setReadOnly}) until returned. Borrowing from it starts a bean-style pool as
     * {@link #getConnection()} does.
     */
    public DataSource forReads() {
        return new SlotPoolReadDataSource(this);
    }

    /** A read borrow, for {@link SlotPoolReadDataSource}. */
    Connection getConnectionForReads() throws SQLException {
        return lifecycle.startedToBorrow().borrowForRead();
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
        return lifecycle.snapshot();
    }

    /**
     * Drains an origin, or every origin a selector such as {@code host=db3} matches ({@link #select}): planned
     * failover. No new borrows; idle connections closed one by one spread over the timeout, or sooner when
     * borrowers wait and the pool is full; borrowed ones closed at return; those still out at the timeout aborted.
     * Each origin turns DOWN once empty. Idempotent: an origin that is not UP is left as it is.
     */
    public void drain(String origin, Duration timeout) {
        lifecycle.started("drain", timeout).drain(origin, timeout);
    }

    /**
     * The names of the origins a selector names: an origin's name (a configured origin with a discovery query names
     * itself and every origin it discovered), or {@code key=value[,key=value]} over
     * {@code name, service, database, instance, host}, every pair matching case-insensitively, e.g. {@code host=db3}.
     *
     * @throws IllegalArgumentException when nothing matches or the selector is malformed
     */
    public List<String> select(String selector) {
        return lifecycle.started().select(selector);
    }

    /** Marks an origin, or every origin a selector matches, DOWN (unplanned failover). */
    public void markDown(String origin) {
        lifecycle.started().markDown(origin);
    }

    /** Marks an origin, or every origin a selector matches, UP again. */
    public void markUp(String origin) {
        lifecycle.started().markUp(origin);
    }

    /**
     * Prepares a planned switchover from primary {@code from} to its standby {@code to}, each an origin of its own
     * (docs/failover.md, "Planned switchover"): writes paused on {@code from} (new borrows wait, they do not fail,
     * while its transactions finish; those still running at {@code timeout} are aborted, as a drain's), its
     * connections closed, then {@code to} found caught up with its last WAL position (within {@code timeout} again).
     * Returns when the operator may promote {@code to}; the pool resumes on it as soon as it reads it primary, and
     * {@code from} stays DOWN. A standby that does not catch up in time abandons the switchover: writes resume on
     * {@code from}, and the exception says not to promote. PostgreSQL only. Blocks the caller until then.
     *
     * @throws IllegalArgumentException when the origins are not a primary in service and a standby of it, or for a
     *                                  bad timeout (nothing changed)
     * @throws IllegalStateException    when another switchover is being prepared (nothing changed), or this one was
     *                                  abandoned (writes resumed) or cancelled by an operator's change meanwhile
     */
    public PreparedSwitchover prepareSwitchover(String from, String to, Duration timeout) {
        return lifecycle.started("switchover", timeout).prepareSwitchover(from, to, timeout);
    }

    /** Moves connections toward new target weights, gradually. All or nothing on bad input. */
    public void rebalance(Map<String, Integer> weights) {
        lifecycle.started().rebalance(weights);
    }

    /** Moves connections back toward the configured weights. */
    public void rebalanceToConfigured() {
        lifecycle.started().rebalanceToConfigured();
    }

    /** Each configured origin's adaptive limit, bounds, pin, reason and last changes (docs/architecture.md,
     * "Adaptive sizing"); empty under {@link Sizing#FIXED}. */
    public List<LimitSnapshot> limits() { return lifecycle.started().limits(); }

    /** Pins an origin's adaptive limit within its floor and ceiling, applied within a sizing tick (500 ms).
     * @throws IllegalArgumentException for an unknown origin or a limit out of its bounds
     * @throws IllegalStateException    under {@link Sizing#FIXED} */
    public void pinLimit(String origin, int limit) { lifecycle.started().pinLimit(origin, limit); }

    /** Hands a pinned limit back to the controller, which searches again from the pinned value.
     * @throws IllegalArgumentException for an unknown origin
     * @throws IllegalStateException    under {@link Sizing#FIXED} */
    public void releaseLimit(String origin) { lifecycle.started().releaseLimit(origin); }

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
        return lifecycle.started("suspend", timeout).suspend(timeout);
    }

    /**
     * After a restore: brings back the origins {@link #suspend} took down (an origin an operator had marked down or
     * was draining stays so); the pool refills to {@code minSize}. Does nothing when not suspended.
     */
    public void resume() {
        lifecycle.started().resume();
    }

    /** Whether {@link #suspend} took the pool out of service and {@link #resume()} has not been called since. */
    public boolean isSuspended() {
        return lifecycle.started().isSuspended();
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
        lifecycle.close();
    }

    /** Whether {@link #close()} has begun (or this bean-style instance was closed before its first use). */
    public boolean isClosed() {
        return lifecycle.isClosed();
    }

    // JavaBean properties: the names Boot's DataSourceBuilder looks for (url, username, password,
    // driverClassName), HikariCP's jdbcUrl and poolName, and one per builder setting with a single value, so
    // @ConfigurationProperties on a bean-style pool binds every setting.

    public String getUrl() { return settings.written(Setting.URL); }
    public void setUrl(String url) { lifecycle.settingsBeforeStart("url").url(url); }
    /** The same as {@link #getUrl()}, under HikariCP's name. */
    public String getJdbcUrl() { return getUrl(); }
    /** The same as {@link #setUrl}, under HikariCP's name. */
    public void setJdbcUrl(String url) { setUrl(url); }
    public String getUsername() { return settings.written(Setting.USERNAME); }
    public void setUsername(String username) { lifecycle.settingsBeforeStart("username").username(username); }
    /** The default origin's password, as {@code DataSourceBuilder.derivedFrom} copies it; never logged. */
    public String getPassword() { return settings.written(Setting.PASSWORD); }
    public void setPassword(String password) { lifecycle.settingsBeforeStart("password").password(password); }
    public String getDriverClassName() { return settings.written(Setting.DRIVER_CLASS_NAME); }
    public void setDriverClassName(String driverClassName) { lifecycle.settingsBeforeStart("driverClassName").driverClassName(driverClassName); }
    public String getPoolName() { return settings.written(Setting.NAME); }
    public void setPoolName(String name) { lifecycle.settingsBeforeStart("poolName").name(name); }
    public int getMinSize() { return settings.written(Setting.MIN_SIZE); }
    public void setMinSize(int minSize) { lifecycle.settingsBeforeStart("minSize").minSize(minSize); }
    public int getMaxSize() { return settings.written(Setting.MAX_SIZE); }
    public void setMaxSize(int maxSize) { lifecycle.settingsBeforeStart("maxSize").maxSize(maxSize); }
    public Duration getBorrowTimeout() { return settings.written(Setting.BORROW_TIMEOUT); }
    public void setBorrowTimeout(Duration borrowTimeout) { lifecycle.settingsBeforeStart("borrowTimeout").borrowTimeout(borrowTimeout); }
    public int getStatementCacheSize() { return settings.written(Setting.STATEMENT_CACHE_SIZE); }
    public void setStatementCacheSize(int size) { lifecycle.settingsBeforeStart("statementCacheSize").statementCacheSize(size); }
    public int getInitialSize() { return settings.settings().get(Setting.INITIAL_SIZE); }
    public void setInitialSize(int initialSize) { lifecycle.settingsBeforeStart("initialSize").initialSize(initialSize); }
    public Duration getTurnDuration() { return settings.written(Setting.TURN_DURATION); }
    public void setTurnDuration(Duration turnDuration) { lifecycle.settingsBeforeStart("turnDuration").turnDuration(turnDuration); }
    public int getCreatorThreads() { return settings.written(Setting.CREATOR_THREADS); }
    public void setCreatorThreads(int creatorThreads) { lifecycle.settingsBeforeStart("creatorThreads").creatorThreads(creatorThreads); }
    public Duration getCreationBackoffMax() { return settings.written(Setting.CREATION_BACKOFF_MAX); }
    public void setCreationBackoffMax(Duration max) { lifecycle.settingsBeforeStart("creationBackoffMax").creationBackoffMax(max); }
    public Duration getConnectTimeout() { return settings.written(Setting.CONNECT_TIMEOUT); }
    public void setConnectTimeout(Duration connectTimeout) { lifecycle.settingsBeforeStart("connectTimeout").connectTimeout(connectTimeout); }
    /** Null when unset: the pool then uses 2 s, or the connect timeout if that is shorter ({@link #config()}). */
    public Duration getSilenceTimeout() { return settings.written(Setting.SILENCE_TIMEOUT); }
    public void setSilenceTimeout(Duration silenceTimeout) { lifecycle.settingsBeforeStart("silenceTimeout").silenceTimeout(silenceTimeout); }
    public Duration getInactiveTimeout() { return settings.written(Setting.INACTIVE_TIMEOUT); }
    public void setInactiveTimeout(Duration inactiveTimeout) { lifecycle.settingsBeforeStart("inactiveTimeout").inactiveTimeout(inactiveTimeout); }
    public Duration getMaxLifetime() { return settings.written(Setting.MAX_LIFETIME); }
    public void setMaxLifetime(Duration maxLifetime) { lifecycle.settingsBeforeStart("maxLifetime").maxLifetime(maxLifetime); }
    public Duration getAbandonedTimeout() { return settings.written(Setting.ABANDONED_TIMEOUT); }
    public void setAbandonedTimeout(Duration abandonedTimeout) { lifecycle.settingsBeforeStart("abandonedTimeout").abandonedTimeout(abandonedTimeout); }
    public Duration getTimeToLive() { return settings.written(Setting.TIME_TO_LIVE); }
    public void setTimeToLive(Duration timeToLive) { lifecycle.settingsBeforeStart("timeToLive").timeToLive(timeToLive); }
    public Duration getKeepaliveInterval() { return settings.written(Setting.KEEPALIVE_INTERVAL); }
    public void setKeepaliveInterval(Duration interval) { lifecycle.settingsBeforeStart("keepaliveInterval").keepaliveInterval(interval); }
    public Duration getValidateAfterIdle() { return settings.written(Setting.VALIDATE_AFTER_IDLE); }
    public void setValidateAfterIdle(Duration idle) { lifecycle.settingsBeforeStart("validateAfterIdle").validateAfterIdle(idle); }
    public Duration getValidationTimeout() { return settings.written(Setting.VALIDATION_TIMEOUT); }
    public void setValidationTimeout(Duration timeout) { lifecycle.settingsBeforeStart("validationTimeout").validationTimeout(timeout); }
    public String getValidationQuery() { return settings.written(Setting.VALIDATION_QUERY); }
    public void setValidationQuery(String query) { lifecycle.settingsBeforeStart("validationQuery").validationQuery(query); }
    public Duration getHousekeepingPeriod() { return settings.written(Setting.HOUSEKEEPING_PERIOD); }
    public void setHousekeepingPeriod(Duration period) { lifecycle.settingsBeforeStart("housekeepingPeriod").housekeepingPeriod(period); }
    public Duration getShutdownTimeout() { return settings.written(Setting.SHUTDOWN_TIMEOUT); }
    public void setShutdownTimeout(Duration timeout) { lifecycle.settingsBeforeStart("shutdownTimeout").shutdownTimeout(timeout); }
    public Duration getDownGracePeriod() { return settings.written(Setting.DOWN_GRACE_PERIOD); }
    public void setDownGracePeriod(Duration period) { lifecycle.settingsBeforeStart("downGracePeriod").downGracePeriod(period); }
    public boolean isAbortBorrowedOnDown() { return settings.written(Setting.ABORT_BORROWED_ON_DOWN); }
    public void setAbortBorrowedOnDown(boolean abort) { lifecycle.settingsBeforeStart("abortBorrowedOnDown").abortBorrowedOnDown(abort); }
    public boolean isReadsToStandbys() { return settings.written(Setting.READS_TO_STANDBYS); }
    public void setReadsToStandbys(boolean reads) { lifecycle.settingsBeforeStart("readsToStandbys").readsToStandbys(reads); }
    public Duration getMaxReplicaLag() { return settings.written(Setting.MAX_REPLICA_LAG); }
    public void setMaxReplicaLag(Duration lag) { lifecycle.settingsBeforeStart("maxReplicaLag").maxReplicaLag(lag); }
    public Balancing getBalancing() { return settings.written(Setting.BALANCING); }
    public void setBalancing(Balancing balancing) { lifecycle.settingsBeforeStart("balancing").balancing(balancing); }
    public Sizing getSizing() { return settings.written(Setting.SIZING); }
    public void setSizing(Sizing sizing) { lifecycle.settingsBeforeStart("sizing").sizing(sizing); }
    public int getFleetBudget() { return settings.written(Setting.FLEET_BUDGET); }
    public void setFleetBudget(int budget) { lifecycle.settingsBeforeStart("fleetBudget").fleetBudget(budget); }
    public int getDownAfterFailures() { return settings.written(Setting.DOWN_AFTER_FAILURES); }
    public void setDownAfterFailures(int failures) { lifecycle.settingsBeforeStart("downAfterFailures").downAfterFailures(failures); }
    public int getRebalanceStep() { return settings.written(Setting.REBALANCE_STEP); }
    public void setRebalanceStep(int step) { lifecycle.settingsBeforeStart("rebalanceStep").rebalanceStep(step); }
    public boolean isLeakTracing() { return settings.written(Setting.LEAK_TRACING); }
    public void setLeakTracing(boolean leakTracing) { lifecycle.settingsBeforeStart("leakTracing").leakTracing(leakTracing); }
    public Duration getLeakDetectionThreshold() { return settings.written(Setting.LEAK_DETECTION_THRESHOLD); }
    public void setLeakDetectionThreshold(Duration threshold) { lifecycle.settingsBeforeStart("leakDetectionThreshold").leakDetectionThreshold(threshold); }
    /** Null when unset: the engine then uses the connect timeout ({@link #config()}). */
    public Duration getInitializationFailTimeout() { return settings.written(Setting.INITIALIZATION_FAIL_TIMEOUT); }
    public void setInitializationFailTimeout(Duration timeout) { lifecycle.settingsBeforeStart("initializationFailTimeout").initializationFailTimeout(timeout); }
    /** Null when unset: the driver's. */
    public Boolean getAutoCommit() { return settings.written(Setting.AUTO_COMMIT); }
    public void setAutoCommit(boolean autoCommit) { lifecycle.settingsBeforeStart("autoCommit").autoCommit(autoCommit); }
    /** Null when unset: the driver's. As set; {@link #config()} has the JDBC level. */
    public String getTransactionIsolation() { return settings.written(Setting.TRANSACTION_ISOLATION); }
    public void setTransactionIsolation(String level) { lifecycle.settingsBeforeStart("transactionIsolation").transactionIsolation(level); }
    /** Null when unset: the driver's. */
    public Boolean getReadOnly() { return settings.written(Setting.READ_ONLY); }
    public void setReadOnly(boolean readOnly) { lifecycle.settingsBeforeStart("readOnly").readOnly(readOnly); }
    public String getCatalog() { return settings.written(Setting.CATALOG); }
    public void setCatalog(String catalog) { lifecycle.settingsBeforeStart("catalog").catalog(catalog); }
    public String getSchema() { return settings.written(Setting.SCHEMA); }
    public void setSchema(String schema) { lifecycle.settingsBeforeStart("schema").schema(schema); }
    public String getConnectionInitSql() { return settings.written(Setting.CONNECTION_INIT_SQL); }
    public void setConnectionInitSql(String sql) { lifecycle.settingsBeforeStart("connectionInitSql").connectionInitSql(sql); }
    /** A copy of the driver properties; values are never printed. */
    public Map<String, String> getConnectionProperties() { return Map.copyOf(settings.settings().connectionProperties); }
    /** Adds these driver properties (a key set before keeps its value unless this map names it). */
    public void setConnectionProperties(Map<String, String> properties) {
        SlotPoolBuilder b = lifecycle.settingsBeforeStart("connectionProperties");
        properties.forEach(b::connectionProperty);
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
        return (int) settings.written(Setting.BORROW_TIMEOUT).toSeconds();
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
        ConnectionPool pool = lifecycle.running();
        return pool != null ? "SlotPoolDataSource[" + pool.config() + "]"
                : "SlotPoolDataSource[" + settings.written(Setting.NAME) + ", not started]";
    }
}
