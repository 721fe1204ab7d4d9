package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolEvent;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * leakDetectionThreshold only warns: once per borrow, with the holder's thread and borrow stack, before (and
 * without) any reclaim. Driven by a manual clock and direct housekeeping passes.
 */
class LeakDetectionThresholdTest {

    private final ManualTicker clock = new ManualTicker();
    private final RecordedEvents recorder = new RecordedEvents();
    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
    }

    private List<PoolEvent> leaks() {
        return recorder.events.stream().filter(e -> e.type() == PoolEvent.Type.LEAK).toList();
    }

    @Test
    void aConnectionHeldPastTheThresholdIsReportedOncePerBorrowAndLeftWithItsHolder() throws Exception {
        StubDatabase db = StubDatabase.reset("leak-threshold");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).minSize(1).maxSize(1)
                .leakDetectionThreshold(Duration.ofSeconds(30)).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");

        Connection held = pool.borrow();
        clock.advance(Duration.ofSeconds(29));
        pool.housekeeper.pass();
        assertThat(leaks()).as("below the threshold").isEmpty();

        clock.advance(Duration.ofSeconds(2));
        pool.housekeeper.pass();
        clock.advance(Duration.ofMinutes(5));
        pool.housekeeper.pass();
        assertThat(leaks()).as("reported once for this borrow").singleElement().satisfies(e -> {
            assertThat(e.reason()).as("not taken back").isNull();
            assertThat(e.detail()).contains("held by thread '" + Thread.currentThread().getName() + "'")
                    .contains("leakDetectionThreshold (30000 ms)")
                    .contains("aConnectionHeldPastTheThresholdIsReportedOncePerBorrowAndLeftWithItsHolder");
        });
        assertThat(held.isValid(1)).as("the holder keeps its connection").isTrue();
        held.close();
        assertThat(db.aborted()).isZero();

        Connection again = pool.borrow();
        clock.advance(Duration.ofSeconds(31));
        pool.housekeeper.pass();
        assertThat(leaks()).as("the next borrow is reported on its own").hasSize(2);
        again.close();
    }

    @Test
    void theWarningComesBeforeTheAbandonedReclaim() throws Exception {
        StubDatabase db = StubDatabase.reset("leak-before-reclaim");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).minSize(1).maxSize(1)
                .leakDetectionThreshold(Duration.ofSeconds(30)).abandonedTimeout(Duration.ofMinutes(1)).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");

        Connection held = pool.borrow();
        clock.advance(Duration.ofMinutes(2));
        pool.housekeeper.pass();
        assertThat(leaks()).extracting(PoolEvent::reason).containsExactly(null, CloseReason.ABANDONED);
        held.close();
    }

    @Test
    void offByDefaultAndNoBorrowStackIsRecorded() throws Exception {
        StubDatabase db = StubDatabase.reset("leak-off");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).minSize(1).maxSize(1).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");

        try (Connection held = pool.borrow()) {
            clock.advance(Duration.ofHours(1));
            pool.housekeeper.pass();
            assertThat(pool.snapshot().origins().get(0).slots()).allSatisfy(s -> assertThat(s.borrowStack()).isNull());
        }
        assertThat(leaks()).isEmpty();
    }
}
