package dev.slotpool.pool;

import dev.slotpool.PoolSnapshot;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hundreds of threads borrowing with random hold times, exceptions thrown while holding, fatal SQL errors
 * (evictions) and double closes. Checks S1 (never two holders of one physical connection), S2 (opened − closed
 * == live, from the stub driver's own counts) and S3 (live + being created ≤ maxSize) during and after the run.
 */
class StressTest {

    private static final int THREADS = 300;
    private static final int BORROWS_PER_THREAD = 200;
    private static final int MAX = 16;

    @Test
    void invariantsHoldUnderContention() throws Exception {
        StubDatabase db = StubDatabase.reset("stress");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(4).maxSize(MAX)
                .borrowTimeout(Duration.ofSeconds(30)).config());
        Map<StubConnection, Thread> holders = new ConcurrentHashMap<>();
        AtomicLong doubleHolders = new AtomicLong();
        AtomicLong borrows = new AtomicLong();
        AtomicLong userExceptions = new AtomicLong();
        AtomicLong evictions = new AtomicLong();
        AtomicLong doubleCloses = new AtomicLong();
        AtomicLong timeouts = new AtomicLong();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        AtomicLong s3Violations = new AtomicLong();
        AtomicLong maxSeen = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);

        Thread monitor = new Thread(() -> {
            while (running.get()) {
                // The pool's own count of live + being created (a snapshot is a racy pass and may count a
                // closing connection and its replacement together, so it is not used for this check).
                long occupied = pool.capacity.occupied();
                maxSeen.accumulateAndGet(occupied, Math::max);
                if (occupied > MAX) {
                    s3Violations.incrementAndGet();
                }
                LockSupport.parkNanos(200_000);
            }
        }, "s3-monitor");
        monitor.start();

        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            workers.add(new Thread(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                for (int i = 0; i < BORROWS_PER_THREAD; i++) {
                    try {
                        Connection c = pool.borrow();
                        borrows.incrementAndGet();
                        StubConnection physical = c.unwrap(StubConnection.class);
                        if (holders.putIfAbsent(physical, Thread.currentThread()) != null) {
                            doubleHolders.incrementAndGet();
                        }
                        try {
                            int dice = rnd.nextInt(100);
                            if (dice < 2) {
                                db.failNextQueries(1, "08006");
                                try (Statement st = c.createStatement()) {
                                    st.execute("SELECT 1");
                                } catch (SQLException expected) {
                                    evictions.incrementAndGet();
                                }
                            } else if (dice < 7) {
                                userExceptions.incrementAndGet();
                                throw new IllegalStateException("user code failed while holding");
                            }
                            int hold = rnd.nextInt(0, 200);
                            if (hold > 0) {
                                LockSupport.parkNanos(hold * 1000L);
                            }
                        } catch (IllegalStateException expected) {
                            // the connection is still closed below, as try-with-resources would
                        } finally {
                            holders.remove(physical, Thread.currentThread());
                            c.close();
                            if (rnd.nextInt(100) < 5) {
                                c.close();
                                doubleCloses.incrementAndGet();
                            }
                        }
                    } catch (SQLTransientConnectionException e) {
                        timeouts.incrementAndGet();
                    } catch (Throwable e) {
                        unexpected.compareAndSet(null, e);
                    }
                }
            }, "stress-" + t));
        }
        workers.forEach(Thread::start);
        for (Thread w : workers) {
            w.join(Duration.ofMinutes(3).toMillis());
            assertThat(w.isAlive()).as("worker %s finished", w.getName()).isFalse();
        }
        running.set(false);
        monitor.join();

        assertThat(unexpected.get()).isNull();
        assertThat(doubleHolders.get()).as("S1: borrows that found another holder").isZero();
        assertThat(s3Violations.get()).as("S3: samples of live + creating over maxSize").isZero();
        assertThat(db.maxOpen()).as("S3, by the driver: most physical connections open at once").isLessThanOrEqualTo(MAX);
        assertThat(timeouts.get()).isZero();
        assertThat(borrows.get()).isEqualTo((long) THREADS * BORROWS_PER_THREAD);

        PoolSnapshot end = Pools.await(pool, s -> s.borrowed() == 0 && s.creating() == 0 && s.closing() == 0, "quiet pool");
        long ended = db.closed() + db.aborted();
        assertThat(db.opened() - ended).as("S2 while open: opened - closed == live slots").isEqualTo(end.total());
        assertThat(end.waiting()).isZero();

        pool.close();
        assertThat(db.live()).as("S2 after close: no physical connection left open").isZero();
        assertThat(db.opened()).isEqualTo(db.closed() + db.aborted());
        System.out.printf("stress: %d borrows by %d threads, %d evictions, %d user exceptions, %d double closes; "
                        + "S1 violations %d, S3 violations %d (max live+creating seen %d, max physically open %d, of %d), "
                        + "timeouts %d; opened %d, closed %d, aborted %d, live after close %d%n",
                borrows.get(), THREADS, evictions.get(), userExceptions.get(), doubleCloses.get(), doubleHolders.get(),
                s3Violations.get(), maxSeen.get(), db.maxOpen(), MAX, timeouts.get(), db.opened(), db.closed(),
                db.aborted(), db.live());
    }
}
