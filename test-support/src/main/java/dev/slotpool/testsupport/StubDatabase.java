package dev.slotpool.testsupport;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One simulated database, shared by every stub connection to {@code jdbc:stub:<name>}: the knobs tests turn
 * at runtime (latency, outages, failure injection) and the counters they assert on.
 *
 * <p>Thread-safe; counters are {@link LongAdder}s and settings are volatile, so the hot paths of
 * concurrent benchmarks take no locks. Counter reads are exact whenever no connect, close or abort is in
 * flight. Each connection ends exactly once: by its first {@code close()} (counted in {@link #closed()}) or
 * by {@code abort()} (counted in {@link #aborted()}); later calls of either count nothing, so
 * {@code live() == opened() - closed() - aborted()} is the number of connections not yet ended.
 *
 * <p>{@link #named(String)} returns the same instance for a name until {@link #reset(String)} or
 * {@link #reset()} drops it; connections opened before a reset keep reporting to the dropped instance.
 */
public final class StubDatabase {

    private static final ConcurrentMap<String, StubDatabase> REGISTRY = new ConcurrentHashMap<>();

    private final String name;

    private final LongAdder connectAttempts = new LongAdder();
    private final LongAdder failedConnects = new LongAdder();
    private final LongAdder opened = new LongAdder();
    private final LongAdder closed = new LongAdder();
    private final LongAdder aborted = new LongAdder();
    private final LongAdder queries = new LongAdder();
    private final LongAdder validations = new LongAdder();
    /** Open connections now, exact at every instant (an AtomicLong, unlike the summed adders). */
    private final AtomicLong openNow = new AtomicLong();
    /** The most connections that were ever open at the same instant. */
    private final AtomicLong maxOpen = new AtomicLong();

    private volatile long connectDelayNanos;
    private volatile long queryDelayNanos;
    private volatile long validationDelayNanos;
    private volatile long closeDelayNanos;
    private volatile boolean ignoreInterrupts;
    private volatile double failRate;
    private volatile boolean down;
    private volatile boolean hangConnects;
    private volatile String requiredPassword;
    private final Object hangLock = new Object();
    private final AtomicInteger connectFailuresToInject = new AtomicInteger();
    private final AtomicInteger queryFailuresToInject = new AtomicInteger();
    private volatile String injectedQuerySqlState = "HY000";
    private final AtomicInteger killEpoch = new AtomicInteger();
    private volatile String productName = "Stub";
    private volatile boolean readOnly;
    private final AtomicInteger connectionIds = new AtomicInteger();
    private volatile boolean recordCalls;
    private final ConcurrentLinkedQueue<String> calls = new ConcurrentLinkedQueue<>();
    private final AtomicInteger attachFailuresToInject = new AtomicInteger();
    private final AtomicInteger detachFailuresToInject = new AtomicInteger();
    private volatile SQLException injectedAttachFailure;
    private volatile SQLException injectedDetachFailure;
    private volatile boolean keepTags = true;
    /** Errors to throw from the next calls of a connection method, by the method's call name. */
    private final ConcurrentMap<String, InjectedError> injectedErrors = new ConcurrentHashMap<>();

    private record InjectedError(Error error, AtomicInteger left) {
    }
    /** Scripted answers by SQL fragment, in the order they were first set; replaced whole on each change. */
    private volatile Map<String, StubRow> answers = Map.of();

    private StubDatabase(String name) {
        this.name = name;
    }

    /** The database with this name, created with default settings on first use. */
    public static StubDatabase named(String name) {
        Objects.requireNonNull(name, "name");
        StubDatabase database = REGISTRY.get(name);
        return database != null ? database : REGISTRY.computeIfAbsent(name, StubDatabase::new);
    }

    /**
     * Drops the database with this name (releasing connects hung on it) and returns a fresh one with zero
     * counters and default settings.
     */
    public static StubDatabase reset(String name) {
        drop(name);
        return named(name);
    }

    /** Drops every database, releasing connects hung on them. */
    public static void reset() {
        REGISTRY.keySet().forEach(StubDatabase::drop);
    }

    private static void drop(String name) {
        StubDatabase dropped = REGISTRY.remove(name);
        if (dropped != null) {
            dropped.hangConnects(false);
        }
    }

    /** The database name, as in {@code jdbc:stub:<name>}. */
    public String name() {
        return name;
    }

    /** The plain JDBC URL of this database, without parameters. */
    public String url() {
        return ConnectionUrl.PREFIX + name;
    }

    // ---- counters ------------------------------------------------------------------------------------

    /** Connects attempted, successful or not. */
    public long connectAttempts() {
        return connectAttempts.sum();
    }

    /** Connects that threw (down, injected, random, or interrupted). */
    public long failedConnects() {
        return failedConnects.sum();
    }

    /** Connections successfully opened. */
    public long opened() {
        return opened.sum();
    }

    /** Connections ended by {@code close()}. */
    public long closed() {
        return closed.sum();
    }

    /** Connections ended by {@code abort(Executor)}. */
    public long aborted() {
        return aborted.sum();
    }

    /**
     * The most connections that were open at the same instant since this database was created or reset: an
     * exact high-water mark, for checking a pool's maximum size under concurrency.
     */
    public long maxOpen() {
        return maxOpen.get();
    }

    /** Connections opened and not yet ended: {@code opened() - closed() - aborted()}. */
    public long live() {
        return opened.sum() - closed.sum() - aborted.sum();
    }

    /** Statement executions that reached the database, including those failed by {@link #failNextQueries}. */
    public long queries() {
        return queries.sum();
    }

    /** {@code Connection.isValid} calls on open connections. */
    public long validations() {
        return validations.sum();
    }

    // ---- settings ------------------------------------------------------------------------------------

    /** How long a connect takes (default zero). */
    public StubDatabase connectDelay(Duration delay) {
        connectDelayNanos = nanos(delay);
        return this;
    }

    /** How long each statement execution takes (default zero). */
    public StubDatabase queryDelay(Duration delay) {
        queryDelayNanos = nanos(delay);
        return this;
    }

    /** How long {@code isValid} takes; past the caller's timeout it returns false (default zero). */
    public StubDatabase validationDelay(Duration delay) {
        validationDelayNanos = nanos(delay);
        return this;
    }

    /**
     * How long {@code close()} and {@code abort()} of a working connection take, as with a driver that says
     * goodbye to a server that no longer answers: cut short by the connection's network timeout when one is set.
     */
    public StubDatabase closeDelay(Duration delay) {
        closeDelayNanos = nanos(delay);
        return this;
    }

    /**
     * While true, validations take their whole delay whatever interrupts arrive, as a driver blocked in a socket
     * read does (default false: an interrupt ends the validation, which fails).
     */
    public StubDatabase ignoreInterrupts(boolean ignore) {
        ignoreInterrupts = ignore;
        return this;
    }

    /** The probability, within [0, 1], that a connect fails with SQLState 08001 (default 0). */
    public StubDatabase failRate(double probability) {
        if (!(probability >= 0 && probability <= 1)) {
            throw new IllegalArgumentException("failRate must be within [0, 1]: " + probability);
        }
        failRate = probability;
        return this;
    }

    /** While down, every connect fails at once with SQLState 08001; open connections are unaffected. */
    public StubDatabase down(boolean down) {
        this.down = down;
        return this;
    }

    /**
     * While set, a driver connect whose {@code password} property differs fails with SQLState 28P01 (a refused
     * login, as PostgreSQL reports it); null (the default) accepts any password. The password is compared, never
     * stored in a connection or shown in a message.
     */
    public StubDatabase requirePassword(String password) {
        requiredPassword = password;
        return this;
    }

    /** Makes the next {@code n} connects fail with SQLState 08001 (replaces any pending count). */
    public StubDatabase failNextConnects(int n) {
        connectFailuresToInject.set(requireNonNegative(n));
        return this;
    }

    /**
     * While true, connects block until this is set back to false or the connecting thread is interrupted
     * (which fails the connect with SQLState 08001 and keeps the interrupt flag set).
     */
    public StubDatabase hangConnects(boolean hang) {
        synchronized (hangLock) {
            hangConnects = hang;
            if (!hang) {
                hangLock.notifyAll();
            }
        }
        return this;
    }

    /**
     * Breaks every connection open now: each later call on it fails with SQLState 08006
     * ("connection reset") and {@code isValid} returns false. Connections opened afterwards work.
     */
    public StubDatabase killLiveConnections() {
        killEpoch.incrementAndGet();
        return this;
    }

    /**
     * Makes the next {@code n} statement executions fail with {@code sqlState} (replaces any pending count).
     * A state of class 08 is fatal: it also breaks the connection that ran the statement.
     */
    public StubDatabase failNextQueries(int n, String sqlState) {
        Objects.requireNonNull(sqlState, "sqlState");
        injectedQuerySqlState = sqlState;
        queryFailuresToInject.set(requireNonNegative(n));
        return this;
    }

    /**
     * The name {@code DatabaseMetaData.getDatabaseProductName()} reports (default {@code "Stub"}), so code that
     * picks its SQL by the database's product ({@code "PostgreSQL"}, {@code "Oracle"}) can be tested.
     */
    public StubDatabase productName(String productName) {
        this.productName = Objects.requireNonNull(productName, "productName");
        return this;
    }

    /**
     * Makes every query whose SQL contains {@code sqlFragment} (ignoring case) answer one row with these columns,
     * in the map's iteration order (use a {@link java.util.LinkedHashMap} or {@link Map#of} with one entry); the
     * labels are matched ignoring case and the values read as the JDBC getters convert them ({@code null} reads as
     * SQL NULL). Replaces an earlier answer to the same fragment; the first fragment set that matches wins. Takes
     * effect for executions from now on, on every connection.
     */
    public StubDatabase answer(String sqlFragment, Map<String, ?> row) {
        Objects.requireNonNull(sqlFragment, "sqlFragment");
        StubRow scripted = StubRow.of(row);
        Map<String, StubRow> next = new java.util.LinkedHashMap<>(answers);
        next.put(sqlFragment.toLowerCase(java.util.Locale.ROOT), scripted);
        answers = java.util.Collections.unmodifiableMap(next);
        return this;
    }

    /**
     * While true, every update and batch execution fails with SQLState 25006 ("cannot execute UPDATE in a
     * read-only transaction", as a PostgreSQL hot standby refuses writes); the connection stays usable.
     */
    public StubDatabase readOnly(boolean readOnly) {
        this.readOnly = readOnly;
        return this;
    }

    /**
     * While true, connections record their DRCP calls ({@code attach}, {@code detach <tag>}), request boundaries
     * ({@code beginRequest}, {@code endRequest}), validations ({@code isValid}), rollbacks and statement executions
     * ({@code execute}) in
     * {@link #calls()}, each as {@code c<n> <call>} where {@code n} numbers the database's connections from 1.
     * Clears what was recorded.
     */
    public StubDatabase recordCalls(boolean record) {
        calls.clear();
        recordCalls = record;
        return this;
    }

    /** The calls recorded since {@link #recordCalls(boolean)}, in the order they were made. */
    public List<String> calls() {
        return List.copyOf(calls);
    }

    /** Makes the next {@code n} {@code attachServerConnection} calls throw an SQLException with this SQLState and
     * vendor code (replaces any pending count); the connection stays usable. */
    public StubDatabase failNextAttaches(int n, String sqlState, int vendorCode) {
        injectedAttachFailure = new SQLException("stub database " + name + ": injected attach failure", sqlState,
                vendorCode);
        attachFailuresToInject.set(requireNonNegative(n));
        return this;
    }

    /** Makes the next {@code n} {@code detachServerConnection} calls throw an SQLException with this SQLState and
     * vendor code (replaces any pending count). */
    public StubDatabase failNextDetaches(int n, String sqlState, int vendorCode) {
        injectedDetachFailure = new SQLException("stub database " + name + ": injected detach failure", sqlState,
                vendorCode);
        detachFailuresToInject.set(requireNonNegative(n));
        return this;
    }

    /**
     * Makes the next {@code n} calls of one connection method throw {@code error}, as a driver does when a class
     * it needs is missing at run time ({@code NoClassDefFoundError}) or a method is older than the interface
     * ({@code AbstractMethodError}); replaces any pending count for that call. The calls: {@code attach},
     * {@code detach}, {@code beginRequest}, {@code endRequest}, {@code rollback}, {@code isValid},
     * {@code execute}, {@code setReadOnly}.
     */
    public StubDatabase throwOnNext(String call, int n, Error error) {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(error, "error");
        injectedErrors.put(call, new InjectedError(error, new AtomicInteger(requireNonNegative(n))));
        return this;
    }

    /** Whether an attach finds a pooled server with the tag its connection was detached with (default true); false
     * makes every attach of a tagged connection answer false, as when DRCP gave it another session. */
    public StubDatabase keepTags(boolean keep) {
        keepTags = keep;
        return this;
    }

    @Override
    public String toString() {
        return "StubDatabase[" + name + ", live=" + live() + "]";
    }

    // ---- used by the driver and connections ----------------------------------------------------------

    /** Opens a connection, applying outages, hangs, delays and injected failures in that order. */
    StubConnection open(ConnectionUrl url, String user, String password) throws SQLException {
        connectAttempts.increment();
        try {
            StubConnection connection = connect(url, user, password);
            opened.increment();
            maxOpen.accumulateAndGet(openNow.incrementAndGet(), Math::max);
            return connection;
        } catch (SQLException e) {
            failedConnects.increment();
            throw e;
        }
    }

    private StubConnection connect(ConnectionUrl url, String user, String password) throws SQLException {
        if (down) {
            throw new SQLException("stub database " + name + " is down", "08001");
        }
        String required = requiredPassword;
        if (required != null && !required.equals(password)) {
            throw new SQLException("stub database " + name + ": password authentication failed for user \""
                    + user + "\"", "28P01");
        }
        try {
            awaitHangRelease();
            Pause.nanos(url.connectDelayNanos() != ConnectionUrl.UNSET ? url.connectDelayNanos() : connectDelayNanos);
        } catch (InterruptedException e) {
            throw StubErrors.interrupted("interrupted while connecting to stub database " + name, "08001", e);
        }
        if (takeOne(connectFailuresToInject)) {
            throw new SQLException("stub database " + name + ": injected connect failure", "08001");
        }
        double rate = Double.isNaN(url.failRate()) ? failRate : url.failRate();
        if (rate > 0 && ThreadLocalRandom.current().nextDouble() < rate) {
            throw new SQLException("stub database " + name + ": random connect failure", "08001");
        }
        return new StubConnection(this, user, url.queryDelayNanos(), killEpoch.get());
    }

    private void awaitHangRelease() throws InterruptedException {
        if (hangConnects) {
            synchronized (hangLock) {
                while (hangConnects) {
                    hangLock.wait();
                }
            }
        }
    }

    /** A number for a new connection, for {@link #calls()}. */
    int nextConnectionId() {
        return connectionIds.incrementAndGet();
    }

    /** Records a call of connection {@code id}, if calls are recorded. */
    void record(int id, String call) {
        throwIfInjected(call);
        if (recordCalls) {
            calls.add("c" + id + " " + call);
        }
    }

    /** Throws the error {@link #throwOnNext} set for {@code call} (its first word: "detach null" is a detach). */
    void throwIfInjected(String call) {
        if (injectedErrors.isEmpty()) {
            return;
        }
        int space = call.indexOf(' ');
        InjectedError injected = injectedErrors.get(space < 0 ? call : call.substring(0, space));
        if (injected != null && takeOne(injected.left())) {
            throw injected.error();
        }
    }

    /** The failure to throw from this attach, or null. */
    SQLException attachFailure() {
        return takeOne(attachFailuresToInject) ? injectedAttachFailure : null;
    }

    /** The failure to throw from this detach, or null. */
    SQLException detachFailure() {
        return takeOne(detachFailuresToInject) ? injectedDetachFailure : null;
    }

    boolean keepsTags() {
        return keepTags;
    }

    /** Counts a statement execution; returns the SQLState to fail it with, or null to let it run. */
    String beginQuery() {
        queries.increment();
        return takeOne(queryFailuresToInject) ? injectedQuerySqlState : null;
    }

    String productName() {
        return productName;
    }

    /** The scripted row for this SQL, or the default one-column row of the integer 1. */
    StubRow answerTo(String sql) {
        Map<String, StubRow> scripted = answers;
        if (sql != null && !scripted.isEmpty()) {
            String lower = sql.toLowerCase(java.util.Locale.ROOT);
            for (Map.Entry<String, StubRow> e : scripted.entrySet()) {
                if (lower.contains(e.getKey())) {
                    return e.getValue();
                }
            }
        }
        return StubRow.ONE;
    }

    /** Fails an update while the database is {@link #readOnly(boolean) read-only}. */
    void checkWritable() throws SQLException {
        if (readOnly) {
            throw new SQLException("stub database " + name + ": cannot execute UPDATE in a read-only transaction",
                    "25006");
        }
    }

    /** Counts an {@code isValid} call on an open connection. */
    void countValidation() {
        validations.increment();
    }

    /** Records that a connection ended, exactly once per connection. */
    void ended(boolean byAbort) {
        openNow.decrementAndGet();
        (byAbort ? aborted : closed).increment();
    }

    long queryDelayNanos() {
        return queryDelayNanos;
    }

    long validationDelayNanos() {
        return validationDelayNanos;
    }

    long closeDelayNanos() {
        return closeDelayNanos;
    }

    boolean ignoresInterrupts() {
        return ignoreInterrupts;
    }

    /** Bumped by {@link #killLiveConnections()}; a connection opened under an older epoch is dead. */
    int killEpoch() {
        return killEpoch.get();
    }

    private static boolean takeOne(AtomicInteger budget) {
        return budget.get() > 0 && budget.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    }

    private static long nanos(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
        return delay.toNanos();
    }

    private static int requireNonNegative(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("count must not be negative: " + n);
        }
        return n;
    }
}
