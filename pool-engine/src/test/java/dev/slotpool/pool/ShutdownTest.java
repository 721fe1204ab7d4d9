package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** close(): threads stop, idle closed, borrowed aborted after the shutdown timeout, waiters told, idempotent. */
class ShutdownTest {

    private static List<Thread> poolThreads(String poolName) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("slotpool-" + poolName + "-") && t.isAlive()).toList();
    }

    @Test
    void closeStopsEverythingAndAbortsWhatIsNotReturned() throws Exception {
        StubDatabase db = StubDatabase.reset("shutdown");
        List<PoolEvent> events = new CopyOnWriteArrayList<>();
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("shutdown-pool").minSize(2).maxSize(2)
                .borrowTimeout(Duration.ofSeconds(30)).shutdownTimeout(Duration.ofMillis(300))
                .listener(new PoolListener() {
                    @Override
                    public void onEvent(PoolEvent e) {
                        events.add(e);
                    }
                }).config());
        Pools.await(pool, s -> s.available() == 2, "2 idle");
        assertThat(poolThreads("shutdown-pool")).isNotEmpty();

        Connection kept = pool.borrow();
        Connection kept2 = pool.borrow();
        AtomicReference<Throwable> waiterError = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                pool.borrow().close();
            } catch (SQLException e) {
                waiterError.set(e);
            }
        });
        waiter.start();
        Pools.await(pool, s -> s.waiting() == 1, "a waiter");
        kept2.close(); // goes to the waiter, who closes it at once

        waiter.join(10_000);
        Connection third = pool.borrow();
        pool.close();

        assertThat(waiterError.get()).isNull();
        assertThat(poolThreads("shutdown-pool")).as("no pool thread survives close()").isEmpty();
        assertThat(db.live()).isZero();
        assertThat(db.aborted()).as("the two never returned").isEqualTo(2);
        assertThat(events).filteredOn(e -> e.reason() == CloseReason.POOL_CLOSED).hasSize(2);
        assertThat(kept.isClosed()).isTrue();
        assertThatThrownBy(third::createStatement).hasMessageContaining("connection is closed");
        kept.close();
        third.close();
        pool.close(); // harmless
        assertThatThrownBy(pool::borrow).isInstanceOf(SQLException.class).hasMessageContaining("is closed");
        assertThat(pool.snapshot().closed()).isTrue();
    }

    @Test
    void waitersFailWithAClearErrorWhenThePoolCloses() throws Exception {
        StubDatabase db = StubDatabase.reset("shutdown-waiters");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("sw").minSize(1).maxSize(1)
                .borrowTimeout(Duration.ofSeconds(60)).shutdownTimeout(Duration.ZERO).config());
        Connection held = pool.borrow();
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                pool.borrow();
            } catch (SQLException e) {
                error.set(e);
            }
        });
        waiter.start();
        Pools.await(pool, s -> s.waiting() == 1, "a waiter");
        pool.close();
        waiter.join(10_000);
        assertThat(waiter.isAlive()).isFalse();
        assertThat(error.get()).hasMessageContaining("pool 'sw' is closed");
        held.close();
        assertThat(db.live()).isZero();
    }
}
