package dev.slotpool.pool;

import dev.slotpool.origins.Origin;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An origin not known to answer (no connect since its last failure) gets one connect at a time, however many
 * creators plan for it at the same instant (docs/architecture.md, "Failure detection"): sixteen creators wake
 * together at the end of its back-off, and its connects hang.
 */
class OneConnectToAColdOriginTest {

    private static final int ROUNDS = 40;

    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
        StubDatabase.reset();
    }

    @Test
    void creatorsWakingTogetherStartOneConnectToAnOriginNotKnownToAnswer() {
        StubDatabase db = StubDatabase.reset("ocold");
        ManualTicker clock = new ManualTicker();
        pool = new ConnectionPool(Pools.stub(db).name("ocold").ticker(clock).minSize(4).maxSize(4)
                .creatorThreads(16).downAfterFailures(0).creationBackoffMax(Duration.ofMillis(50)).config());
        Origin o = pool.origins.find("default");
        Pools.await(pool, s -> s.available() == 4, "filled");
        for (int round = 1; round <= ROUNDS; round++) {
            // Empty the pool, then let its refill fail: the origin is no longer known to answer, backed off.
            pool.operations().markDown("default");
            Pools.closesDone(pool);
            db.down(true);
            long failed = db.failedConnects();
            pool.operations().markUp("default");
            Pools.await(pool, s -> db.failedConnects() > failed && o.health.attempts().isEmpty() && o.health.meanConnectNanos() == 0,
                    "a failed refill");
            db.down(false);
            db.hangConnects(true);
            long before = db.connectAttempts();
            clock.advance(Duration.ofMillis(100)); // past the back-off
            pool.creator.signal();
            Pools.await(pool, s -> db.connectAttempts() > before, "a connect");
            LockSupport.parkNanos(Duration.ofMillis(30).toNanos()); // creators that raced it have listed theirs
            assertThat(db.connectAttempts() - before).as("connects started in round %d", round).isEqualTo(1);
            db.hangConnects(false);
            Pools.await(pool, s -> s.available() == 4, "refilled");
        }
    }
}
