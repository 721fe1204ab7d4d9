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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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

    /**
     * A close() that dies half way (here its thread is stopped while it waits for a borrowed connection) does not
     * leave the pool closing for ever: the next close() runs the steps again and ends it, threads and all.
     */
    @Test
    @SuppressWarnings({"deprecation", "removal"})
    void aCloseAfterOneThatDiedFinishesTheJob() throws Exception {
        // Nothing inside close() throws on purpose; Thread.stop is the one way in, and JDK 20 removed it (the
        // suite's virtual-thread run is on a later JDK).
        assumeTrue(Runtime.version().feature() < 20, "Thread.stop needs JDK 19 or older");
        StubDatabase db = StubDatabase.reset("shutdown-died");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("died").minSize(1).maxSize(1)
                .shutdownTimeout(Duration.ofSeconds(60)).config());
        Connection held = pool.borrow();
        Thread first = new Thread(pool::close, "first-close");
        first.setDaemon(true);
        first.start();
        Pools.await(pool, s -> s.closed() && first.getState() == Thread.State.TIMED_WAITING,
                "the first close() waiting for the borrowed connection");
        first.stop(); // Java 17: a ThreadDeath in the waiting close(), as any Error thrown from inside it
        first.join(10_000);
        assertThat(first.isAlive()).isFalse();
        held.close();

        Thread second = new Thread(pool::close, "second-close");
        second.setDaemon(true);
        second.start();
        second.join(10_000);
        assertThat(second.isAlive()).as("the second close() still waiting for the first").isFalse();
        assertThat(poolThreads("died")).as("no pool thread survives the second close()").isEmpty();
        assertThat(db.live()).isZero();
    }

    /**
     * close() from an interrupted thread (a container stopping its workers) does not wait for borrowed connections:
     * a park returns at once while the interrupt is set, so the wait was a busy loop for all of shutdownTimeout.
     * It takes them back at once and keeps the interrupt for the caller.
     */
    @Test
    void anInterruptedCloseTakesBackBorrowedConnectionsWithoutWaiting() throws Exception {
        StubDatabase db = StubDatabase.reset("shutdown-interrupted");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("interrupted").minSize(1).maxSize(1)
                .shutdownTimeout(Duration.ofSeconds(30)).config());
        Connection held = pool.borrow();
        long start = System.nanoTime();
        Thread.currentThread().interrupt();
        try {
            pool.close();
        } finally {
            assertThat(Thread.interrupted()).as("the caller's interrupt is kept").isTrue();
        }
        long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(millis).as("close() of an interrupted thread, shutdownTimeout 30 s").isLessThan(15_000);
        Pools.await(pool, s -> db.live() == 0, "the borrowed connection aborted");
        assertThat(db.aborted()).isEqualTo(1);
        assertThat(held.isClosed()).isTrue();
    }
}
