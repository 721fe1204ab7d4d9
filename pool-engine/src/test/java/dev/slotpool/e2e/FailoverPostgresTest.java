package dev.slotpool.e2e;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.OwnThread;
import dev.slotpool.testsupport.TcpFaultProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The five failover scenarios of docs/failover.md against three real PostgreSQL servers under a workload of short
 * transactions. Every assertion counts from the pool's own events and from the servers' pg_stat_activity; the
 * measured times are printed (one "FAILOVER ..." line per scenario) for docs/failover.md.
 */
class FailoverPostgresTest {

    private static final String APP = "slotpool-failover";
    private static final Duration BORROW_TIMEOUT = Duration.ofSeconds(5);
    private static PgCluster cluster;

    @BeforeAll
    static void start() throws IOException {
        cluster = new PgCluster(3);
    }

    @AfterAll
    static void stop() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Timeouts short enough that a dead or silent server is noticed in seconds, not minutes. */
    private static SlotPoolBuilder pool(String name, Recorder recorder) {
        return SlotPoolDataSource.builder().name(name).username("postgres")
                .connectionProperty("ApplicationName", APP)
                .connectionProperty("sslmode", "disable")
                .connectionProperty("connectTimeout", "2")
                .connectionProperty("socketTimeout", "3")
                .minSize(9).maxSize(12)
                .borrowTimeout(BORROW_TIMEOUT)
                .housekeepingPeriod(Duration.ofMillis(250))
                .validationTimeout(Duration.ofSeconds(1))
                .creationBackoffMax(Duration.ofMillis(500))
                .downAfterFailures(3)
                .downGracePeriod(Duration.ofSeconds(2))
                .listener(recorder);
    }

    private static OriginConfig origin(String name, String url) {
        return OriginConfig.named(name).url(url).host("localhost");
    }

    private static String pgUrl(int port) {
        return "jdbc:postgresql://localhost:" + port + "/postgres";
    }

    // ---- 1. a server stopped abruptly under load ----------------------------------------------------------

    @Test
    void aServerStoppedAbruptlyIsDetectedAvoidedAndWelcomedBack() throws Exception {
        Recorder rec = new Recorder();
        CompletableFuture<Void> stopped = null;
        SlotPoolDataSource ds = pool("stop", rec)
                .origin(origin("a", pgUrl(cluster.port(0))))
                .origin(origin("b", pgUrl(cluster.port(1))))
                .origin(origin("c", pgUrl(cluster.port(2)))).build();
        try (Workload load = new Workload(ds, rec, 12)) {
            awaitPool(ds, "filled on all three", s -> s.total() >= 9 && s.origins().stream().allMatch(o -> o.total() > 0));
            load.awaitBorrows("b", 200);
            int bConnections = ds.snapshot().origin("b").orElseThrow().total();

            long stoppedAt = System.nanoTime();
            // The server takes a while to finish dying after its backends are gone; watch the pool meanwhile.
            stopped = OwnThread.run(() -> cluster.stopAbruptly(1));
            PoolEvent down = rec.await("b DOWN", e -> e.type() == PoolEvent.Type.ORIGIN_STATE && "b".equals(e.origin())
                    && e.detail().contains("-> DOWN"));
            long detectedMs = rec.millisSince(stoppedAt, down);
            long borrowsOfBAtDown = load.borrows("b");
            awaitPool(ds, "back to min on a and c", s -> s.origin("b").orElseThrow().total() == 0
                    && s.origin("a").orElseThrow().total() + s.origin("c").orElseThrow().total() >= 9);
            long refilledMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
            load.awaitBorrows("a", load.borrows("a") + 500);

            assertThat(load.borrows("b")).as("no borrow got a connection of b after its DOWN event")
                    .isEqualTo(borrowsOfBAtDown);
            assertThat(load.failures()).as("only statements on b's connections failed: %s", load.failureSamples())
                    .allMatch(f -> f.origin().equals("b"));
            assertThat(load.failures().size()).as("each of b's connections failed at most once")
                    .isLessThanOrEqualTo(rec.closeTimes("b", stoppedAt).size());
            assertThat(load.borrowTimeouts()).isZero();
            await("a's and c's sessions equal the pool's connections", () -> cluster.sessions(0, APP)
                    == ds.snapshot().origin("a").orElseThrow().total() && cluster.sessions(2, APP)
                    == ds.snapshot().origin("c").orElseThrow().total());

            stopped.get(60, TimeUnit.SECONDS);
            long restartAt = System.nanoTime();
            cluster.restart(1);
            rec.await("b UP", e -> e.type() == PoolEvent.Type.ORIGIN_STATE && "b".equals(e.origin())
                    && e.detail().contains("-> UP"));
            long upMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartAt);
            long bAtUp = load.borrows("b");
            load.awaitBorrows("b", bAtUp + 100);
            long shareBackMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartAt);
            await("b's sessions match the pool", () -> cluster.sessions(1, APP) == ds.snapshot().origin("b").orElseThrow().total()
                    && cluster.sessions(1, APP) > 0);
            System.out.printf("FAILOVER 1 stop: detected DOWN after %d ms, back to min on survivors after %d ms, "
                    + "failed statements %d (b had %d connections), borrow timeouts 0; restart: UP after %d ms, 100 "
                    + "borrows on b after %d ms%n", detectedMs, refilledMs, load.failures().size(), bConnections, upMs,
                    shareBackMs);
        } finally {
            if (stopped != null) {
                stopped.handle((ok, e) -> null).get(60, TimeUnit.SECONDS);
            }
            if (!cluster.running(1)) {
                cluster.restart(1);
            }
            ds.close();
        }
        assertNoSessionsLeft();
    }

    // ---- 2. a network blackhole in front of one server ----------------------------------------------------

    @Test
    void aBlackholedServerIsDetectedWithoutBorrowersWaitingPastTheirTimeout() throws Exception {
        Recorder rec = new Recorder();
        try (TcpFaultProxy proxy = TcpFaultProxy.start("localhost", cluster.port(1))) {
            SlotPoolDataSource ds = pool("blackhole", rec)
                    .origin(origin("a", pgUrl(cluster.port(0))))
                    .origin(origin("b", pgUrl(proxy.port())))
                    .origin(origin("c", pgUrl(cluster.port(2)))).build();
            try (Workload load = new Workload(ds, rec, 12)) {
                awaitPool(ds, "filled", s -> s.total() >= 9 && s.origins().stream().allMatch(o -> o.total() > 0));
                load.awaitBorrows("b", 200);
                int bConnections = ds.snapshot().origin("b").orElseThrow().total();

                long cutAt = System.nanoTime();
                proxy.blackhole();
                PoolEvent down = rec.await("b DOWN", e -> e.type() == PoolEvent.Type.ORIGIN_STATE
                        && "b".equals(e.origin()) && e.detail().contains("-> DOWN"));
                long detectedMs = rec.millisSince(cutAt, down);
                long borrowsOfBAtDown = load.borrows("b");
                awaitPool(ds, "b empty and min on a and c", s -> s.origin("b").orElseThrow().total() == 0
                        && s.origin("a").orElseThrow().total() + s.origin("c").orElseThrow().total() >= 9);
                long refilledMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAt);
                load.awaitBorrows("a", load.borrows("a") + 500);

                assertThat(load.borrows("b")).as("no borrow of b after DOWN").isEqualTo(borrowsOfBAtDown);
                assertThat(load.failures()).as("failures only on b: %s", load.failureSamples())
                        .allMatch(f -> f.origin().equals("b"));
                assertThat(load.failures().size()).as("each of b's connections failed at most once")
                        .isLessThanOrEqualTo(rec.closeTimes("b", cutAt).size());
                assertThat(load.borrowTimeouts()).as("no borrower timed out").isZero();
                long maxBorrowMs = load.maxBorrowMillis();
                assertThat(maxBorrowMs).as("no borrower waited past its borrow timeout")
                        .isLessThan(BORROW_TIMEOUT.toMillis());

                long healAt = System.nanoTime();
                proxy.forward();
                rec.await("b UP", e -> e.type() == PoolEvent.Type.ORIGIN_STATE && "b".equals(e.origin())
                        && e.detail().contains("-> UP"));
                long upMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - healAt);
                load.awaitBorrows("b", load.borrows("b") + 100);
                System.out.printf("FAILOVER 2 blackhole: detected DOWN after %d ms, b empty and min on survivors "
                        + "after %d ms, failed statements %d (b had %d connections), longest borrow %d ms "
                        + "(timeout %d ms), borrow timeouts 0; healed: UP after %d ms%n", detectedMs, refilledMs,
                        load.failures().size(), bConnections, maxBorrowMs, BORROW_TIMEOUT.toMillis(), upMs);
            } finally {
                ds.close();
            }
        }
        assertNoSessionsLeft();
    }

    // ---- 3. planned drain under load -----------------------------------------------------------------------

    @Test
    void aPlannedDrainCausesNoErrorsAndEmptiesTheOriginByItsTimeout() throws Exception {
        Recorder rec = new Recorder();
        SlotPoolDataSource ds = pool("drain", rec).minSize(12).maxSize(16)
                .origin(origin("a", pgUrl(cluster.port(0))))
                .origin(origin("b", pgUrl(cluster.port(1))))
                .origin(origin("c", pgUrl(cluster.port(2)))).build();
        Duration timeout = Duration.ofSeconds(4);
        // Far fewer threads than connections, so b has idle connections for the drain to pace.
        try (Workload load = new Workload(ds, rec, 3)) {
            awaitPool(ds, "filled", s -> s.total() >= 12 && s.origins().stream().allMatch(o -> o.total() > 0));
            load.awaitBorrows("b", 200);
            int bConnections = ds.snapshot().origin("b").orElseThrow().total();
            long drainAt = System.nanoTime();
            ds.drain("b", timeout);
            await("b has no backend on its server", () -> cluster.sessions(1, APP) == 0);
            long emptyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - drainAt);
            rec.await("b drained", e -> e.type() == PoolEvent.Type.ORIGIN_STATE && "b".equals(e.origin())
                    && e.detail().contains("DRAINING -> DOWN"));
            load.awaitBorrows("a", load.borrows("a") + 500);

            assertThat(load.failures()).as("zero workload errors: %s", load.failureSamples()).isEmpty();
            assertThat(load.borrowTimeouts()).isZero();
            // The drain's own deadline plus the time to observe it (one pg_stat_activity probe).
            assertThat(emptyMs).as("b empty by the drain timeout").isLessThanOrEqualTo(timeout.toMillis() + 500);
            List<Long> closesMs = rec.closeTimes("b", drainAt);
            assertThat(closesMs).isNotEmpty();
            System.out.printf("FAILOVER 3 drain: b had %d connections; its closes at %s ms after the drain call; "
                    + "server empty after %d ms (timeout %d ms); workload errors 0, borrow timeouts 0%n",
                    bConnections, closesMs, emptyMs, timeout.toMillis());
        } finally {
            ds.close();
        }
        assertNoSessionsLeft();
    }

    // ---- 4. rebalance 34/33/33 -> 70/20/10 under load ------------------------------------------------------

    @Test
    void aRebalanceReachesTheNewSharesWithoutBorrowFailures() throws Exception {
        Recorder rec = new Recorder();
        SlotPoolDataSource ds = pool("rebalance", rec).minSize(20).maxSize(20)
                .origin(origin("a", pgUrl(cluster.port(0))).weight(34))
                .origin(origin("b", pgUrl(cluster.port(1))).weight(33))
                .origin(origin("c", pgUrl(cluster.port(2))).weight(33)).build();
        try (Workload load = new Workload(ds, rec, 16)) {
            awaitPool(ds, "filled", s -> s.total() == 20);
            load.awaitBorrows("c", 200);
            long at = System.nanoTime();
            ds.rebalance(Map.of("a", 70, "b", 20, "c", 10));
            PoolSnapshot reached = awaitPool(ds, "within 10 points of 70/20/10", s -> within(s, 10));
            long reachedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - at);
            PoolSnapshot settled = awaitPool(ds, "exactly 14/4/2", s -> s.total() == 20
                    && s.origin("a").orElseThrow().total() == 14 && s.origin("b").orElseThrow().total() == 4
                    && s.origin("c").orElseThrow().total() == 2);
            long settledMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - at);
            load.awaitBorrows("a", load.borrows("a") + 500);
            await("servers agree", () -> cluster.sessions(0, APP) == 14 && cluster.sessions(1, APP) == 4
                    && cluster.sessions(2, APP) == 2);

            assertThat(load.failures()).as("zero failures: %s", load.failureSamples()).isEmpty();
            assertThat(load.borrowTimeouts()).isZero();
            System.out.printf("FAILOVER 4 rebalance: within 10 points after %d ms (%s), exactly 14/4/2 after %d ms; "
                    + "connections retired %d; workload errors 0, borrow timeouts 0%n", reachedMs, shares(reached),
                    settledMs, rec.closeTimes(null, at).size());
            assertThat(settled.total()).isEqualTo(20);
        } finally {
            ds.close();
        }
        assertNoSessionsLeft();
    }

    private static boolean within(PoolSnapshot s, int points) {
        Map<String, Integer> target = Map.of("a", 70, "b", 20, "c", 10);
        int total = s.origins().stream().mapToInt(OriginSnapshot::total).sum();
        return total > 0 && s.origins().stream()
                .allMatch(o -> Math.abs(100.0 * o.total() / total - target.get(o.name())) <= points);
    }

    private static String shares(PoolSnapshot s) {
        StringBuilder b = new StringBuilder();
        for (OriginSnapshot o : s.origins()) {
            b.append(b.length() == 0 ? "" : "/").append(o.total());
        }
        return b + " connections";
    }

    // ---- 5. discovered origins through one multi-host URL ---------------------------------------------------

    @Test
    void aMultiHostUrlDiscoversEachServerAndADiscoveredOriginDrains() throws Exception {
        Recorder rec = new Recorder();
        String multi = "jdbc:postgresql://localhost:" + cluster.port(0) + ",localhost:" + cluster.port(1)
                + ",localhost:" + cluster.port(2) + "/postgres?loadBalanceHosts=true";
        // 24 connections landing at random: the chance that a server gets none is 3 × (2/3)^24 ≈ 0.02 %.
        SlotPoolDataSource ds = pool("discover", rec).minSize(24).maxSize(24)
                .origin(OriginConfig.named("cluster").url(multi)
                        .originQuery("SELECT 'pg-' || inet_server_port(), inet_server_port()::text AS instance"))
                .build();
        try (Workload load = new Workload(ds, rec, 8)) {
            PoolSnapshot s = awaitPool(ds, "three servers discovered",
                    p -> p.total() == 24 && p.origins().size() == 3);
            for (int i = 0; i < 3; i++) {
                OriginSnapshot o = s.origin("pg-" + cluster.port(i)).orElseThrow();
                assertThat(o.instance()).isEqualTo(String.valueOf(cluster.port(i)));
            }
            load.awaitBorrows("pg-" + cluster.port(2), 100);
            assertThat(load.misattributed()).as("every borrow ran on the server its origin names").isZero();
            await("each server's sessions equal its origin's connections", () -> {
                PoolSnapshot now = ds.snapshot();
                for (int i = 0; i < 3; i++) {
                    if (cluster.sessions(i, APP) != now.origin("pg-" + cluster.port(i)).orElseThrow().total()) {
                        return false;
                    }
                }
                return true;
            });

            String drained = "pg-" + cluster.port(1);
            long at = System.nanoTime();
            ds.drain(drained, Duration.ofSeconds(2));
            await("the drained server has no backend", () -> cluster.sessions(1, APP) == 0);
            long emptyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - at);
            PoolSnapshot after = awaitPool(ds, "refilled on the other two",
                    p -> p.origin(drained).orElseThrow().total() == 0 && p.total() == 24);
            long borrowsOfDrained = load.borrows(drained);
            load.awaitBorrows("pg-" + cluster.port(0), load.borrows("pg-" + cluster.port(0)) + 300);
            assertThat(load.borrows(drained)).isEqualTo(borrowsOfDrained);
            assertThat(load.failures()).as("zero errors: %s", load.failureSamples()).isEmpty();
            assertThat(load.misattributed()).isZero();
            long landingsClosed = rec.events.stream().filter(e -> e.type() == PoolEvent.Type.CLOSED
                    && drained.equals(e.origin())).count();
            System.out.printf("FAILOVER 5 discovery: 3 origins discovered (%s), %d borrows checked against "
                    + "inet_server_port(), 0 misattributed; drain of %s: server empty after %d ms (timeout 2000 ms), "
                    + "pool back to 24 on the others (%s), closes on the drained origin %d, errors 0%n",
                    shares(s), load.total(), drained, emptyMs, shares(after), landingsClosed);
        } finally {
            ds.close();
        }
        assertNoSessionsLeft();
    }

    // ---- helpers -----------------------------------------------------------------------------------------

    private static void assertNoSessionsLeft() throws SQLException {
        for (int i = 0; i < 3; i++) {
            int server = i;
            await("server " + i + " has no pool backend after close", () -> cluster.sessions(server, APP) == 0);
        }
    }

    private static PoolSnapshot awaitPool(SlotPoolDataSource ds, String what, Predicate<PoolSnapshot> condition) {
        return E2e.await(what, ds::snapshot, condition);
    }

    private static void await(String what, java.util.concurrent.Callable<Boolean> probe) {
        E2e.await(what, probe, Boolean::booleanValue);
    }

    /** Pool events, and which origin each thread borrowed last (onBorrow runs on the borrowing thread). */
    static final class Recorder implements PoolListener {
        final List<PoolEvent> events = new CopyOnWriteArrayList<>();
        final ThreadLocal<String> lastOrigin = new ThreadLocal<>();
        private final Map<PoolEvent, Long> seenAt = new ConcurrentHashMap<>();

        @Override
        public void onEvent(PoolEvent e) {
            seenAt.put(e, System.nanoTime());
            events.add(e);
        }

        @Override
        public void onBorrow(String origin, long waitNanos) {
            lastOrigin.set(origin);
        }

        PoolEvent await(String what, Predicate<PoolEvent> which) {
            return E2e.await(what, () -> events.stream().filter(which).findFirst().orElse(null), e -> e != null);
        }

        long millisSince(long start, PoolEvent e) {
            return TimeUnit.NANOSECONDS.toMillis(seenAt.get(e) - start);
        }

        /** Milliseconds after {@code start} of each close of the origin (any origin when null). */
        List<Long> closeTimes(String origin, long start) {
            List<Long> out = new ArrayList<>();
            for (PoolEvent e : events) {
                Long at = seenAt.get(e);
                if (e.type() == PoolEvent.Type.CLOSED && (origin == null || origin.equals(e.origin())) && at != null
                        && at - start >= 0) {
                    out.add(TimeUnit.NANOSECONDS.toMillis(at - start));
                }
            }
            return out;
        }
    }

    record Failure(String origin, String sqlState, String message) {
    }

    /**
     * Threads running short transactions: borrow, ask the server its port, commit. Counts borrows per origin
     * (from the pool's onBorrow), checks the port against the origin when the origin names it (discovery), and
     * records every failure with the origin of the connection it happened on.
     */
    static final class Workload implements AutoCloseable {
        private final Recorder rec;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final List<Thread> threads = new ArrayList<>();
        private final Map<String, AtomicLong> borrows = new ConcurrentHashMap<>();
        private final List<Failure> failures = new CopyOnWriteArrayList<>();
        private final AtomicLong timeouts = new AtomicLong();
        private final AtomicLong misattributed = new AtomicLong();
        private final AtomicLong maxBorrowNanos = new AtomicLong();

        Workload(SlotPoolDataSource ds, Recorder rec, int threadCount) {
            this.rec = rec;
            for (int t = 0; t < threadCount; t++) {
                Thread th = new Thread(() -> run(ds), "workload-" + t);
                th.setDaemon(true);
                threads.add(th);
                th.start();
            }
        }

        private void run(SlotPoolDataSource ds) {
            while (!stop.get()) {
                long start = System.nanoTime();
                Connection c;
                try {
                    c = ds.getConnection();
                } catch (SQLException e) {
                    timeouts.incrementAndGet();
                    maxBorrowNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
                    continue;
                }
                maxBorrowNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
                String origin = rec.lastOrigin.get();
                borrows.computeIfAbsent(origin, k -> new AtomicLong()).incrementAndGet();
                try (c) {
                    c.setAutoCommit(false);
                    try (Statement st = c.createStatement();
                         ResultSet rs = st.executeQuery("SELECT inet_server_port(), pg_sleep(0.002)")) {
                        rs.next();
                        int port = rs.getInt(1);
                        if (origin.startsWith("pg-") && !origin.equals("pg-" + port)) {
                            misattributed.incrementAndGet();
                        }
                    }
                    c.commit();
                } catch (SQLException e) {
                    failures.add(new Failure(origin, e.getSQLState(), e.getMessage()));
                }
            }
        }

        long borrows(String origin) {
            AtomicLong n = borrows.get(origin);
            return n == null ? 0 : n.get();
        }

        long total() {
            return borrows.values().stream().mapToLong(AtomicLong::get).sum();
        }

        void awaitBorrows(String origin, long atLeast) {
            E2e.await(atLeast + " borrows on " + origin, () -> borrows(origin), n -> n >= atLeast);
        }

        List<Failure> failures() {
            return failures;
        }

        String failureSamples() {
            return failures.stream().limit(5).toList().toString();
        }

        long borrowTimeouts() {
            return timeouts.get();
        }

        long misattributed() {
            return misattributed.get();
        }

        long maxBorrowMillis() {
            return TimeUnit.NANOSECONDS.toMillis(maxBorrowNanos.get());
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            for (Thread th : threads) {
                th.join(TimeUnit.SECONDS.toMillis(30));
            }
        }
    }
}
