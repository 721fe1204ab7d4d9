package dev.slotpool.pool;

import dev.slotpool.OriginState;
import dev.slotpool.origins.Origin;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A doubted origin gets exactly one probe per back-off cycle, however many threads find it due at the same
 * instant: eight creators, the housekeeper and four more threads calling in together (docs/reliability.md, 22.7).
 */
class OneProbeAtATimeTest {

    private static final int ROUNDS = 150;
    private static final int RACERS = 4;

    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
        StubDatabase.reset();
    }

    @Test
    void everyThreadThatFindsAProbeDueAtOnceStartsOneProbeBetweenThem() throws Exception {
        StubDatabase db = StubDatabase.reset("opt").down(true);
        ManualTicker clock = new ManualTicker();
        pool = new ConnectionPool(Pools.stub(db).name("opt").ticker(clock).minSize(1).maxSize(4).creatorThreads(8)
                .downAfterFailures(1).creationBackoffMax(Duration.ofMillis(100)).config());
        Pools.await(pool, s -> s.origins().get(0).state() == OriginState.DOWN, "detected DOWN");
        Origin o = pool.origins.find("default");
        Pools.await(pool, s -> o.health.attempts().isEmpty(), "the failed connect done");
        long start = db.connectAttempts();
        ExecutorService racers = Executors.newFixedThreadPool(RACERS);
        try {
            for (int round = 1; round <= ROUNDS; round++) {
                long before = db.connectAttempts();
                clock.advance(Duration.ofMillis(150)); // past the back-off: a probe is due
                List<Future<?>> calls = new ArrayList<>();
                Go released = new Go();
                for (int i = 0; i < RACERS; i++) {
                    calls.add(racers.submit(() -> {
                        released.await();
                        pool.failover.startDueProbes(clock.nanoTime());
                        return null;
                    }));
                }
                released.open();
                pool.creator.signal();
                pool.housekeeper.wake();
                for (Future<?> f : calls) {
                    f.get(10, TimeUnit.SECONDS);
                }
                int r = round;
                Pools.await(pool, s -> db.connectAttempts() > before && o.health.attempts().isEmpty() && s.creating() == 0,
                        "round " + r + "'s probe done");
                assertThat(db.connectAttempts() - before).as("probes in round %d", round).isEqualTo(1);
            }
        } finally {
            racers.shutdownNow();
            assertThat(racers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        Pools.await(pool, s -> o.health.attempts().isEmpty(), "the last probe done");
        assertThat(db.connectAttempts() - start).as("one probe per back-off cycle").isEqualTo(ROUNDS);
        assertThat(pool.snapshot().origins().get(0).state()).isEqualTo(OriginState.DOWN);
    }

    /** Releases spinning threads at once: a parked thread would wake too late to race. */
    private static final class Go {
        private volatile boolean open;

        void await() {
            while (!open) {
                Thread.onSpinWait();
            }
        }

        void open() {
            open = true;
        }
    }
}
