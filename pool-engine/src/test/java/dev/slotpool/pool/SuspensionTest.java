package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Checkpoint and restore (docs/architecture.md): suspend closes idle connections at once and borrowed ones at
 * return or at the timeout, creates none, and borrowers fail clearly; resume refills to minSize.
 */
class SuspensionTest {

    @Test
    void suspendClosesEveryConnectionAndResumeRefills() throws Exception {
        StubDatabase db = StubDatabase.reset("suspend-basic");
        RecordedEvents events = new RecordedEvents();
        try (SlotPoolDataSource ds = Pools.stub(db).minSize(2).maxSize(4).borrowTimeout(Duration.ofMillis(300))
                .listener(events).build()) {
            await(() -> db.live() == 2, "two connections", db);
            Connection held = ds.getConnection();
            FutureTask<Boolean> suspended = new FutureTask<>(() -> ds.suspend(Duration.ofSeconds(30)));
            new Thread(suspended, "checkpoint").start();
            // The idle one is closed at once; the borrowed one stays with its holder.
            await(() -> ds.isSuspended() && db.live() == 1, "the idle connection closed", db);
            assertThat(held.isValid(1)).as("the held connection; events %s", events.events).isTrue();
            assertThatThrownBy(ds::getConnection).isInstanceOf(SQLTransientConnectionException.class)
                    .hasMessageContaining(Suspension.REASON);
            assertThat(suspended).isNotDone();
            assertThat(db.live()).as("nothing created while suspended").isEqualTo(1);

            held.close();
            assertThat(suspended.get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(db.live()).isZero();
            assertThat(ds.snapshot().total()).isZero();

            ds.resume();
            assertThat(ds.isSuspended()).isFalse();
            await(() -> db.live() == 2, "refilled to minSize", db);
            try (Connection c = ds.getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
        }
    }

    @Test
    void aConnectionStillBorrowedAtTheTimeoutIsAborted() throws Exception {
        StubDatabase db = StubDatabase.reset("suspend-abort");
        try (SlotPoolDataSource ds = Pools.stub(db).minSize(1).maxSize(2).housekeepingPeriod(Duration.ofMillis(100))
                .build()) {
            await(() -> db.live() == 1, "one connection", db);
            Connection held = ds.getConnection();
            assertThat(ds.suspend(Duration.ofMillis(200))).isTrue();
            assertThat(db.live()).isZero();
            assertThatThrownBy(() -> held.createStatement()).isInstanceOf(SQLException.class);
            held.close();
            ds.resume();
            await(() -> db.live() == 1, "refilled to minSize", db);
        }
    }

    @Test
    void anOriginAnOperatorMarkedDownStaysDownAfterResume() throws Exception {
        StubDatabase east = StubDatabase.reset("suspend-east");
        StubDatabase west = StubDatabase.reset("suspend-west");
        try (SlotPoolDataSource ds = Pools.stub(east).minSize(2).maxSize(4)
                .origin(OriginConfig.named("east").url(east.url()))
                .origin(OriginConfig.named("west").url(west.url())).build()) {
            await(() -> east.live() + west.live() == 2, "two connections", east);
            ds.markDown("west");
            assertThat(ds.suspend(Duration.ofSeconds(5))).isTrue();
            assertThat(east.live() + west.live()).isZero();
            ds.resume();
            await(() -> east.live() == 2, "east refilled to minSize", east);
            assertThat(ds.snapshot().origin("east").orElseThrow().state()).isEqualTo(OriginState.UP);
            assertThat(ds.snapshot().origin("west").orElseThrow().state()).isEqualTo(OriginState.DOWN);
            assertThat(west.live()).isZero();
        }
    }

    /** Waits for the stub's count, failing after 20 s: a bound for a broken pool, not a timing assertion. */
    private static void await(BooleanSupplier condition, String what, StubDatabase db) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what + " (live " + db.live() + ")");
            }
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
    }
}
