package dev.slotpool;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads to standbys through the public API on stub servers that answer PostgreSQL's role query
 * (docs/architecture.md, "Reads to standbys"): read borrows on the standby, writes never; a lag beyond the bound,
 * a standby that stops answering and a promotion. Real servers: {@code ReadsToStandbysPostgresTest}.
 */
class ReadsToStandbysTest {

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final ThreadLocal<String> lastOrigin = new ThreadLocal<>();
    private final StubDatabase primary = StubDatabase.reset("reads-primary").productName("PostgreSQL")
            .answer("pg_is_in_recovery", pg(false, 1, -1));
    private final StubDatabase standby = StubDatabase.reset("reads-standby").productName("PostgreSQL")
            .answer("pg_is_in_recovery", pg(true, 0, 0));

    @AfterEach
    void reset() {
        StubDatabase.reset();
    }

    /** PostgreSQL's role query's answer: a standby with the given replay lag, or a primary on a timeline. */
    static Map<String, Object> pg(boolean inRecovery, long timeline, long lagMillis) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("in_recovery", inRecovery);
        row.put("cluster", "42");
        row.put("transaction_read_only", inRecovery ? "on" : "off");
        row.put("default_read_only", "off");
        row.put("timeline", inRecovery ? null : timeline);
        row.put("lag_bytes", inRecovery ? (lagMillis > 0 ? 8192L : 0L) : null);
        row.put("lag_millis", inRecovery ? lagMillis : null);
        row.put("receiver", inRecovery ? "streaming" : null);
        return row;
    }

    private SlotPoolDataSource pool(int maxSize) {
        return SlotPoolDataSource.builder().name("reads").minSize(4).maxSize(maxSize)
                .borrowTimeout(Duration.ofSeconds(10)).creationBackoffMax(Duration.ofMillis(200))
                .readsToStandbys(true).maxReplicaLag(Duration.ofSeconds(5))
                .listener(new PoolListener() {
                    @Override
                    public void onEvent(PoolEvent e) {
                        if (e.type() == PoolEvent.Type.ORIGIN_STATE) {
                            events.add(e.origin() + " " + e.detail());
                        }
                    }

                    @Override
                    public void onBorrow(String origin, long waitNanos) {
                        lastOrigin.set(origin);
                    }
                })
                .origin(OriginConfig.named("primary").url(primary.url()))
                .origin(OriginConfig.named("standby").url(standby.url()))
                .build();
    }

    private static OriginSnapshot origin(SlotPoolDataSource ds, String name) {
        return ds.snapshot().origin(name).orElseThrow();
    }

    private static void await(String what, SlotPoolDataSource ds, Predicate<PoolSnapshot> condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.test(ds.snapshot())) {
            assertThat(System.nanoTime() - deadline).as("timed out waiting for: %s; %s", what, ds.snapshot())
                    .isNegative();
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    /** Borrows n times from {@code from}, one statement each; returns how many landed on each origin. */
    private Map<String, Integer> borrow(DataSource from, int n) throws SQLException {
        Map<String, Integer> landed = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            try (Connection c = from.getConnection(); Statement st = c.createStatement()) {
                st.executeQuery("SELECT 1").close();
                landed.merge(lastOrigin.get(), 1, Integer::sum);
            }
        }
        return landed;
    }

    /** Reads until one lands on {@code origin}, for 30 s at most. */
    private void awaitReadOn(SlotPoolDataSource ds, String origin) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!borrow(ds.forReads(), 1).containsKey(origin)) {
            assertThat(System.nanoTime() - deadline).as("no read on %s; events %s", origin, events).isNegative();
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    private void awaitEvent(String what, Predicate<String> event) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (events.stream().noneMatch(event)) {
            assertThat(System.nanoTime() - deadline).as("no event: %s; events %s", what, events).isNegative();
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    @Test
    void readsLandOnTheStandbyAndWritesNeverDoEvenWhileWritersWait() throws Exception {
        try (SlotPoolDataSource ds = pool(6)) {
            await("the standby kept for reads, with connections", ds, s -> s.origin("standby").orElseThrow().role()
                    == ServerRole.STANDBY && s.origin("standby").orElseThrow().total() > 0);
            assertThat(origin(ds, "standby").state()).as("kept for reads, not DOWN").isEqualTo(OriginState.UP);
            assertThat(borrow(ds, 200)).containsOnlyKeys("primary");
            assertThat(borrow(ds.forReads(), 200)).containsOnlyKeys("standby");
            try (Connection read = ds.forReads().getConnection()) {
                assertThat(read.isReadOnly()).as("a read borrow is read-only for its holder").isTrue();
            }
            try (Connection write = ds.getConnection()) {
                assertThat(write.isReadOnly()).as("reset at return; a write borrow is not read-only").isFalse();
            }

            // More writers than the primary's share: they wait, and the standby's returns are never handed to them.
            Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();
            Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
            ExecutorService threads = Executors.newFixedThreadPool(12);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 12; t++) {
                boolean reader = t % 3 == 0;
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 300; i++) {
                        try (Connection c = reader ? ds.forReads().getConnection() : ds.getConnection();
                             Statement st = c.createStatement()) {
                            st.executeQuery("SELECT 1").close();
                            (reader ? reads : writes).computeIfAbsent(lastOrigin.get(), k -> new AtomicInteger())
                                    .incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
            threads.shutdown();
            assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            assertThat(writes).containsOnlyKeys("primary");
            assertThat(writes.get("primary").get()).isEqualTo(8 * 300);
            assertThat(reads.values().stream().mapToInt(AtomicInteger::get).sum()).isEqualTo(4 * 300);
            assertThat(reads).containsKey("standby");
        }
    }

    @Test
    void aStandbyBeyondTheLagBoundTakesNoReadsUntilItCatchesUp() throws Exception {
        try (SlotPoolDataSource ds = pool(8)) {
            await("the standby has connections", ds, s -> s.origin("standby").orElseThrow().total() > 0);
            awaitReadOn(ds, "standby");
            standby.answer("pg_is_in_recovery", pg(true, 0, 6_000));
            awaitEvent("beyond the bound", e -> e.equals("standby takes no reads: replica lag 6000 ms (bound 5000 ms)"));
            await("the snapshot says why", ds, s -> "takes no reads: replica lag 6000 ms (bound 5000 ms)"
                    .equals(s.origin("standby").orElseThrow().reads()));
            assertThat(origin(ds, "primary").reads()).as("not a standby kept for reads").isNull();
            assertThat(borrow(ds.forReads(), 200)).as("reads go to the primary").containsOnlyKeys("primary");
            assertThat(origin(ds, "standby").state()).isEqualTo(OriginState.UP);
            assertThat(borrow(ds, 200)).containsOnlyKeys("primary");

            standby.answer("pg_is_in_recovery", pg(true, 0, 0));
            awaitEvent("caught up", e -> e.equals("standby takes reads: replica lag 0 ms (bound 5000 ms)"));
            await("the snapshot says so", ds, s -> "takes reads: replica lag 0 ms (bound 5000 ms)"
                    .equals(s.origin("standby").orElseThrow().reads()));
            assertThat(borrow(ds.forReads(), 200)).containsOnlyKeys("standby");
        }
    }

    @Test
    void aStandbyThatStopsAnsweringTakesNoReadsAndReadsGoToThePrimary() throws Exception {
        try (SlotPoolDataSource ds = pool(8)) {
            await("the standby has connections", ds, s -> s.origin("standby").orElseThrow().total() > 0);
            awaitReadOn(ds, "standby");
            standby.down(true).killLiveConnections();
            awaitEvent("the watch lost it", e -> e.equals("standby takes no reads: its role could not be read"));
            await("the snapshot says why", ds, s -> "takes no reads: its role could not be read"
                    .equals(s.origin("standby").orElseThrow().reads()));
            assertThat(borrow(ds.forReads(), 200)).containsOnlyKeys("primary");

            standby.down(false);
            awaitEvent("read again", e -> e.startsWith("standby takes reads"));
            await("the standby has connections again", ds, s -> s.origin("standby").orElseThrow().state()
                    == OriginState.UP && s.origin("standby").orElseThrow().total() > 0);
            awaitReadOn(ds, "standby");
        }
    }

    @Test
    void aPromotedStandbyTakesWritesAndTheOldPrimaryIsOutranked() throws Exception {
        try (SlotPoolDataSource ds = pool(8)) {
            await("the standby has connections", ds, s -> s.origin("standby").orElseThrow().total() > 0);
            standby.answer("pg_is_in_recovery", pg(false, 2, -1));
            awaitEvent("promoted", e -> e.startsWith("standby takes writes again: role: primary on timeline 2"));
            await("the old primary out", ds, s -> s.origin("primary").orElseThrow().state() == OriginState.DOWN);
            assertThat(borrow(ds, 200)).containsOnlyKeys("standby");
            assertThat(borrow(ds.forReads(), 200)).as("no standby left: reads on the new primary")
                    .containsOnlyKeys("standby");
        }
    }
}
