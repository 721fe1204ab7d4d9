package dev.slotpool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

import static dev.slotpool.HikariKey.hikariSame;
import static dev.slotpool.HikariKey.hikariConnectionTimeout;
import static dev.slotpool.HikariKey.hikariIsolation;
import static dev.slotpool.HikariKey.hikariMillis;
import static dev.slotpool.HikariKey.hikariNamed;
import static dev.slotpool.SettingRules.any;
import static dev.slotpool.SettingRules.between;
import static dev.slotpool.SettingRules.fleetBudget;
import static dev.slotpool.SettingRules.initialSize;
import static dev.slotpool.SettingRules.initializationFailTimeout;
import static dev.slotpool.SettingRules.isolationLevel;
import static dev.slotpool.SettingRules.jdbcUrl;
import static dev.slotpool.SettingRules.loadableClass;
import static dev.slotpool.SettingRules.minSize;
import static dev.slotpool.SettingRules.notBlank;
import static dev.slotpool.SettingRules.notBlankIfSet;
import static dev.slotpool.SettingRules.notNull;
import static dev.slotpool.SettingRules.silenceTimeout;
import static dev.slotpool.SettingRules.upTo;
import static dev.slotpool.SettingRules.within;
import static dev.slotpool.SettingRules.zeroOrUpTo;
import static dev.slotpool.SettingsCheck.MAX_BORROW_TIMEOUT;
import static dev.slotpool.SettingsCheck.MAX_SHUTDOWN_TIMEOUT;
import static dev.slotpool.SettingsCheck.MAX_TIMER;
import static dev.slotpool.SettingsCheck.MAX_TURN;

/**
 * One setting of a pool, and the table of them all ({@link #all()}): the one name a setting has from
 * {@code application.yml} ({@link #property()}) through the builder's setter to the violation that names it, its
 * type, its default, its rule (the bounds {@link SlotPoolBuilder#config()} checks), its description, and the HikariCP
 * key with the same meaning. The builder's setters write into these rows; the Spring Boot starter binds, maps, carries
 * over, shows and describes every row from this table (docs/architecture.md, "Spring Boot integration", "Settings:
 * one table"). A new setting is a row here, a builder setter, a {@link PoolConfig} accessor for the engine to read
 * it, the starter's bean field and its rows in docs/configuration.md.
 *
 * <p>Not here: what is no single value ({@code connectionProperty}, {@code origin}) and the user's hooks
 * (listeners, callbacks, the thread factory, the ticker).
 *
 * @param <T> the value's type (a builder setter's {@code int} or {@code boolean} is boxed)
 */
public final class Setting<T> {

    /** Where {@code application.yml} sets a setting. */
    public enum Source {
        /** {@code slotpool.<kebab-name>}, a property of the starter's {@code SlotPoolProperties}. */
        SLOTPOOL("slotpool."),
        /** {@code spring.datasource.<kebab-name>} (or a {@code JdbcConnectionDetails} bean): the default connection. */
        DATASOURCE("spring.datasource.");

        private final String prefix;

        Source(String prefix) {
            this.prefix = prefix;
        }
    }

    /** silenceTimeout when unset (and connectTimeout is not shorter): the connect timeout the pool used before a
     * first connect got its own, longer budget, so silent-origin detection keeps its pace (docs/failover.md). */
    static final Duration DEFAULT_SILENCE = Duration.ofSeconds(2);

    /** The rows in the order docs/configuration.md documents them (and violations are reported). */
    private static final List<Setting<?>> TABLE = new ArrayList<>();

    // The table: name, type, default, where application.yml sets it, rule, HikariCP key, description.
    public static final Setting<String> NAME = row("name", String.class, "slotpool",
            Source.SLOTPOOL, notBlank(), hikariSame("pool-name"),
            "Pool name, used in thread names, the pool endpoint, metric tags and messages; unset uses "
                    + "spring.datasource.name, then the engine default: slotpool.");
    public static final Setting<String> URL = row("url", String.class, null,
            Source.DATASOURCE, jdbcUrl(), hikariNamed("jdbc-url"),
            "JDBC URL of the default origin and of origins that give none; required unless every "
                    + "origin has one.");
    public static final Setting<String> USERNAME = row("username", String.class, null,
            Source.DATASOURCE, any(), hikariNamed("username"),
            "User name for every origin that gives none.");
    public static final Setting<String> PASSWORD = row("password", String.class, null,
            Source.DATASOURCE, any(), hikariNamed("password"),
            "Password for every origin that gives none; never printed.");
    public static final Setting<String> DRIVER_CLASS_NAME = row("driverClassName", String.class, null,
            Source.DATASOURCE, loadableClass(), hikariNamed("driver-class-name"),
            "Driver class to load; unset: found by DriverManager from the URL.");
    public static final Setting<Integer> MIN_SIZE = row("minSize", Integer.class, 2,
            Source.SLOTPOOL, minSize(), hikariSame("minimum-idle"),
            "Connections kept open even when idle (0 to max-size). Engine default: 2.");
    public static final Setting<Integer> MAX_SIZE = row("maxSize", Integer.class, 10,
            Source.SLOTPOOL, between(1, 100_000), hikariSame("maximum-pool-size"),
            "Most connections open at once, counting those being opened (1 to 100000). Engine "
                    + "default: 10.");
    public static final Setting<Integer> INITIAL_SIZE = derivedRow("initialSize", Integer.class,
            s -> s.get(Setting.MIN_SIZE), Source.SLOTPOOL,
            initialSize(), null,
            "Connections opened at start, in the background (min-size to max-size). Engine default: "
                    + "min-size.");
    public static final Setting<Duration> INITIALIZATION_FAIL_TIMEOUT = derivedRow("initializationFailTimeout",
            Duration.class, s -> s.get(Setting.CONNECT_TIMEOUT), Source.SLOTPOOL,
            initializationFailTimeout(), hikariMillis("initialization-fail-timeout"),
            "When set, how long startup waits for a first connection on any origin before it fails "
                    + "naming each origin and its last error; 0 tries each origin once. Unset (or negative): "
                    + "the app starts without waiting, as Boot starts HikariCP, and the pool fills in the "
                    + "background.");
    public static final Setting<Duration> BORROW_TIMEOUT = row("borrowTimeout", Duration.class, Duration.ofSeconds(30),
            Source.SLOTPOOL, upTo(Duration.ZERO, MAX_BORROW_TIMEOUT), hikariConnectionTimeout(),
            "How long a borrow waits for a connection before it fails; 0 fails at once. Engine "
                    + "default: 30s.");
    public static final Setting<Duration> TURN_DURATION = row("turnDuration", Duration.class, Duration.ofNanos(250_000),
            Source.SLOTPOOL, upTo(Duration.ZERO, MAX_TURN), null,
            "While threads wait, how long a thread handed a connection may keep borrowing ahead of "
                    + "the queue, stretched up to 5ms when 50 threads or fewer wait; 0 is strict FIFO, longer "
                    + "trades tail latency for throughput. Engine default: 250us.");
    public static final Setting<Integer> CREATOR_THREADS = row("creatorThreads", Integer.class, 2,
            Source.SLOTPOOL, between(1, 64), null,
            "Pool threads that open connections; user threads never do (1 to 64). Engine default: 2.");
    public static final Setting<Duration> CREATION_BACKOFF_MAX = row("creationBackoffMax", Duration.class,
            Duration.ofSeconds(5), Source.SLOTPOOL,
            within(Duration.ofMillis(50), Duration.ofMinutes(10)), null,
            "Cap of the back-off between failed connection attempts (50ms to 10m). Engine default: "
                    + "5s.");
    public static final Setting<Duration> INACTIVE_TIMEOUT = row("inactiveTimeout", Duration.class,
            Duration.ofMinutes(10), Source.SLOTPOOL,
            zeroOrUpTo(Duration.ofSeconds(1), MAX_TIMER), hikariMillis("idle-timeout"),
            "Idle connections above min-size are closed after this; 0 disables, else at least 1s. "
                    + "Engine default: 10m.");
    public static final Setting<Duration> MAX_LIFETIME = row("maxLifetime", Duration.class, Duration.ofMinutes(30),
            Source.SLOTPOOL, zeroOrUpTo(Duration.ofSeconds(1), MAX_TIMER), hikariMillis("max-lifetime"),
            "Connections are retired after this (minus up to 2.5% jitter); 0 disables, else at least "
                    + "1s. Engine default: 30m.");
    public static final Setting<Duration> ABANDONED_TIMEOUT = row("abandonedTimeout", Duration.class, Duration.ZERO,
            Source.SLOTPOOL, upTo(Duration.ZERO, MAX_TIMER), null,
            "A borrowed connection with no JDBC activity for this long is taken back, aborted and "
                    + "reported; 0 disables. Engine default: 0.");
    public static final Setting<Duration> TIME_TO_LIVE = row("timeToLive", Duration.class, Duration.ZERO,
            Source.SLOTPOOL, upTo(Duration.ZERO, MAX_TIMER), null,
            "A connection borrowed for longer than this is taken back, aborted and reported; 0 "
                    + "disables. Engine default: 0.");
    public static final Setting<Duration> KEEPALIVE_INTERVAL = row("keepaliveInterval", Duration.class,
            Duration.ofMinutes(2), Source.SLOTPOOL,
            zeroOrUpTo(Duration.ofSeconds(1), MAX_TIMER), hikariMillis("keepalive-time"),
            "How often idle connections are validated; 0 disables, else at least 1s. Engine default: "
                    + "2m.");
    public static final Setting<Duration> VALIDATE_AFTER_IDLE = row("validateAfterIdle", Duration.class,
            Duration.ofMillis(500), Source.SLOTPOOL,
            upTo(Duration.ZERO, MAX_TIMER), null,
            "A connection idle longer than this is validated before it is lent; 0 validates every "
                    + "borrow. Engine default: 500ms.");
    public static final Setting<Duration> CONNECT_TIMEOUT = row("connectTimeout", Duration.class,
            Duration.ofSeconds(30), Source.SLOTPOOL,
            within(Duration.ofMillis(100), Duration.ofMinutes(10)), null,
            "How long a connect or probe to an origin that has not answered yet (a first connect: a "
                    + "cold database, a busy machine) may go unanswered before it counts as failed (100ms to "
                    + "10m; a later success is still used). Engine default: 30s, HikariCP's bound on a connect.");
    public static final Setting<Duration> SILENCE_TIMEOUT = derivedRow("silenceTimeout", Duration.class,
            Setting::defaultSilence, Source.SLOTPOOL,
            silenceTimeout(), null,
            "How long a connect or probe to an origin that has answered before may go unanswered "
                    + "before it counts one failure toward DOWN: a server gone silent (100ms to 10m, at most "
                    + "connect-timeout). Engine default: 2s, or connect-timeout if shorter.");
    public static final Setting<Duration> VALIDATION_TIMEOUT = row("validationTimeout", Duration.class,
            Duration.ofSeconds(5), Source.SLOTPOOL,
            within(Duration.ofSeconds(1), Duration.ofMinutes(10)), hikariMillis("validation-timeout"),
            "Time limit of one validation (1s to 10m; JDBC counts whole seconds). Engine default: 5s.");
    public static final Setting<String> VALIDATION_QUERY = row("validationQuery", String.class, null,
            Source.SLOTPOOL, notBlankIfSet("leave it unset to use isValid"), hikariSame("connection-test-query"),
            "SQL run to validate a connection; unset uses the driver's Connection.isValid.");
    public static final Setting<Duration> HOUSEKEEPING_PERIOD = row("housekeepingPeriod", Duration.class,
            Duration.ofSeconds(5), Source.SLOTPOOL,
            within(Duration.ofMillis(10), Duration.ofMinutes(10)), null,
            "How often timers, keepalive, drains and rebalance steps run (10ms to 10m). Engine "
                    + "default: 5s.");
    public static final Setting<Duration> SHUTDOWN_TIMEOUT = row("shutdownTimeout", Duration.class,
            Duration.ofSeconds(10), Source.SLOTPOOL,
            upTo(Duration.ZERO, MAX_SHUTDOWN_TIMEOUT), null,
            "At shutdown, how long borrowed connections may take to come back before they are "
                    + "aborted. Engine default: 10s.");
    public static final Setting<Duration> DOWN_GRACE_PERIOD = row("downGracePeriod", Duration.class,
            Duration.ofSeconds(5), Source.SLOTPOOL,
            upTo(Duration.ZERO, MAX_TIMER), null,
            "After an origin goes DOWN, how long its borrowed connections may run before they are "
                    + "aborted. Engine default: 5s.");
    public static final Setting<Boolean> ABORT_BORROWED_ON_DOWN = row("abortBorrowedOnDown", Boolean.class, true,
            Source.SLOTPOOL, notNull("must be true or false"), null,
            "Whether a DOWN origin's borrowed connections are aborted after the grace period (true) "
                    + "or closed when returned (false). Engine default: true.");
    public static final Setting<Boolean> READS_TO_STANDBYS = row("readsToStandbys", Boolean.class, false,
            Source.SLOTPOOL, notNull("must be true or false"), null,
            "Whether @Transactional(readOnly = true) work goes to standbys that take reads: the "
                    + "auto-configured DataSource is then a LazyConnectionDataSourceProxy whose read-only "
                    + "DataSource is the pool's read view, and a standby origin stays UP, kept for reads, "
                    + "instead of DOWN (docs/failover.md, Reads to standbys). Engine default: false.");
    public static final Setting<Duration> MAX_REPLICA_LAG = row("maxReplicaLag", Duration.class, Duration.ofSeconds(5),
            Source.SLOTPOOL, upTo(Duration.ZERO, MAX_TIMER), null,
            "With reads-to-standbys: a standby whose replica lag, read every second, is beyond this "
                    + "takes no reads until it is back within it. Engine default: 5s.");
    public static final Setting<Balancing> BALANCING = row("balancing", Balancing.class, Balancing.WEIGHTS,
            Source.SLOTPOOL, notNull("must be WEIGHTS or LATENCY"), null,
            "How target shares are set: weights, or latency (weights scaled by each origin's observed "
                    + "borrow-to-return time and broken connections). Engine default: weights.");
    public static final Setting<Sizing> SIZING = row("sizing", Sizing.class, Sizing.FIXED,
            Source.SLOTPOOL, notNull("must be FIXED or ADAPTIVE"), null,
            "fixed: each origin may hold up to its cap; adaptive: connections in use are kept under a "
                    + "limit per origin that the pool finds and follows between min-size (split over the origins) "
                    + "and that cap (docs/architecture.md, Adaptive sizing). Engine default: fixed.");
    public static final Setting<Integer> FLEET_BUDGET = row("fleetBudget", Integer.class, 0,
            Source.SLOTPOOL, fleetBudget(), null,
            "With adaptive sizing: the most sessions this pool may hold on its origins together (its share "
                    + "of a server's max_connections or of a pooler's pool); 0 for none, else min-size to 100000. "
                    + "Engine default: 0.");
    public static final Setting<Pooler> POOLER = row("pooler", Pooler.class, Pooler.NONE,
            Source.SLOTPOOL, notNull("must be one of " + Arrays.toString(Pooler.values())), null,
            "What sits in front of the database for origins that name none: none, session, "
                    + "transaction, transaction-with-prepared-statements (a pooler that keeps protocol-level "
                    + "prepared statements, PgBouncer 1.21+ with max_prepared_statements) or drcp (Oracle). "
                    + "Behind a transaction pooler the pool sets pgjdbc's prepareThreshold=0 and refuses "
                    + "session state set once per connection (docs/poolers.md). Engine default: none.");
    public static final Setting<Integer> DOWN_AFTER_FAILURES = row("downAfterFailures", Integer.class, 3,
            Source.SLOTPOOL, between(0, 1000), null,
            "Failed or unanswered connects, or connection-level errors on lent connections, in a row "
                    + "(counted apart) that mark an origin DOWN; connect failures alone, while its sessions "
                    + "answer, only stop creation there (refusing new sessions). 0 disables detection, up to "
                    + "1000. Engine default: 3.");
    public static final Setting<Integer> REBALANCE_STEP = row("rebalanceStep", Integer.class, 2,
            Source.SLOTPOOL, between(1, 1000), null,
            "Idle connections a rebalance retires per housekeeping run (1 to 1000). Engine default: "
                    + "2.");
    public static final Setting<Integer> STATEMENT_CACHE_SIZE = row("statementCacheSize", Integer.class, 0,
            Source.SLOTPOOL, between(0, 10_000), null,
            "Idle prepared and callable statements kept per connection (the two kinds together) for "
                    + "its next holders that prepare the same SQL with the same arguments; 0 is off, up to "
                    + "10000. Engine default: 0 (off).");
    public static final Setting<Boolean> LEAK_TRACING = row("leakTracing", Boolean.class, false,
            Source.SLOTPOOL, notNull("must be true or false"), null,
            "Record each borrower's stack, reported when a connection is taken back and shown in the "
                    + "endpoint. Engine default: false.");
    public static final Setting<Duration> LEAK_DETECTION_THRESHOLD = row("leakDetectionThreshold", Duration.class,
            Duration.ZERO, Source.SLOTPOOL,
            zeroOrUpTo(Duration.ofSeconds(1), MAX_TIMER), hikariMillis("leak-detection-threshold"),
            "A connection borrowed longer than this is reported once per borrow (WARN log and LEAK "
                    + "event with the holder's thread and borrow stack) and left with its holder; 0 is off, "
                    + "else at least 1s. Engine default: 0 (off).");
    public static final Setting<Boolean> AUTO_COMMIT = row("autoCommit", Boolean.class, null,
            Source.SLOTPOOL, any(), hikariSame("auto-commit"),
            "Auto-commit mode set on each new connection and restored at return when a holder changed "
                    + "it. Engine default: the driver's (true).");
    public static final Setting<String> TRANSACTION_ISOLATION = row("transactionIsolation", String.class, null,
            Source.SLOTPOOL, isolationLevel(), hikariIsolation(),
            "Transaction isolation set on each new connection and restored at return: "
                    + "read-uncommitted, read-committed, repeatable-read or serializable (also "
                    + "TRANSACTION_READ_COMMITTED). Engine default: the driver's.");
    public static final Setting<Boolean> READ_ONLY = row("readOnly", Boolean.class, null,
            Source.SLOTPOOL, any(), hikariSame("read-only"),
            "Read-only mode set on each new connection and restored at return. Engine default: the "
                    + "driver's (false).");
    public static final Setting<String> CATALOG = row("catalog", String.class, null,
            Source.SLOTPOOL, notBlankIfSet("leave it unset to keep the driver's"), hikariSame("catalog"),
            "Catalog set on each new connection and restored at return. Engine default: the driver's.");
    public static final Setting<String> SCHEMA = row("schema", String.class, null,
            Source.SLOTPOOL, notBlankIfSet("leave it unset to keep the driver's"), hikariSame("schema"),
            "Schema set on each new connection and restored at return. Engine default: the driver's.");
    public static final Setting<String> CONNECTION_INIT_SQL = row("connectionInitSql", String.class, null,
            Source.SLOTPOOL, notBlankIfSet("leave it unset to run nothing"), hikariSame("connection-init-sql"),
            "SQL run once on each new connection before it is lent (e.g. ALTER SESSION SET "
                    + "CURRENT_SCHEMA); a failure closes the connection and counts as a failed connect. Engine "
                    + "default: none.");

    private static final List<Setting<?>> ALL = Collections.unmodifiableList(TABLE);

    private final String name;
    private final Class<T> type;
    private final T defaultValue;
    private final Function<Settings, T> derivedDefault;
    private final Source source;
    private final SettingRules.Rule<T> rule;
    private final HikariKey hikari;
    private final String description;

    private Setting(String name, Class<T> type, T defaultValue, Function<Settings, T> derivedDefault, Source source,
                    SettingRules.Rule<T> rule, HikariKey hikari, String description) {
        this.name = name;
        this.type = type;
        this.defaultValue = defaultValue;
        this.derivedDefault = derivedDefault;
        this.source = source;
        this.rule = rule;
        this.hikari = hikari == null || hikari.boundAs() != null ? hikari
                : new HikariKey(hikari.key(), type, hikari.toSetting(), hikari.carried());
        this.description = description;
    }

    private static <T> Setting<T> row(String name, Class<T> type, T defaultValue, Source source,
                                      SettingRules.Rule<T> rule, HikariKey hikari, String description) {
        Setting<T> s = new Setting<>(name, type, defaultValue, null, source, rule, hikari, description);
        TABLE.add(s);
        return s;
    }

    /** A row whose default is read from other settings when it is unset. */
    private static <T> Setting<T> derivedRow(String name, Class<T> type, Function<Settings, T> derivedDefault,
                                             Source source, SettingRules.Rule<T> rule, HikariKey hikari,
                                             String description) {
        Setting<T> s = new Setting<>(name, type, null, derivedDefault, source, rule, hikari, description);
        TABLE.add(s);
        return s;
    }

    /** {@return every setting, in the order docs/configuration.md documents them} */
    public static List<Setting<?>> all() {
        return ALL;
    }

    /** {@return the setting's name: the builder's setter, the violation's property, camel case} */
    public String name() {
        return name;
    }

    /** {@return the key {@code application.yml} sets it with: {@code slotpool.max-size}, {@code spring.datasource.url}}
     */
    public String property() {
        return source.prefix + kebab(name);
    }

    /** {@return where {@code application.yml} sets it} */
    public Source source() {
        return source;
    }

    /** {@return the value's type} */
    public Class<T> type() {
        return type;
    }

    /** {@return the default when unset, or null when there is none fixed (the driver's, or one read from other
     * settings: {@link #defaultDerived()})} */
    public T defaultValue() {
        return defaultValue;
    }

    /** {@return whether an unset value is read from other settings (initialSize from minSize, ...)} */
    public boolean defaultDerived() {
        return derivedDefault != null;
    }

    /** {@return what the setting does, with its range and default: the configuration metadata's description} */
    public String description() {
        return description;
    }

    /** {@return the HikariCP key with this meaning, or null when HikariCP has none} */
    public HikariKey hikari() {
        return hikari;
    }

    /** {@return {@code value} as this setting's type} (a {@link ClassCastException} when it is not) */
    public T cast(Object value) {
        return type.cast(value);
    }

    /** The default in {@code all}: the fixed one, or the one read from the other settings. */
    T defaultIn(Settings all) {
        return derivedDefault != null ? derivedDefault.apply(all) : defaultValue;
    }

    /** The violation of this setting in {@code all}, or null. */
    ConfigViolation check(Settings all) {
        return rule.check(name, all.written(this), all);
    }

    /** {@code maxSize} as {@code slotpool.*} spells it: {@code max-size}. */
    static String kebab(String camel) {
        StringBuilder sb = new StringBuilder(camel.length() + 4);
        for (char c : camel.toCharArray()) {
            if (Character.isUpperCase(c)) {
                sb.append('-').append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return name;
    }

    private static Duration defaultSilence(Settings all) {
        Duration connect = all.get(CONNECT_TIMEOUT);
        return connect == null || DEFAULT_SILENCE.compareTo(connect) <= 0 ? DEFAULT_SILENCE : connect;
    }

}
