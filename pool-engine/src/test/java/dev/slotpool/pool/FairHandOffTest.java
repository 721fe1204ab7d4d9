package dev.slotpool.pool;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/** S6: a returned connection goes to the longest waiter, in arrival order, with no barging past it. */
class FairHandOffTest {

    @ParameterizedTest(name = "turnDuration={0}ms")
    @ValueSource(longs = {0, 1})
    void returnsGoToWaitersInArrivalOrder(long turnMillis) throws Exception {
        StubDatabase db = StubDatabase.reset("fair");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1)
                .turnDuration(Duration.ofMillis(turnMillis)).config());
        try {
            Pools.await(pool, s -> s.available() == 1, "one idle connection");
            Connection held = pool.borrow();
            List<String> order = new CopyOnWriteArrayList<>();
            List<Thread> waiters = new java.util.ArrayList<>();
            for (String name : List.of("A", "B", "C", "D")) {
                Thread t = new Thread(() -> {
                    try (Connection c = pool.borrow()) {
                        order.add(name);
                    } catch (Exception e) {
                        order.add(name + " failed: " + e);
                    }
                }, name);
                t.start();
                waiters.add(t);
                int expected = waiters.size();
                Pools.await(pool, s -> s.waiting() == expected, expected + " waiters");
            }
            // Every waiter is now older than the hand-off threshold (1 ms at most).
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
            held.close();
            for (Thread t : waiters) {
                t.join(10_000);
                assertThat(t.isAlive()).isFalse();
            }
            assertThat(order).containsExactly("A", "B", "C", "D");
            assertThat(pool.snapshot().waiting()).isZero();
        } finally {
            pool.close();
        }
    }
}
