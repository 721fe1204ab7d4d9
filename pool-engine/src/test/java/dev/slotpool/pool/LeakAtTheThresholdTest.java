package dev.slotpool.pool;

import dev.slotpool.PoolEvent;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A leak warning comes at the threshold, not up to a housekeeping period after it (docs/architecture.md,
 * "Housekeeping"): the housekeeper's own thread looks at the borrowed connections at most a tenth of the threshold
 * apart. The pool's clock is manual and the period ten minutes, so only those looks can report; the wait for the
 * report is a bound for a broken pool.
 */
class LeakAtTheThresholdTest {

    private final ManualTicker clock = new ManualTicker();
    private final RecordedEvents recorder = new RecordedEvents();
    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
        StubDatabase.reset();
    }

    private List<PoolEvent> leaks() {
        return recorder.events.stream().filter(e -> e.type() == PoolEvent.Type.LEAK).toList();
    }

    private void awaitLeaks(int n) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (leaks().size() < n) {
            assertThat(System.nanoTime() - deadline).as(n + " leak warning(s) from the housekeeper's thread")
                    .isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    @Test
    void aBorrowHeldPastTheThresholdIsReportedAtItWithoutAHousekeepingPass() throws Exception {
        StubDatabase db = StubDatabase.reset("leak-on-time");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).minSize(1).maxSize(1)
                .leakDetectionThreshold(Duration.ofSeconds(2)).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");

        Connection held = pool.borrow();
        clock.advance(Duration.ofMillis(1_900));
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300)); // the housekeeper looks, finds nothing due
        assertThat(leaks()).as("below the threshold").isEmpty();

        clock.advance(Duration.ofMillis(100)); // exactly at the threshold
        awaitLeaks(1);
        assertThat(leaks().get(0).detail()).as("reported at the threshold: the clock stopped there")
                .contains("for 2000 ms, longer than leakDetectionThreshold (2000 ms)");
        held.close();
    }
}
