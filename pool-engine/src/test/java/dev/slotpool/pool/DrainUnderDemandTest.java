package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A paced drain in a full pool gives up its connections early only as far as borrowers wait: one waiter, one
 * early close, the rest keep the drain's pace (docs/reliability.md, 22.5).
 */
class DrainUnderDemandTest {

    private ConnectionPool pool;
    private final List<Connection> held = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (Connection c : held) {
            c.close();
        }
        if (pool != null) {
            pool.close();
        }
        StubDatabase.reset();
    }

    @Test
    void oneWaitingBorrowerClosesOneDrainingConnectionAndTheRestKeepThePace() throws Exception {
        StubDatabase a = StubDatabase.reset("dud-a"), b = StubDatabase.reset("dud-b");
        // Each close of a's takes a while, so the creators see its room only when the closer is done with it.
        a.closeDelay(Duration.ofMillis(200));
        ManualTicker clock = new ManualTicker(); // the drain's pace comes due only when the test moves the clock
        pool = new ConnectionPool(Pools.stub(a).url(null).ticker(clock).minSize(8).maxSize(8).creatorThreads(4)
                .borrowTimeout(Duration.ofSeconds(20))
                .origin(OriginConfig.named("a").url(a.url()).weight(3))
                .origin(OriginConfig.named("b").url(b.url()).weight(1)).config());
        Pools.fillToShares(pool, s -> s.origin("a").orElseThrow().total() == 6, "6 on a, 2 on b");
        pool.operations().drain("a", Duration.ofSeconds(10));
        held.add(pool.borrow());
        held.add(pool.borrow()); // b's two; a's six sit in the drain's queue; the pool is at maxSize

        try (Connection third = pool.borrow()) {
            assertThat(third.unwrap(StubConnection.class).database().name()).isEqualTo("dud-b");
        }
        Pools.closesDone(pool);
        OriginSnapshot draining = pool.snapshot().origin("a").orElseThrow();
        assertThat(a.closed()).as("a's connections closed early for one waiter").isEqualTo(1);
        assertThat(draining.closing()).as("still queued on the drain's pace").isEqualTo(5);
        assertThat(draining.state()).isEqualTo(OriginState.DRAINING);

        // The next paced close is the second of six, at 2/7 of the 10 s.
        clock.advance(Duration.ofMillis(2_900));
        pool.housekeeper.wake();
        Pools.await(pool, s -> a.closed() == 2, "the second close on the drain's pace");
        Pools.closesDone(pool);
        assertThat(pool.snapshot().origin("a").orElseThrow().closing()).isEqualTo(4);
    }
}
