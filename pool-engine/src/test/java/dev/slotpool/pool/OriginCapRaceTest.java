package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.origins.Origin;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * S3 per origin: live + being created never exceeds an origin's maxConnections, even when many creator threads
 * plan at once. Found by SoakTest (one sample over origin c's cap in a 600 s run).
 */
class OriginCapRaceTest {

    @Test
    void manyCreatorsNeverClaimMoreThanAnOriginsCap() throws Exception {
        StubDatabase db = StubDatabase.reset("cap-race");
        ConnectionPool pool = new ConnectionPool(SlotPoolDataSource.builder().name("cap-race")
                .origin(OriginConfig.named("a").url(db.url()).maxConnections(1))
                .minSize(0).maxSize(64).creatorThreads(64)
                .housekeepingPeriod(Duration.ofMinutes(10)).keepaliveInterval(Duration.ZERO)
                .validateAfterIdle(Duration.ofHours(1)).borrowTimeout(Duration.ofSeconds(10))
                // Every borrow breaks its connection on purpose: that is load for the creators, not a dead origin.
                .downAfterFailures(0).config());
        Origin a = pool.origins.find("a");
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong overCap = new AtomicLong();
        Thread sampler = new Thread(() -> {
            while (running.get()) {
                if (a.occupied.get() > 1) {
                    overCap.incrementAndGet();
                }
            }
        });
        sampler.start();
        try {
            for (int trial = 0; trial < 3000 && overCap.get() == 0 && db.maxOpen() <= 1; trial++) {
                Connection c = pool.borrow();
                db.failNextQueries(1, "08006");
                try (Statement st = c.createStatement()) {
                    st.execute("SELECT 1");
                } catch (SQLException expected) {
                    // the connection is evicted at return, so the next borrow needs a new one
                }
                c.close();
            }
        } finally {
            running.set(false);
            sampler.join();
            pool.close();
        }
        System.out.printf("cap race: samples over the cap %d, most open at once %d (cap 1)%n", overCap.get(), db.maxOpen());
        assertThat(overCap.get()).as("samples of live + creating over the origin's cap").isZero();
        assertThat(db.maxOpen()).as("physical connections open at once (cap 1)").isLessThanOrEqualTo(1);
    }
}
