package dev.slotpool.pool;

import dev.slotpool.origins.Origin;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No connect attempt's thread outlives {@code close()} (docs/architecture.md, "Closing"): an attempt leaves its
 * origin's list of running attempts when its work ends, before its thread does, and close() still waits for that
 * thread. The thread factory's threads take {@link #LINGER_MILLIS} to end after a connect's work, as a factory's
 * wrapper or thread-local clean-up may; close() is called in that window, with the connect done and unlisted, and
 * waits for it within {@code shutdownTimeout}.
 */
class ConnectThreadAtCloseTest {

    private static final long LINGER_MILLIS = 4_000;

    /** Connect threads stay alive {@link #LINGER_MILLIS} after their work, interrupts or not. */
    private static final ThreadFactory LINGERING = r -> new Thread(() -> {
        r.run();
        if (Thread.currentThread().getName().contains("-connect-")) {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LINGER_MILLIS);
            for (long left = LINGER_MILLIS; left > 0; left = end - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
        }
    });

    private static List<String> connectThreads(String poolName) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("slotpool-" + poolName + "-connect-")).toList();
    }

    @Test
    void aConnectThreadStillEndingAtCloseHasEndedWhenCloseReturns() {
        StubDatabase db = StubDatabase.reset("connect-at-close");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("connect-at-close").minSize(1).maxSize(1)
                .shutdownTimeout(Duration.ofSeconds(10)).threadFactory(LINGERING).config());
        Origin o = pool.origins.find("default");
        Pools.await(pool, s -> s.available() == 1 && o.health.attempts().isEmpty(), "the connect done and unlisted");
        assertThat(connectThreads("connect-at-close")).as("the connect's thread, still ending").isNotEmpty();

        pool.close();

        assertThat(connectThreads("connect-at-close")).as("connect threads alive after close()").isEmpty();
        assertThat(db.live()).isZero();
    }
}
