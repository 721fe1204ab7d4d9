package dev.slotpool.pool;

import dev.slotpool.testsupport.OwnThread;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A borrow's deadline is one absolute time on the pool's {@link dev.slotpool.Ticker} (docs/reliability.md, 25.7): a manual
 * clock moved past it ends a waiting borrow at the waiter's next wake. On the old code the wait was measured on
 * System.nanoTime, so the borrow below waited its whole 60 s of real time whatever the pool's clock said.
 */
class BorrowDeadlineOnTickerTest {

    @Test
    void aManualClockMovedPastTheDeadlineEndsTheWait() throws Exception {
        StubDatabase db = StubDatabase.reset("deadline-ticker");
        ManualTicker clock = new ManualTicker();
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("deadline-ticker").ticker(clock)
                .minSize(1).maxSize(1).borrowTimeout(Duration.ofSeconds(60)).config());
        try (Connection held = pool.borrow()) {
            AtomicReference<Thread> waiter = new AtomicReference<>();
            CompletableFuture<Connection> second = OwnThread.supply(() -> {
                waiter.set(Thread.currentThread());
                return pool.borrow();
            });
            Pools.await(pool, s -> s.waiting() == 1, "the second borrower waiting");
            clock.advance(Duration.ofSeconds(61));
            // A park may end at any time; the waiter then reads its clock again. This wake stands for whichever
            // comes first in a real pool (a turn's poll, a signal, the park's own end).
            LockSupport.unpark(waiter.get());

            Throwable t = catchThrowable(() -> second.get(30, TimeUnit.SECONDS));
            assertThat(t).as("the borrow ended by its deadline on the pool's clock, not 60 s of real time")
                    .isInstanceOf(ExecutionException.class);
            assertThat(t.getCause()).isInstanceOf(SQLTransientConnectionException.class)
                    .hasMessageContaining("borrow timeout 60000 ms");
        } finally {
            pool.close();
        }
    }
}
