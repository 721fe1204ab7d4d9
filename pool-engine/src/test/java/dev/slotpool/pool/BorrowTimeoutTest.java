package dev.slotpool.pool;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** A borrow that cannot be served fails at its timeout with the pool's state and the last failure. */
class BorrowTimeoutTest {

    @Test
    void timeoutNamesThePoolStateAndLeavesNoWaiter() throws Exception {
        StubDatabase db = StubDatabase.reset("timeout");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1)
                .borrowTimeout(Duration.ofMillis(200)).config());
        try (Connection held = pool.borrow()) {
            long start = System.nanoTime();
            SQLTransientConnectionException e = catchThrowableOfType(SQLTransientConnectionException.class, pool::borrow);
            long elapsedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
            assertThat(elapsedMillis).as("not before the timeout").isGreaterThanOrEqualTo(200);
            assertThat(e.getMessage()).contains("pool 'test'").contains("borrow timeout 200 ms")
                    .contains("total=1").contains("borrowed=1").contains("default=UP");
            assertThat(pool.snapshot().waiting()).isZero();
            assertThat(pool.snapshot().timeouts()).isEqualTo(1);
        } finally {
            pool.close();
        }
    }

    @Test
    void timeoutChainsTheLastConnectionFailureWithoutThePassword() throws Exception {
        StubDatabase db = StubDatabase.reset("down").down(true);
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(0).maxSize(2)
                .downAfterFailures(0).borrowTimeout(Duration.ofMillis(300)).config());
        try {
            SQLTransientConnectionException e = catchThrowableOfType(SQLTransientConnectionException.class, pool::borrow);
            assertThat(e.getMessage()).contains("last connection failure").contains("down");
            assertThat(e.getCause()).isInstanceOf(SQLException.class);
            assertThat(((SQLException) e.getCause()).getSQLState()).isEqualTo("08001");
            for (Throwable t = e; t != null; t = t.getCause()) {
                assertThat(String.valueOf(t.getMessage())).doesNotContain("s3cret-pw");
            }
        } finally {
            pool.close();
        }
    }

    @Test
    void zeroTimeoutFailsAtOnceWhenNothingIsFree() throws Exception {
        StubDatabase db = StubDatabase.reset("zero");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1)
                .borrowTimeout(Duration.ZERO).config());
        // With a zero timeout even the first borrow fails until the creator has opened the one connection.
        Pools.await(pool, s -> s.available() == 1, "the connection opened");
        try (Connection held = pool.borrow()) {
            assertThatThrownBy(pool::borrow).isInstanceOf(SQLTransientConnectionException.class);
        } finally {
            pool.close();
        }
    }

    @Test
    void interruptedWaiterGetsAnErrorKeepsItsInterruptAndLeavesNoWaiter() throws Exception {
        StubDatabase db = StubDatabase.reset("interrupt");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1)
                .borrowTimeout(Duration.ofSeconds(30)).config());
        try (Connection held = pool.borrow()) {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicReference<Boolean> interruptKept = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    pool.borrow().close();
                } catch (SQLException e) {
                    thrown.set(e);
                    interruptKept.set(Thread.currentThread().isInterrupted());
                }
            });
            waiter.start();
            Pools.await(pool, s -> s.waiting() == 1, "one waiter");
            waiter.interrupt();
            waiter.join(10_000);
            assertThat(waiter.isAlive()).isFalse();
            assertThat(thrown.get()).hasMessageContaining("interrupted").hasCauseInstanceOf(InterruptedException.class);
            assertThat(interruptKept.get()).isTrue();
            assertThat(pool.snapshot().waiting()).isZero();
        } finally {
            pool.close();
        }
        assertThat(db.live()).isZero();
    }
}
