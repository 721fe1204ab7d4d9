package dev.slotpool.pool;

import dev.slotpool.OriginState;
import dev.slotpool.SlotState;
import dev.slotpool.origins.Origin;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A thread that cannot start ({@code OutOfMemoryError: unable to create native thread}, a container's pids limit)
 * costs the pool nothing but that attempt: the creators live on, no RESERVED slot or claimed room is left behind,
 * the attempt is not listed, and the origin is tried again (docs/reliability.md, 22.6).
 */
class ThreadStartFailureTest {

    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
        StubDatabase.reset();
    }

    /** Threads whose start fails, as the JVM's does at the pids limit, while {@link #refuse} is set. */
    static final class RefusingThreads implements ThreadFactory {
        volatile String refuse;
        /** Names of the threads whose start failed. */
        final List<String> refused = new CopyOnWriteArrayList<>();

        @Override
        public Thread newThread(Runnable r) {
            return new Thread(r) {
                @Override
                public void start() {
                    String job = refuse;
                    if (job != null && getName().contains(job)) {
                        refused.add(getName());
                        throw new OutOfMemoryError("unable to create native thread: possibly out of memory or "
                                + "process/resource limits reached");
                    }
                    super.start();
                }
            };
        }

        boolean refusedAny(String job) {
            return refused.stream().anyMatch(n -> n.contains(job));
        }
    }

    @Test
    void aConnectThreadThatCannotStartLeavesTheCreatorsAliveAndTheOriginTriedAgain() throws Exception {
        StubDatabase db = StubDatabase.reset("tsf-connect");
        RefusingThreads threads = new RefusingThreads();
        pool = new ConnectionPool(Pools.stub(db).name("tsf-connect").threadFactory(threads).minSize(0).maxSize(2)
                .creatorThreads(2).borrowTimeout(Duration.ofSeconds(10)).config());
        threads.refuse = "-connect-";
        ExecutorService borrower = Executors.newSingleThreadExecutor();
        try {
            Future<String> borrowed = borrower.submit(() -> {
                try (Connection c = pool.borrow()) {
                    return c.getMetaData().getURL();
                }
            });
            Pools.await(pool, s -> threads.refused.size() >= 2, "two connect threads refused");
            threads.refuse = null;
            assertThat(borrowed.get(15, TimeUnit.SECONDS)).as("the waiting borrow is served once threads start")
                    .isEqualTo(db.url());
        } finally {
            borrower.shutdownNow();
            assertThat(borrower.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(StubFaultsTest.poolThreads("tsf-connect")).filteredOn(t -> t.getName().contains("-creator-"))
                .as("creator threads alive").hasSize(2);
        Origin o = pool.origins.find("default");
        Pools.await(pool, s -> o.health.attempts().isEmpty() && s.creating() == 0, "no attempt listed");
        assertNothingLeaked(db);
    }

    @Test
    void aProbeThreadThatCannotStartLeavesTheOriginProbedAgain() {
        StubDatabase db = StubDatabase.reset("tsf-probe").down(true);
        RefusingThreads threads = new RefusingThreads();
        pool = new ConnectionPool(Pools.stub(db).name("tsf-probe").threadFactory(threads).minSize(1).maxSize(2)
                .downAfterFailures(1).creationBackoffMax(Duration.ofMillis(200)).config());
        Pools.await(pool, s -> s.origins().get(0).state() == OriginState.DOWN, "detected DOWN");
        threads.refuse = "-probe-";
        db.down(false);
        Pools.await(pool, s -> threads.refused.size() >= 2, "two probe threads refused");
        threads.refuse = null;
        Pools.await(pool, s -> s.origins().get(0).state() == OriginState.UP && s.available() == 1,
                "UP again after a probe that started, and refilled");
        assertThat(StubFaultsTest.poolThreads("tsf-probe")).filteredOn(t -> t.getName().contains("-creator-"))
                .as("creator threads alive").hasSize(2);
        assertThat(threads.refusedAny("-probe-")).isTrue();
        assertNothingLeaked(db);
    }

    @Test
    void aPoolWhoseOwnThreadCannotStartFailsAndLeavesNoThreadRunning() {
        StubDatabase db = StubDatabase.reset("tsf-build");
        RefusingThreads threads = new RefusingThreads();
        threads.refuse = "-housekeeper";
        assertThatThrownBy(() -> new ConnectionPool(Pools.stub(db).name("tsf-build").threadFactory(threads)
                .minSize(0).config())).isInstanceOf(OutOfMemoryError.class);
        assertThat(threads.refused).hasSize(1);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!StubFaultsTest.poolThreads("tsf-build").isEmpty() && System.nanoTime() - deadline < 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
        assertThat(StubFaultsTest.poolThreads("tsf-build")).as("threads the failed start left running").isEmpty();
    }

    /** Room claimed only for live connections, no slot left RESERVED, the driver's count matches (S2, S3). */
    private void assertNothingLeaked(StubDatabase db) {
        Pools.closesDone(pool);
        var s = Pools.await(pool, p -> p.creating() == 0, "no creation under way");
        assertThat(pool.capacity.occupied()).as("room claimed").isEqualTo(s.total());
        assertThat(db.live()).as("live in the driver").isEqualTo(s.total());
        assertThat(s.origins().get(0).slots()).noneMatch(slot -> slot.state() == SlotState.RESERVED);
        assertThat(pool.table.count(SlotState.RESERVED)).isZero();
    }
}
