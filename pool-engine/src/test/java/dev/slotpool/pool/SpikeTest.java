package dev.slotpool.pool;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The spike (docs/benchmarks.md, "Spike demand"): connections take 150 ms to open, queries 2 ms; the pool idles at
 * 5 (max 50) when 50 requests arrive at once. Returns serve the burst long before a new connection could open, so
 * the creator elides: HikariCP ends with 5–6 connections, DBCP2/Vibur/Tomcat with 40–45. We assert the count, not a
 * time.
 *
 * <p>That premise is the machine's, not the pool's: the creator elides only while the waiters' predicted drain and
 * their backlog stay under a creation time (docs/architecture.md, "Creation"). On a 2-core machine busy with a
 * build, the 50 requests can take longer than a connection takes to open, and then creating is the right call
 * (the full build on Temurin 25 once saw 2 created). A burst that outlasted a creation time is therefore run again
 * on a new pool, until one did not; the count is asserted on that one.
 */
class SpikeTest {

    private static final Duration CONNECT = Duration.ofMillis(150);
    private static final int ATTEMPTS = 5;

    @Test
    void burstOverIdlePoolCreatesAtMostOneConnection() throws Exception {
        boolean served = false;
        for (int attempt = 0; attempt < ATTEMPTS && !served; attempt++) {
            served = burst();
        }
        assertThat(served).as("a burst served within a creation time in %d attempts", ATTEMPTS).isTrue();
    }

    /** One burst on a new pool; false if it outlasted a creation time (its count is then not asserted). */
    private static boolean burst() throws Exception {
        StubDatabase db = StubDatabase.reset("spike").connectDelay(CONNECT).queryDelay(Duration.ofMillis(2));
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(5).maxSize(50)
                .borrowTimeout(Duration.ofSeconds(30)).config());
        try {
            Pools.await(pool, s -> s.available() == 5, "5 idle connections");
            long openedBefore = db.opened();

            CountDownLatch go = new CountDownLatch(1);
            AtomicLong failures = new AtomicLong();
            List<Thread> requests = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                Thread t = new Thread(() -> {
                    try {
                        go.await();
                        try (Connection c = pool.borrow(); Statement st = c.createStatement()) {
                            st.execute("SELECT 1");
                        }
                    } catch (Exception e) {
                        failures.incrementAndGet();
                    }
                });
                t.start();
                requests.add(t);
            }
            long start = System.nanoTime();
            go.countDown();
            for (Thread t : requests) {
                t.join(Duration.ofSeconds(30).toMillis());
                assertThat(t.isAlive()).isFalse();
            }
            long burstNanos = System.nanoTime() - start;
            // Let any creation the burst triggered finish, so it is counted.
            var end = Pools.await(pool, s -> s.creating() == 0, "no creation in flight");

            assertThat(failures.get()).isZero();
            long created = db.opened() - openedBefore;
            System.out.printf("spike: 50 requests over 5 idle connections in %d ms created %d connection(s); "
                    + "%d live at the end%n", burstNanos / 1_000_000, created, end.total());
            if (burstNanos >= CONNECT.toNanos()) {
                return false;
            }
            assertThat(created).as("connections created by the spike").isLessThanOrEqualTo(1);
            assertThat(end.total()).isLessThanOrEqualTo(6);
            return true;
        } finally {
            pool.close();
        }
    }
}
