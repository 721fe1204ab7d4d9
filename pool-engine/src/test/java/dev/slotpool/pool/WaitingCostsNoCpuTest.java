package dev.slotpool.pool;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Waiting for a connection parks the thread: a thousand waiters behind one held connection cost almost no CPU,
 * and on virtual threads (Temurin 25 execution, see pom) parking unmounts them, so thousands of them make
 * progress over a couple of carrier threads. A pool that spins or pins its carriers fails these.
 */
class WaitingCostsNoCpuTest {

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static Thread start(boolean virtual, Runnable r) throws Exception {
        if (!virtual) {
            Thread t = new Thread(r);
            t.start();
            return t;
        }
        Method m = Thread.class.getMethod("startVirtualThread", Runnable.class);
        return (Thread) m.invoke(null, r);
    }

    private static boolean virtualThreadsAvailable() {
        try {
            Thread.class.getMethod("startVirtualThread", Runnable.class);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    @Test
    void parkedPlatformWaitersBurnNoCpu() throws Exception {
        waitersBurnNoCpu(false, 500);
    }

    @Test
    void parkedVirtualWaitersBurnNoCpu() throws Exception {
        Assumptions.assumeTrue(virtualThreadsAvailable(), "virtual threads need JDK 21+ (the Temurin 25 run)");
        waitersBurnNoCpu(true, 2_000);
    }

    private void waitersBurnNoCpu(boolean virtual, int waiters) throws Exception {
        StubDatabase db = StubDatabase.reset("nocpu-" + virtual);
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1)
                .borrowTimeout(Duration.ofMinutes(1)).config());
        try {
            Pools.await(pool, s -> s.available() == 1, "one idle");
            Connection held = pool.borrow();
            AtomicLong served = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < waiters; i++) {
                threads.add(start(virtual, () -> {
                    try (Connection c = pool.borrow()) {
                        served.incrementAndGet();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            Pools.await(pool, s -> s.waiting() == waiters, waiters + " parked waiters");
            long cpuBefore = processCpuNanos();
            LockSupport.parkNanos(Duration.ofSeconds(1).toNanos());
            long cpuWhileWaiting = processCpuNanos() - cpuBefore;
            held.close();
            for (Thread t : threads) {
                t.join(60_000);
                assertThat(t.isAlive()).isFalse();
            }
            System.out.printf("%d %s waiters: %.3f CPU s during 1 s of waiting; all %d served%n", waiters,
                    virtual ? "virtual" : "platform", cpuWhileWaiting / 1e9, served.get());
            // A spinning pool would burn close to 2 CPU s here (2 cores); JIT and GC noise stay far below.
            assertThat(cpuWhileWaiting).isLessThan(Duration.ofMillis(500).toNanos());
            assertThat(served.get()).isEqualTo(waiters);
            assertThat(pool.snapshot().waiting()).isZero();
        } finally {
            pool.close();
        }
    }

    @Test
    void tenThousandVirtualThreadsAllBorrowOverTwoCarriers() throws Exception {
        Assumptions.assumeTrue(virtualThreadsAvailable(), "virtual threads need JDK 21+ (the Temurin 25 run)");
        StubDatabase db = StubDatabase.reset("vthreads");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(6).maxSize(6)
                .borrowTimeout(Duration.ofMinutes(2)).config());
        try {
            Pools.await(pool, s -> s.available() == 6, "6 idle");
            int threads = 10_000;
            int borrowsEach = 3;
            AtomicLong timeouts = new AtomicLong();
            AtomicLong done = new AtomicLong();
            List<Thread> all = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                all.add(start(true, () -> {
                    for (int b = 0; b < borrowsEach; b++) {
                        try (Connection c = pool.borrow()) {
                            LockSupport.parkNanos(50_000); // holding: the virtual thread unmounts here too
                            done.incrementAndGet();
                        } catch (SQLTransientConnectionException e) {
                            timeouts.incrementAndGet();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }));
            }
            for (Thread t : all) {
                t.join(120_000);
                assertThat(t.isAlive()).isFalse();
            }
            assertThat(timeouts.get()).isZero();
            assertThat(done.get()).as("every virtual thread ran and borrowed").isEqualTo((long) threads * borrowsEach);
            assertThat(db.opened()).as("no connection beyond maxSize").isLessThanOrEqualTo(6 + db.closed() + db.aborted());
        } finally {
            pool.close();
        }
        assertThat(db.live()).isZero();
    }
}
