package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.Sizing;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A borrower short of a connection wakes the creators only if one could be opened: a pool whose origins are all at
 * their caps (an origin's maxConnections, or what adaptive sizing leaves it) below maxSize must not wake them on
 * every queued borrow, as a pool at maxSize does not. The wakes are counted (each park of a creator thread that
 * returned, from the JVM's thread statistics), not timed.
 */
class ShortageAtTheCapsTest {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** The times the pool's creator threads have parked so far. */
    private static long creatorParks(String pool) {
        long parks = 0;
        for (ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("slotpool-" + pool + "-creator")) {
                parks += t.getWaitedCount();
            }
        }
        return parks;
    }

    /** 8 threads borrow and return 250 times each, holding 1 ms, on 2 connections: nearly every borrow queues. */
    private static long parksUnderQueuedBorrows(SlotPoolBuilder builder, String name,
                                                Consumer<ConnectionPool> setUp) throws Exception {
        ConnectionPool pool = new ConnectionPool(builder.name(name).minSize(2).maxSize(10)
                .borrowTimeout(Duration.ofSeconds(30)).config());
        try {
            setUp.accept(pool);
            Pools.await(pool, s -> s.total() == 2 && s.creating() == 0, "2 connections open");
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<Thread> threads = new ArrayList<>();
            long before = creatorParks(name);
            for (int i = 0; i < 8; i++) {
                Thread t = new Thread(() -> {
                    for (int n = 0; n < 250; n++) {
                        try (Connection c = pool.borrow()) {
                            LockSupport.parkNanos(1_000_000);
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    }
                });
                t.start();
                threads.add(t);
            }
            for (Thread t : threads) {
                t.join(60_000);
            }
            long parks = creatorParks(name) - before;
            assertThat(failures).isEmpty();
            assertThat(pool.snapshot().total()).isEqualTo(2);
            return parks;
        } finally {
            pool.close();
        }
    }

    @Test
    void originsAtTheirCapsBelowMaxSizeDoNotWakeTheCreatorsOnEveryQueuedBorrow() throws Exception {
        StubDatabase db = StubDatabase.reset("caps-origin");
        long parks = parksUnderQueuedBorrows(Pools.stub(db).url(null)
                .origin(OriginConfig.named("a").url(db.url()).maxConnections(2)), "caps-origin", p -> { });
        // Two creator threads and about 2,000 queued borrows: woken on each, they parked thousands of times; left
        // alone, they park on their period (the housekeeping period, 1 s) and for the warm-up's openings.
        assertThat(parks).as("creator parks during 2,000 borrows, most of them queued").isLessThan(100);
    }

    @Test
    void anAdaptiveLimitHoldingItsOriginDoesNotWakeTheCreatorsOnEveryQueuedBorrow() throws Exception {
        StubDatabase db = StubDatabase.reset("caps-adaptive");
        long parks = parksUnderQueuedBorrows(Pools.stub(db).sizing(Sizing.ADAPTIVE), "caps-adaptive",
                p -> p.pinLimit("default", 2));
        assertThat(parks).as("creator parks during 2,000 borrows at a limit of 2").isLessThan(100);
    }
}
