package dev.slotpool.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConcurrencyTest {

    private static final int THREADS = 8;
    private static final int CYCLES = 1000;

    @Test
    void concurrentOpenCloseKeepsExactCounts() throws Exception {
        StubDatabase db = StubDatabase.reset("concurrency-test");
        StubDataSource ds = new StubDataSource(db.url());
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                workers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < CYCLES; i++) {
                        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                            s.execute("SELECT 1");
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> worker : workers) {
                worker.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(db.connectAttempts()).isEqualTo(THREADS * CYCLES);
        assertThat(db.opened()).isEqualTo(THREADS * CYCLES);
        assertThat(db.closed()).isEqualTo(THREADS * CYCLES);
        assertThat(db.aborted()).isZero();
        assertThat(db.live()).isZero();
        assertThat(db.queries()).isEqualTo(THREADS * CYCLES);
    }
}
