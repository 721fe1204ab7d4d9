package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An abort deadline already past when the housekeeper first looks at it is still acted on (docs/failover.md, "What
 * each operation guarantees"). On a loaded machine the housekeeper may run only after a markDown's grace period has
 * ended; here the clock jumps past it from the listener of the markDown's own event, which runs before the
 * housekeeper is woken, so its first look comes after the deadline, deterministically.
 */
class DeadlinePassedUnseenTest {

    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
        StubDatabase.reset();
    }

    @Test
    void aGracePeriodOverBeforeTheHousekeeperLooksStillAbortsTheBorrowedConnection() throws Exception {
        StubDatabase a = StubDatabase.reset("unseen-a"), b = StubDatabase.reset("unseen-b");
        ManualTicker clock = new ManualTicker();
        PoolListener jumpPastTheGrace = new PoolListener() {
            @Override
            public void onEvent(PoolEvent event) {
                if (event.type() == PoolEvent.Type.ORIGIN_STATE && "a".equals(event.origin())
                        && event.detail().contains("-> DOWN")) {
                    clock.advance(Duration.ofSeconds(1));
                }
            }
        };
        pool = new ConnectionPool(Pools.stub(a).url(null).ticker(clock).listener(jumpPastTheGrace)
                .minSize(2).maxSize(4).downGracePeriod(Duration.ofMillis(200)).abortBorrowedOnDown(true)
                .origin(OriginConfig.named("a").url(a.url()).weight(1))
                .origin(OriginConfig.named("b").url(b.url()).weight(0)).config());
        Pools.await(pool, p -> p.available() == 2, "min filled");
        Connection held = pool.borrow();

        pool.operations().markDown("a");

        Pools.await(pool, p -> a.aborted() == 1, "held connection aborted after the grace period");
        assertThat(held.isClosed()).isTrue();
    }
}
