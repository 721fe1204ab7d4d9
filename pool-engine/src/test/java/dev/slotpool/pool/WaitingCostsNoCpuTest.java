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
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
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

    /**
     * Ten virtual threads over 6 connections never have to wait, so none parks in the pool: a thread whose turn
     * is over must still give its carrier to the others, those not started yet too, and share it with them
     * (on 2 carriers a Thread.yield() put the yielder straight back on its carrier: one thread made 4 to 8
     * times the median's borrows, and once only 2 of 10 had run after 15 s).
     */
    @Test
    void virtualThreadsThatNeverWaitLetTheOthersStart() throws Exception {
        Assumptions.assumeTrue(virtualThreadsAvailable(), "virtual threads need JDK 21+ (the Temurin 25 run)");
        StubDatabase db = StubDatabase.reset("vturns");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(6).maxSize(6).config());
        int threads = 10;
        AtomicLong[] borrows = new AtomicLong[threads];
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> all = new ArrayList<>();
        try {
            Pools.await(pool, s -> s.available() == 6, "6 idle");
            for (int i = 0; i < threads; i++) {
                AtomicLong mine = borrows[i] = new AtomicLong();
                all.add(start(true, () -> {
                    while (!stop.get()) {
                        try {
                            pool.borrow().close();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                        mine.incrementAndGet();
                    }
                }));
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (Arrays.stream(borrows).anyMatch(b -> b.get() == 0) && System.nanoTime() - deadline < 0) {
                Thread.sleep(10);
            }
            assertThat(Arrays.stream(borrows).filter(b -> b.get() > 0).count())
                    .as("virtual threads that borrowed within 20 s").isEqualTo(threads);
            long[] before = Arrays.stream(borrows).mapToLong(AtomicLong::get).toArray();
            Thread.sleep(1_000);
            long[] window = new long[threads];
            for (int i = 0; i < threads; i++) {
                window[i] = borrows[i].get() - before[i];
            }
            long[] sorted = window.clone();
            Arrays.sort(sorted);
            double median = (sorted[threads / 2 - 1] + sorted[threads / 2]) / 2.0;
            assertThat((double) sorted[threads - 1]).as("the most borrows of one thread in 1 s, against the median "
                    + median + " (all: " + Arrays.toString(window) + ")").isLessThanOrEqualTo(4 * median);
        } finally {
            stop.set(true);
            for (Thread t : all) {
                t.join(10_000);
            }
            pool.close();
        }
    }
}
