package dev.slotpool.jdbc;

import dev.slotpool.OriginSnapshot;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.SqlExceptionOverride;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The statement cache in a running pool over the stub driver: reuse, isolation between holders, closes, counts. */
class StatementCachePoolTest {

    private static SlotPoolBuilder pool(StubDatabase db, int connections, int cacheSize) {
        return SlotPoolDataSource.builder().name("statements").url(db.url())
                .minSize(connections).maxSize(connections).statementCacheSize(cacheSize)
                .borrowTimeout(Duration.ofSeconds(30))
                .housekeepingPeriod(Duration.ofMinutes(10)).keepaliveInterval(Duration.ZERO)
                .validateAfterIdle(Duration.ofHours(1));
    }

    /** The driver's statement behind a proxy from the cache. */
    private static PreparedStatement driverStatement(PreparedStatement proxy) {
        CachedStatement cached = ((AbstractProxyStatement<?>) proxy).cached();
        assertThat(cached).as("a statement from the cache").isNotNull();
        return cached.statement;
    }

    private static OriginSnapshot origin(SlotPoolDataSource ds) {
        return ds.snapshot().origins().get(0);
    }

    @Test
    void reuseNeverCrossesHolders() throws Exception {
        int threads = 8;
        int iterations = 400;
        String[] sqls = {"select a", "select b", "select c"};
        Map<Statement, Long> holders = new ConcurrentHashMap<>();
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (SlotPoolDataSource ds = pool(StubDatabase.reset("statement-cache-holders"), 2, 4).build()) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long mark = t + 1;
                Thread worker = new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < iterations; i++) {
                            try (Connection c = ds.getConnection()) {
                                String sql = sqls[(int) ((i + mark) % sqls.length)];
                                PreparedStatement first = c.prepareStatement(sql);
                                PreparedStatement second = c.prepareStatement(sql);
                                for (PreparedStatement ps : List.of(first, second)) {
                                    Statement driver = driverStatement(ps);
                                    Long other = holders.putIfAbsent(driver, mark);
                                    assertThat(other).as("a driver statement already held by another holder")
                                            .isNull();
                                    assertThat(ps.getFetchSize()).as("a reused statement is as fresh").isZero();
                                    ps.setFetchSize((int) mark);
                                }
                                assertThat(driverStatement(first)).isNotSameAs(driverStatement(second));
                                Thread.yield();
                                for (PreparedStatement ps : List.of(first, second)) {
                                    try (ResultSet rs = ps.executeQuery()) {
                                        rs.next();
                                    }
                                    assertThat(ps.getFetchSize()).as("another holder's mark").isEqualTo((int) mark);
                                    assertThat(holders.remove(driverStatement(ps), mark)).isTrue();
                                }
                                // Unmarked above: once closed, or returned open with the connection, the
                                // next holder may have it.
                                first.close();
                                if (i % 2 == 0) {
                                    second.close();
                                }
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "statement-holder-" + mark);
                workers.add(worker);
                worker.start();
            }
            start.countDown();
            for (Thread w : workers) {
                w.join(TimeUnit.SECONDS.toMillis(120));
                assertThat(w.isAlive()).as(w.getName() + " finished").isFalse();
            }
            assertThat(failures).isEmpty();
            OriginSnapshot o = origin(ds);
            assertThat(o.statementCacheHits()).as("statements were reused").isPositive();
            assertThat(o.statementCacheHits() + o.statementCacheMisses()).isEqualTo(2L * threads * iterations);
        }
    }

    @Test
    void aStatementIsNeverHandedOutAfterItsConnectionWasEvicted() throws SQLException {
        StubDatabase db = StubDatabase.reset("statement-cache-evicted");
        try (SlotPoolDataSource ds = pool(db, 1, 4).build()) {
            PreparedStatement cachedBefore;
            try (Connection c = ds.getConnection()) {
                PreparedStatement ps = c.prepareStatement("q");
                cachedBefore = driverStatement(ps);
                ps.close();
                try (PreparedStatement again = c.prepareStatement("q")) {
                    assertThat(driverStatement(again)).as("reused within the borrow").isSameAs(cachedBefore);
                }
                db.failNextQueries(1, "08006");
                try (Statement plain = c.createStatement()) {
                    assertThatThrownBy(() -> plain.execute("boom")).isInstanceOf(SQLException.class);
                }
            }
            awaitOpened(ds, db, 2);
            try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("q")) {
                assertThat(driverStatement(ps)).isNotSameAs(cachedBefore);
            }
            assertThat(cachedBefore.isClosed()).as("closed with its connection").isTrue();
        }
    }

    @Test
    void aStatementIsNeverHandedOutAfterAnOperatorClosedItsConnection() throws SQLException {
        StubDatabase db = StubDatabase.reset("statement-cache-marked-down");
        try (SlotPoolDataSource ds = pool(db, 1, 4).build()) {
            PreparedStatement cachedBefore;
            try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("q")) {
                cachedBefore = driverStatement(ps);
            }
            ds.markDown("default");
            ds.markUp("default");
            awaitOpened(ds, db, 2);
            try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("q")) {
                assertThat(driverStatement(ps)).isNotSameAs(cachedBefore);
            }
            assertThat(cachedBefore.isClosed()).isTrue();
        }
    }

    @Test
    void aStatementThatFailedWithAConnectionLevelErrorIsClosedNotCached() throws SQLException {
        StubDatabase db = StubDatabase.reset("statement-cache-fatal");
        // The override keeps the connection, so only the statement's own rule decides.
        SqlExceptionOverride keep = e -> SqlExceptionOverride.Decision.DO_NOT_EVICT;
        try (SlotPoolDataSource ds = pool(db, 1, 4).exceptionOverride(keep).build();
             Connection c = ds.getConnection()) {
            PreparedStatement failing = c.prepareStatement("q");
            PreparedStatement driver = driverStatement(failing);
            db.failNextQueries(1, "57P01");
            assertThatThrownBy(failing::executeQuery).isInstanceOf(SQLException.class);
            failing.close();
            assertThat(driver.isClosed()).isTrue();
            try (PreparedStatement next = c.prepareStatement("q")) {
                assertThat(driverStatement(next)).isNotSameAs(driver);
                assertThat(next.executeQuery().next()).isTrue();
            }
            assertThat(origin(ds).statementCacheHits()).isZero();
        }
    }

    @Test
    void countsAreSummedFromLiveConnectionsAndKeptWhenTheyClose() throws SQLException {
        StubDatabase db = StubDatabase.reset("statement-cache-counts");
        try (SlotPoolDataSource ds = pool(db, 1, 1).build()) {
            try (Connection c = ds.getConnection()) {
                c.prepareStatement("a").close(); // miss, put 1
                c.prepareStatement("a").close(); // hit, put 2
                for (int put = 3; put <= 7; put++) {
                    // Misses; at put 7, "a" (back at put 2) has gone unused for 5 > 4 × 1 puts and is replaced.
                    c.prepareStatement("b" + put).close();
                }
            }
            OriginSnapshot live = origin(ds);
            assertThat(live.statementCacheHits()).isEqualTo(1);
            assertThat(live.statementCacheMisses()).isEqualTo(6);
            assertThat(live.statementCacheEvictions()).isEqualTo(1);

            ds.markDown("default");
            ds.markUp("default");
            awaitOpened(ds, db, 2);
            OriginSnapshot after = origin(ds);
            assertThat(after.statementCacheHits()).isEqualTo(1);
            assertThat(after.statementCacheMisses()).isEqualTo(6);
            assertThat(after.statementCacheEvictions()).isEqualTo(1);
        }
    }

    @Test
    void withTheCacheOffStatementsAreClosedAndCountNothing() throws SQLException {
        StubDatabase db = StubDatabase.reset("statement-cache-off");
        try (SlotPoolDataSource ds = pool(db, 1, 0).build(); Connection c = ds.getConnection()) {
            PreparedStatement ps = c.prepareStatement("q");
            assertThat(((AbstractProxyStatement<?>) ps).cached()).isNull();
            ps.close();
            assertThat(origin(ds).statementCacheMisses()).isZero();
        }
    }

    /** Waits until the pool has opened {@code opened} connections in all and has one available. */
    private static void awaitOpened(SlotPoolDataSource ds, StubDatabase db, long opened) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (db.opened() < opened || ds.snapshot().available() < 1) {
            assertThat(System.nanoTime() - deadline).as("connection %d opened", opened).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
