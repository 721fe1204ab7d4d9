package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.e2e.E2e;
import dev.slotpool.failover.OriginOperations;
import dev.slotpool.origins.Origin;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bounded soak (docs/reliability.md, "Soak"): borrower threads borrowing, running statements, throwing while holding, hitting
 * fatal errors that evict, while a chaos thread drains, marks down and up, rebalances and crashes origins. A
 * sampler checks S1–S3 all along; at the end no physical connection is left open, no waiter is left, and the
 * heap after GC has not grown.
 *
 * <p>The CI run lasts about 40 s (stub driver) plus 15 s (two PostgreSQL servers). The manual run
 * sets the durations in seconds (docs/reliability.md has the exact command):
 * {@code -Dslotpool.soak.seconds=600 -Dslotpool.soak.pgSeconds=120}.
 */
class SoakTest {

    private static final long STUB_SECONDS = Long.getLong("slotpool.soak.seconds", 40);
    private static final long PG_SECONDS = Long.getLong("slotpool.soak.pgSeconds", 15);
    private static final int MAX = 16;
    /** Cap of origin c (S3 per origin). */
    private static final int CAP_C = 5;
    /** Heap growth allowed between the start and the end, after GC: far above noise, far below a leak of
     * slots, connections or waiters over minutes of churn. */
    private static final long HEAP_SLACK_BYTES = 32L << 20;

    // ---- stub driver: three origins, every kind of trouble ------------------------------------------------

    @Test
    void stubSoak() throws Exception {
        StubDatabase a = StubDatabase.reset("soak-a");
        StubDatabase b = StubDatabase.reset("soak-b");
        StubDatabase c = StubDatabase.reset("soak-c");
        Map<String, StubDatabase> dbs = Map.of("a", a, "b", b, "c", c);
        ConnectionPool pool = new ConnectionPool(SlotPoolDataSource.builder()
                .name("soak")
                .username("app").password("s3cret-pw")
                .origin(OriginConfig.named("a").url(a.url()).weight(50))
                .origin(OriginConfig.named("b").url(b.url()).weight(30))
                .origin(OriginConfig.named("c").url(c.url()).weight(20).maxConnections(CAP_C))
                .minSize(4).maxSize(MAX)
                .borrowTimeout(Duration.ofSeconds(5))
                .housekeepingPeriod(Duration.ofMillis(200))
                .validateAfterIdle(Duration.ofMillis(100))
                .keepaliveInterval(Duration.ofSeconds(1))
                .maxLifetime(Duration.ofSeconds(3))
                .creationBackoffMax(Duration.ofMillis(500))
                .downGracePeriod(Duration.ofSeconds(1))
                .shutdownTimeout(Duration.ofSeconds(5))
                .config());
        // The origin operations SlotPoolDataSource delegates to; the pool itself for its counts (S3).
        OriginOperations ops = pool.operations();
        Pools.await(pool, s -> s.available() >= 4, "minSize open");
        long heapStart = heapAfterGc();

        AtomicBoolean running = new AtomicBoolean(true);
        Map<StubConnection, Thread> holders = new ConcurrentHashMap<>();
        AtomicLong s1 = new AtomicLong();
        AtomicLong s2 = new AtomicLong();
        AtomicLong s2Checks = new AtomicLong();
        AtomicLong s3 = new AtomicLong();
        AtomicLong s3Origin = new AtomicLong();
        AtomicReference<String> s2Detail = new AtomicReference<>();
        AtomicLong s2Transient = new AtomicLong();
        AtomicLong borrows = new AtomicLong();
        AtomicLong statements = new AtomicLong();
        AtomicLong userExceptions = new AtomicLong();
        AtomicLong evictions = new AtomicLong();
        AtomicLong connectionErrors = new AtomicLong();
        AtomicLong timeouts = new AtomicLong();
        AtomicLong chaosSteps = new AtomicLong();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();

        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < 24; t++) {
            workers.add(new Thread(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                while (running.get()) {
                    Connection conn;
                    try {
                        conn = pool.borrow();
                    } catch (SQLTransientConnectionException e) {
                        timeouts.incrementAndGet();
                        continue;
                    } catch (Throwable e) {
                        unexpected.compareAndSet(null, e);
                        continue;
                    }
                    borrows.incrementAndGet();
                    StubConnection physical;
                    try {
                        physical = conn.unwrap(StubConnection.class);
                    } catch (SQLException e) {
                        unexpected.compareAndSet(null, e);
                        continue;
                    }
                    if (holders.putIfAbsent(physical, Thread.currentThread()) != null) {
                        s1.incrementAndGet();
                    }
                    try {
                        int dice = rnd.nextInt(100);
                        if (dice < 2) {
                            physical.database().failNextQueries(1, "08006");
                            evictions.incrementAndGet();
                        } else if (dice < 6) {
                            userExceptions.incrementAndGet();
                            throw new IllegalStateException("user code failed while holding");
                        }
                        try (Statement st = conn.createStatement()) {
                            st.execute("SELECT 1");
                            statements.incrementAndGet();
                        }
                        if (dice >= 95) {
                            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(rnd.nextInt(200, 3000)));
                        }
                    } catch (SQLException e) {
                        // Injected fatal errors, and connections of a crashed origin: evicted by the pool.
                        connectionErrors.incrementAndGet();
                    } catch (IllegalStateException expected) {
                        // returned below, as try-with-resources would
                    } finally {
                        holders.remove(physical, Thread.currentThread());
                        try {
                            conn.close();
                        } catch (Throwable e) {
                            unexpected.compareAndSet(null, e);
                        }
                    }
                }
            }, "soak-worker-" + t));
        }

        Thread sampler = new Thread(() -> {
            while (running.get()) {
                if (pool.capacity.occupied() > MAX) {
                    s3.incrementAndGet();
                }
                for (Origin o : pool.origins.lending()) {
                    if (o.occupied.get() > (o.name.equals("c") ? CAP_C : MAX)) {
                        s3Origin.incrementAndGet();
                    }
                }
                Boolean consistent = s2Consistent(pool, dbs);
                if (consistent != null) {
                    s2Checks.incrementAndGet();
                    if (!consistent) {
                        String seen = describe(pool, dbs);
                        if (s2Recovers(pool, dbs)) {
                            s2Transient.incrementAndGet();
                        } else {
                            s2.incrementAndGet();
                            s2Detail.compareAndSet(null, seen);
                        }
                    }
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }, "soak-sampler");

        Thread chaos = new Thread(() -> {
            String[] names = {"a", "b", "c"};
            ThreadLocalRandom rnd = ThreadLocalRandom.current();
            try {
                while (running.get()) {
                    String o = names[rnd.nextInt(names.length)];
                    switch (rnd.nextInt(5)) {
                        case 0 -> ops.drain(o, Duration.ofMillis(300));
                        case 1 -> ops.markDown(o);
                        case 2 -> pool.weights().rebalance(Map.of(o, rnd.nextInt(1, 100)));
                        case 3 -> {
                            // An origin crash: its connections die and it refuses new ones for a while.
                            dbs.get(o).down(true).killLiveConnections();
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(rnd.nextInt(300, 1500)));
                            dbs.get(o).down(false);
                        }
                        default -> pool.weights().rebalanceToConfigured();
                    }
                    chaosSteps.incrementAndGet();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(rnd.nextInt(200, 800)));
                    ops.markUp(o);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(rnd.nextInt(100, 400)));
                }
            } catch (Throwable e) {
                unexpected.compareAndSet(null, e);
            }
        }, "soak-chaos");

        long start = System.nanoTime();
        workers.forEach(Thread::start);
        sampler.start();
        chaos.start();
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(STUB_SECONDS));
        running.set(false);
        for (Thread t : workers) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
        }
        chaos.join(TimeUnit.SECONDS.toMillis(30));
        sampler.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(chaos.isAlive()).isFalse();
        assertThat(sampler.isAlive()).isFalse();
        double seconds = (System.nanoTime() - start) / 1e9;

        // Every origin back: the pool settles with no waiter and with exactly the connections the databases hold.
        dbs.values().forEach(db -> db.down(false));
        for (String o : dbs.keySet()) {
            ops.markUp(o);
        }
        pool.weights().rebalanceToConfigured();
        PoolSnapshot settled = Pools.await(pool, s -> s.borrowed() == 0 && s.creating() == 0 && s.closing() == 0
                && s.waiting() == 0 && s.origins().stream().allMatch(o -> o.state() == OriginState.UP), "a settled pool");
        E2e.await("S2 at rest: open physical connections per origin == the pool's", () -> s2Consistent(pool, dbs),
                Boolean.TRUE::equals);
        long heapEnd = heapAfterGc();

        pool.close();
        long leaked = dbs.values().stream().mapToLong(StubDatabase::live).sum();
        long opened = dbs.values().stream().mapToLong(StubDatabase::opened).sum();
        long closed = dbs.values().stream().mapToLong(StubDatabase::closed).sum();
        long aborted = dbs.values().stream().mapToLong(StubDatabase::aborted).sum();
        List<Thread> survivors = StubFaultsTest.poolThreads("soak");
        System.out.printf("soak: stub, %.0f s, 24 workers, 3 origins: %d borrows, %d statements, %d user exceptions,"
                        + " %d injected fatal errors, %d connection errors seen, %d timeouts, %d chaos steps;"
                        + " S1 violations %d, S2 violations %d of %d consistent samples (%d momentary mismatches that"
                        + " cleared), S3 violations %d pool-wide, %d samples over origin c's cap (driver's most open on"
                        + " c: %d of %d); opened %d, closed %d, aborted %d, leaked after close %d; waiting at end %d;"
                        + " heap after GC %.1f MB at start, %.1f MB at end%n",
                seconds, borrows.get(), statements.get(), userExceptions.get(), evictions.get(), connectionErrors.get(),
                timeouts.get(), chaosSteps.get(), s1.get(), s2.get(), s2Checks.get(), s2Transient.get(), s3.get(),
                s3Origin.get(), c.maxOpen(), CAP_C, opened, closed, aborted, leaked, settled.waiting(),
                heapStart / 1048576.0, heapEnd / 1048576.0);

        assertThat(unexpected.get()).isNull();
        assertThat(s1.get()).as("S1: borrows that found another holder").isZero();
        assertThat(s2.get()).as("S2: lasting mismatches of open physical connections and the pool's live ones; "
                + "first: %s", s2Detail.get()).isZero();
        assertThat(s2Checks.get()).as("consistent S2 samples taken").isPositive();
        assertThat(s3.get()).as("S3: samples of live + creating over maxSize").isZero();
        assertThat(s3Origin.get()).as("S3 per origin: samples over origin c's cap").isZero();
        assertThat(c.maxOpen()).as("the driver's most open connections on c").isLessThanOrEqualTo(CAP_C);
        assertThat(borrows.get()).isGreaterThan(10_000);
        assertThat(chaosSteps.get()).isGreaterThanOrEqualTo(STUB_SECONDS / 3);
        assertThat(leaked).as("physical connections left open after close").isZero();
        assertThat(opened).isEqualTo(closed + aborted);
        assertThat(survivors).as("pool threads after close").isEmpty();
        assertThat(heapEnd).as("heap after GC at the end vs the start (%d bytes)", heapStart)
                .isLessThanOrEqualTo(heapStart + HEAP_SLACK_BYTES);
    }

    /**
     * S2 from a consistent read, or null if the pool changed during the read: per origin, the driver's open
     * connections equal the pool's live ones. Consistent means: no slot being opened or closed in either of two
     * snapshots around the driver's counts, the same totals, the pool's opened and closed counters unchanged,
     * and no origin being probed (a probe opens a connection that never enters a slot).
     */
    private static Boolean s2Consistent(ConnectionPool pool, Map<String, StubDatabase> dbs) {
        for (Origin o : pool.origins.lending()) {
            if (o.status().detected() || o.health.attempts().stream().anyMatch(a -> a.probe)) {
                return null;
            }
        }
        long opened = pool.capacity.opened();
        long closed = pool.capacity.closed();
        PoolSnapshot before = pool.snapshot();
        Map<String, Long> open = new java.util.HashMap<>();
        dbs.forEach((name, db) -> open.put(name, db.live()));
        PoolSnapshot after = pool.snapshot();
        if (pool.capacity.opened() != opened || pool.capacity.closed() != closed || pool.capacity.creating() != 0
                || !quiet(before) || !quiet(after)) {
            return null;
        }
        for (var o : before.origins()) {
            if (o.total() != after.origin(o.name()).orElseThrow().total()) {
                return null;
            }
        }
        return before.origins().stream().allMatch(o -> open.get(o.name()) == o.total());
    }

    /**
     * Whether a mismatch was only a connection in flight outside the table: a probe of an origin marked DOWN by
     * detection opens a connection that never enters a slot, and the pool counts it closed just before closing
     * it (and may mark the origin UP in between), so one read can catch it. A leak or a double close lasts;
     * this looks again, 20 ms apart, for up to a second.
     */
    private static boolean s2Recovers(ConnectionPool pool, Map<String, StubDatabase> dbs) {
        for (int i = 0; i < 50; i++) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            if (Boolean.TRUE.equals(s2Consistent(pool, dbs))) {
                return true;
            }
        }
        return false;
    }

    private static String describe(ConnectionPool pool, Map<String, StubDatabase> dbs) {
        StringBuilder sb = new StringBuilder(pool.snapshot().summary()).append("; driver open:");
        dbs.forEach((name, db) -> sb.append(' ').append(name).append('=').append(db.live()));
        return sb.toString();
    }

    private static boolean quiet(PoolSnapshot s) {
        return s.creating() == 0 && s.closing() == 0;
    }

    static long heapAfterGc() {
        var memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    // ---- PostgreSQL: two servers, the server's own count of the pool's connections ---------------------------

    @Test
    void postgresSoak() throws Exception {
        String app = "slotpool-soak";
        try (EmbeddedPostgres east = EmbeddedPostgres.builder().start();
             EmbeddedPostgres west = EmbeddedPostgres.builder().start()) {
            Map<String, EmbeddedPostgres> servers = Map.of("east", east, "west", west);
            SlotPoolDataSource ds = SlotPoolDataSource.builder()
                    .name("pgsoak")
                    .username("postgres")
                    .connectionProperty("ApplicationName", app)
                    .origin(OriginConfig.named("east").url(east.getJdbcUrl("postgres", "postgres")).weight(60))
                    .origin(OriginConfig.named("west").url(west.getJdbcUrl("postgres", "postgres")).weight(40))
                    .minSize(4).maxSize(10)
                    .borrowTimeout(Duration.ofSeconds(10))
                    .housekeepingPeriod(Duration.ofMillis(250))
                    .validateAfterIdle(Duration.ofMillis(200))
                    .maxLifetime(Duration.ofSeconds(4))
                    .creationBackoffMax(Duration.ofMillis(500))
                    .build();
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicBoolean chaosPaused = new AtomicBoolean();
            Map<Object, Thread> holders = new ConcurrentHashMap<>();
            AtomicLong s1 = new AtomicLong();
            AtomicLong borrows = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            AtomicLong terminated = new AtomicLong();
            AtomicLong checkpoints = new AtomicLong();
            AtomicReference<Throwable> unexpected = new AtomicReference<>();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                workers.add(new Thread(() -> {
                    while (running.get()) {
                        try (Connection conn = ds.getConnection()) {
                            borrows.incrementAndGet();
                            Object physical = conn.unwrap(org.postgresql.PGConnection.class);
                            if (holders.putIfAbsent(physical, Thread.currentThread()) != null) {
                                s1.incrementAndGet();
                            }
                            try (Statement st = conn.createStatement()) {
                                st.execute("SELECT pg_sleep(0.002)");
                            } catch (SQLException e) {
                                errors.incrementAndGet(); // a backend the chaos terminated
                            } finally {
                                holders.remove(physical, Thread.currentThread());
                            }
                        } catch (SQLException e) {
                            unexpected.compareAndSet(null, e);
                        }
                    }
                }, "pgsoak-worker-" + t));
            }
            Thread chaos = new Thread(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                try {
                    while (running.get()) {
                        if (!chaosPaused.get()) {
                            String o = rnd.nextBoolean() ? "east" : "west";
                            switch (rnd.nextInt(3)) {
                                case 0 -> ds.rebalance(Map.of(o, rnd.nextInt(1, 100)));
                                case 1 -> {
                                    ds.drain(o, Duration.ofMillis(300));
                                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
                                    ds.markUp(o);
                                }
                                default -> terminated.addAndGet(terminateOne(servers.get(o), app));
                            }
                        }
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(rnd.nextInt(200, 600)));
                    }
                } catch (Throwable e) {
                    unexpected.compareAndSet(null, e);
                }
            }, "pgsoak-chaos");

            long start = System.nanoTime();
            workers.forEach(Thread::start);
            chaos.start();
            long end = start + TimeUnit.SECONDS.toNanos(PG_SECONDS);
            while (System.nanoTime() - end < 0) {
                LockSupport.parkNanos(Math.min(TimeUnit.SECONDS.toNanos(5), Math.max(0, end - System.nanoTime())));
                // Checkpoint: with the chaos paused, each server's count of the pool's backends comes to equal
                // the pool's own count for that origin (backends exit asynchronously, hence the polling).
                chaosPaused.set(true);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(700)); // a chaos step under way ends
                ds.rebalanceToConfigured();
                for (String o : servers.keySet()) {
                    ds.markUp(o);
                }
                for (String o : servers.keySet()) {
                    E2e.await("pg_stat_activity of " + o + " == the pool's live connections of " + o,
                            () -> backends(servers.get(o), app) == ds.snapshot().origin(o).orElseThrow().total(),
                            Boolean.TRUE::equals);
                }
                checkpoints.incrementAndGet();
                chaosPaused.set(false);
            }
            running.set(false);
            for (Thread t : workers) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                assertThat(t.isAlive()).isFalse();
            }
            chaos.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(chaos.isAlive()).isFalse();
            PoolSnapshot last = ds.snapshot();
            ds.close();
            for (String o : servers.keySet()) {
                E2e.await("no backend of the pool left on " + o + " after close", () -> backends(servers.get(o), app),
                        n -> n == 0);
            }
            System.out.printf("soak: postgres, %.0f s, 8 workers, 2 servers: %d borrows, %d backends terminated by"
                            + " the chaos, %d statement errors, %d checkpoints where pg_stat_activity matched the pool"
                            + " per origin; S1 violations %d; waiting at end %d; backends after close 0%n",
                    (System.nanoTime() - start) / 1e9, borrows.get(), terminated.get(), errors.get(),
                    checkpoints.get(), s1.get(), last.waiting());
            assertThat(unexpected.get()).isNull();
            assertThat(s1.get()).isZero();
            assertThat(checkpoints.get()).isPositive();
            assertThat(borrows.get()).isPositive();
            assertThat(last.waiting()).isZero();
        }
    }

    /** Terminates one backend of the pool on this server (a crash of that session); returns how many (0 or 1). */
    private static long terminateOne(EmbeddedPostgres server, String app) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.getJdbcUrl("postgres", "postgres"));
             PreparedStatement ps = c.prepareStatement("SELECT count(pg_terminate_backend(pid)) FROM "
                     + "(SELECT pid FROM pg_stat_activity WHERE application_name = ? LIMIT 1) t")) {
            ps.setString(1, app);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static long backends(EmbeddedPostgres server, String app) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.getJdbcUrl("postgres", "postgres"));
             PreparedStatement ps = c.prepareStatement(
                     "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?")) {
            ps.setString(1, app);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
