package dev.slotpool.autoconfigure.metrics;

import dev.slotpool.LimitSnapshot;
import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.Sizing;
import dev.slotpool.PoolerView;
import dev.slotpool.ServerRole;
import dev.slotpool.SlotPoolDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The pool's Micrometer meters, all named {@code slotpool.*} and tagged {@code pool} (and {@code origin} where
 * it applies). Event counts and timers come from the pool's listener callbacks; connection counts and origin
 * state are gauges read from a snapshot at most once per second. An origin seen for the first time at runtime
 * (a discovered instance) gets its meters on its first event. A configured origin with a pooler admin URL (and no
 * discovery query) also gets the pooler's view of its database as gauges ({@code slotpool.pooler.*},
 * docs/poolers.md "Sizing a fleet").
 *
 * <p>Register it as a listener of the pool ({@code SlotPoolBuilder.listener}) and {@link #attach} the pool once
 * built; the auto-configuration does both for its pool. A pool built without it (an application's own
 * {@code @Bean}) gets the snapshot meters only, through {@link #fromSnapshots}: gauges and function counters read
 * from its snapshots, no timers nor event counters (nothing is added to its borrow path).
 */
public final class SlotPoolMetrics implements PoolListener {

    /** Gauges read snapshots no more often than this: one snapshot serves a whole scrape. */
    private static final long SNAPSHOT_MAX_AGE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final MeterRegistry registry;
    /** Whether the meters fed by listener callbacks (timers, event counters) are registered. */
    private final boolean events;
    /** Whether HikariCP's meter names are registered too ({@code slotpool.metrics.hikaricp}). */
    private final boolean hikaricp;
    private volatile Timer hikariAcquire;
    private volatile Timer hikariUsage;
    private final Map<String, OriginMeters> origins = new ConcurrentHashMap<>();
    private final Map<String, Counter> closes = new ConcurrentHashMap<>();
    private volatile Tags poolTags = Tags.empty();
    private volatile Supplier<PoolSnapshot> source;
    /** Each origin's adaptive limit (docs/architecture.md, "Adaptive sizing"); empty under fixed sizing. */
    private volatile Supplier<List<LimitSnapshot>> limits = List::of;
    private volatile PoolSnapshot cached;
    private volatile long cachedAt;

    public SlotPoolMetrics(MeterRegistry registry) {
        this(registry, true, false);
    }

    /** With {@code hikaricp}, HikariCP's meter names too ({@link #hikariMeters}). */
    public SlotPoolMetrics(MeterRegistry registry, boolean hikaricp) {
        this(registry, true, hikaricp);
    }

    private SlotPoolMetrics(MeterRegistry registry, boolean events, boolean hikaricp) {
        this.registry = registry;
        this.events = events;
        this.hikaricp = hikaricp;
    }

    /**
     * Registers the snapshot meters of a pool that has no {@code SlotPoolMetrics} listener, tagged
     * {@code pool=key}, with a meter per origin configured.
     */
    public static SlotPoolMetrics fromSnapshots(MeterRegistry registry, String key, SlotPoolDataSource pool,
                                                boolean hikaricp) {
        SlotPoolMetrics metrics = new SlotPoolMetrics(registry, false, hikaricp);
        metrics.attach(pool::snapshot);
        metrics.attachLimits(pool::limits);
        metrics.register(key, pool.config());
        return metrics;
    }

    /** Gives the gauges their source of snapshots. */
    public void attach(Supplier<PoolSnapshot> snapshots) {
        this.source = snapshots;
    }

    /** Gives the {@code slotpool.limit} gauges their source. */
    public void attachLimits(Supplier<List<LimitSnapshot>> limits) {
        this.limits = limits;
    }

    @Override
    public void onStart(PoolConfig config) {
        register(config.name(), config);
    }

    private void register(String pool, PoolConfig config) {
        poolTags = Tags.of("pool", pool);
        Gauge.builder("slotpool.connections.waiting", this, m -> m.poolValue(PoolSnapshot::waiting))
                .description("Threads waiting for a connection").tags(poolTags).register(registry);
        Gauge.builder("slotpool.connections.max", this, m -> m.poolValue(PoolSnapshot::maxSize))
                .description("Configured maximum number of connections").tags(poolTags).register(registry);
        Gauge.builder("slotpool.connections.min", this, m -> m.poolValue(PoolSnapshot::minSize))
                .description("Configured minimum number of connections").tags(poolTags).register(registry);
        FunctionCounter.builder("slotpool.borrow.timeouts", this, m -> m.poolValue(PoolSnapshot::timeouts))
                .description("Borrows that timed out").tags(poolTags).register(registry);
        if (hikaricp) {
            hikariMeters();
        }
        for (OriginConfig origin : config.origins()) {
            origin(origin.name());
            if (config.sizing() == Sizing.ADAPTIVE) {
                Gauge.builder("slotpool.limit", this, m -> m.limitOf(origin.name()))
                        .description("The origin's adaptive limit: the most connections it may lend at once now")
                        .tags(poolTags.and("origin", origin.name())).register(registry);
            }
            if (origin.poolerAdminUrl() != null && origin.originQuery() == null) {
                poolerMeters(origin.name());
            }
        }
    }

    /**
     * HikariCP's meters under its names, descriptions and one tag, {@code pool}, read from the same snapshots and
     * callbacks as the {@code slotpool.*} ones, so dashboards and alerts written for HikariCP keep reading: idle is
     * {@code available}, active {@code borrowed}, pending {@code waiting}; {@code hikaricp.connections.acquire} gets
     * the wait each borrow already measured. HikariCP's {@code hikaricp.connections.creation} has no twin: the
     * pool's events do not carry a connect's duration.
     */
    private void hikariMeters() {
        Gauge.builder("hikaricp.connections", this, m -> m.poolValue(PoolSnapshot::total))
                .description("Total connections").tags(poolTags).register(registry);
        Gauge.builder("hikaricp.connections.idle", this, m -> m.poolValue(PoolSnapshot::available))
                .description("Idle connections").tags(poolTags).register(registry);
        Gauge.builder("hikaricp.connections.active", this, m -> m.poolValue(PoolSnapshot::borrowed))
                .description("Active connections").tags(poolTags).register(registry);
        Gauge.builder("hikaricp.connections.pending", this, m -> m.poolValue(PoolSnapshot::waiting))
                .description("Pending threads").tags(poolTags).register(registry);
        Gauge.builder("hikaricp.connections.max", this, m -> m.poolValue(PoolSnapshot::maxSize))
                .description("Max connections").tags(poolTags).register(registry);
        Gauge.builder("hikaricp.connections.min", this, m -> m.poolValue(PoolSnapshot::minSize))
                .description("Min connections").tags(poolTags).register(registry);
        FunctionCounter.builder("hikaricp.connections.timeout", this, m -> m.poolValue(PoolSnapshot::timeouts))
                .description("Connection timeout total count").tags(poolTags).register(registry);
        if (events) {
            hikariAcquire = Timer.builder("hikaricp.connections.acquire").description("Connection acquire time")
                    .tags(poolTags).register(registry);
            hikariUsage = Timer.builder("hikaricp.connections.usage").description("Connection usage time")
                    .tags(poolTags).register(registry);
        }
    }

    /**
     * The pooler's own view of the origin's database ({@code SHOW POOLS}: every instance's clients, the server
     * sessions the pooler holds), NaN while its console does not answer. Not for an origin with a discovery
     * query: its discovered origins each show the group's one view, which no meter name could count once.
     */
    private void poolerMeters(String origin) {
        Tags tags = poolTags.and("origin", origin);
        String clients = "Client connections of every instance at the pooler, by state (active: linked to a server"
                + " session or idle; waiting: a transaction waits for a server session)";
        pooler(tags, origin, "slotpool.pooler.clients", clients, "active", PoolerView::clientsActive);
        pooler(tags, origin, "slotpool.pooler.clients", clients, "waiting", PoolerView::clientsWaiting);
        String servers = "Server sessions the pooler holds for the origin's database, by state (active: linked to a"
                + " client; idle: free; used: free, to be checked before reuse)";
        pooler(tags, origin, "slotpool.pooler.servers", servers, "active", PoolerView::serversActive);
        pooler(tags, origin, "slotpool.pooler.servers", servers, "idle", PoolerView::serversIdle);
        pooler(tags, origin, "slotpool.pooler.servers", servers, "used", PoolerView::serversUsed);
        TimeGauge.builder("slotpool.pooler.max.wait", this, TimeUnit.MICROSECONDS,
                        m -> m.poolerValue(origin, PoolerView::maxWaitMicros))
                .description("How long the pooler's oldest waiting client has waited").tags(tags).register(registry);
    }

    private void pooler(Tags tags, String origin, String name, String description, String state,
                        ToDoubleFunction<PoolerView> value) {
        Gauge.builder(name, this, m -> m.poolerValue(origin, value)).description(description).tags(tags)
                .tag("state", state).register(registry);
    }

    @Override
    public void onBorrow(String origin, long waitNanos) {
        origin(origin).borrowWait.record(waitNanos, TimeUnit.NANOSECONDS);
        Timer acquire = hikariAcquire;
        if (acquire != null) {
            acquire.record(waitNanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void onReturn(String origin, long heldNanos) {
        origin(origin).usage.record(heldNanos, TimeUnit.NANOSECONDS);
        Timer usage = hikariUsage;
        if (usage != null) {
            usage.record(heldNanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void onEvent(PoolEvent event) {
        if (event.origin() == null) {
            return;
        }
        OriginMeters meters = origin(event.origin());
        switch (event.type()) {
            case CREATED -> meters.opened.increment();
            case CREATION_FAILED -> meters.creationFailures.increment();
            case CLOSED -> closes.computeIfAbsent(event.origin() + '\u0000' + event.reason(), k ->
                    Counter.builder("slotpool.connections.closed").description("Connections closed, by reason")
                            .tags(poolTags).tag("origin", event.origin())
                            .tag("reason", String.valueOf(event.reason())).register(registry)).increment();
            default -> {
            }
        }
    }

    private OriginMeters origin(String name) {
        OriginMeters m = origins.get(name);
        return m != null ? m : origins.computeIfAbsent(name, OriginMeters::new);
    }

    private double limitOf(String origin) {
        for (LimitSnapshot l : limits.get()) {
            if (l.origin().equals(origin)) {
                return l.limit();
            }
        }
        return Double.NaN;
    }

    private double poolValue(ToDoubleFunction<PoolSnapshot> value) {
        PoolSnapshot s = snapshot();
        return s == null ? Double.NaN : value.applyAsDouble(s);
    }

    private double originValue(String origin, ToDoubleFunction<OriginSnapshot> value) {
        PoolSnapshot s = snapshot();
        if (s == null) {
            return Double.NaN;
        }
        return s.origin(origin).map(value::applyAsDouble).orElse(Double.NaN);
    }

    /** A standby's replay lag; NaN for -1, which says none is known. */
    private static double replicaLagMillis(OriginSnapshot o) {
        return o.replicaLagMillis() < 0 ? Double.NaN : o.replicaLagMillis();
    }

    /** A value of the origin's pooler view; NaN when the origin has none (its console did not answer). */
    private double poolerValue(String origin, ToDoubleFunction<PoolerView> value) {
        PoolSnapshot s = snapshot();
        if (s == null) {
            return Double.NaN;
        }
        return s.origin(origin).map(OriginSnapshot::pooler).map(value::applyAsDouble).orElse(Double.NaN);
    }

    private PoolSnapshot snapshot() {
        Supplier<PoolSnapshot> src = source;
        if (src == null) {
            return null;
        }
        long now = System.nanoTime();
        PoolSnapshot s = cached;
        if (s == null || now - cachedAt > SNAPSHOT_MAX_AGE_NANOS) {
            s = src.get();
            cached = s;
            cachedAt = now;
        }
        return s;
    }

    /** One origin's meters, registered when the origin is first seen. */
    private final class OriginMeters {

        // Null without events: only listener callbacks use them, and such an instance is no pool's listener.
        final Timer borrowWait;
        final Timer usage;
        final Counter opened;
        final Counter creationFailures;

        OriginMeters(String origin) {
            Tags tags = poolTags.and("origin", origin);
            if (events) {
                // Its distribution (percentiles, histogram) is Boot's management.metrics.distribution.* and BorrowWaitDistribution's.
                borrowWait = Timer.builder(BorrowWaitDistribution.METER).description("Time a borrow took, waiting included")
                        .tags(tags).register(registry);
                usage = Timer.builder("slotpool.connections.usage")
                        .description("Time connections were held by borrowers").tags(tags).register(registry);
                // Not "...created": Prometheus strips a _created suffix, which would clash with slotpool.connections.
                opened = Counter.builder("slotpool.connections.opened").description("Physical connections opened")
                        .tags(tags).register(registry);
                creationFailures = Counter.builder("slotpool.connections.creation.failures")
                        .description("Failed attempts to open a connection").tags(tags).register(registry);
            } else {
                borrowWait = null;
                usage = null;
                opened = null;
                creationFailures = null;
            }
            FunctionCounter.builder("slotpool.borrows", SlotPoolMetrics.this,
                            m -> m.originValue(origin, OriginSnapshot::borrows))
                    .description("Borrows served by the origin").tags(tags).register(registry);
            statements(tags, origin, "hit", OriginSnapshot::statementCacheHits);
            statements(tags, origin, "miss", OriginSnapshot::statementCacheMisses);
            statements(tags, origin, "eviction", OriginSnapshot::statementCacheEvictions);
            connections(tags, origin, "available", OriginSnapshot::available);
            connections(tags, origin, "borrowed", OriginSnapshot::borrowed);
            connections(tags, origin, "creating", OriginSnapshot::creating);
            connections(tags, origin, "closing", OriginSnapshot::closing);
            for (OriginState state : OriginState.values()) {
                Gauge.builder("slotpool.origin.state", SlotPoolMetrics.this,
                                m -> m.originValue(origin, o -> o.state() == state ? 1 : 0))
                        .description("1 for the origin's current state (UP, DRAINING, DOWN), else 0")
                        .tags(tags).tag("state", state.name()).register(registry);
            }
            for (ServerRole role : ServerRole.values()) {
                Gauge.builder("slotpool.origin.role", SlotPoolMetrics.this,
                                m -> m.originValue(origin, o -> o.role() == role ? 1 : 0))
                        .description("1 for the role the origin's server last reported (PRIMARY, STANDBY, READ_ONLY,"
                                + " UNKNOWN), else 0")
                        .tags(tags).tag("role", role.name()).register(registry);
            }
            TimeGauge.builder("slotpool.origin.replica.lag", SlotPoolMetrics.this, TimeUnit.MILLISECONDS,
                            m -> m.originValue(origin, SlotPoolMetrics::replicaLagMillis))
                    .description("A standby's replay lag as the pool last read it; NaN where none is known (a primary,"
                            + " or a lag that could not be read)")
                    .tags(tags).register(registry);
            Gauge.builder("slotpool.origin.refusing.new.sessions", SlotPoolMetrics.this,
                            m -> m.originValue(origin, o -> o.refusingNewSessions() ? 1 : 0))
                    .description("1 while the UP origin's server refuses new sessions (those the pool has still serve),"
                            + " else 0").tags(tags).register(registry);
            Gauge.builder("slotpool.origin.weight", SlotPoolMetrics.this, m -> m.originValue(origin, OriginSnapshot::weight))
                    .description("The origin's current target weight").tags(tags).register(registry);
        }

        /** Statement cache outcomes summed over the origin's connections (all 0 with the cache off). */
        private void statements(Tags tags, String origin, String result, ToDoubleFunction<OriginSnapshot> value) {
            FunctionCounter.builder("slotpool.statements.cache", SlotPoolMetrics.this,
                            m -> m.originValue(origin, value))
                    .description("Statement cache lookups by result (hit, miss), and idle statements it closed to make"
                            + " room (eviction)")
                    .tags(tags).tag("result", result).register(registry);
        }

        private void connections(Tags tags, String origin, String state, ToDoubleFunction<OriginSnapshot> value) {
            Gauge.builder("slotpool.connections", SlotPoolMetrics.this, m -> m.originValue(origin, value))
                    .description("Connections of the origin, by state").tags(tags).tag("state", state)
                    .register(registry);
        }
    }
}
