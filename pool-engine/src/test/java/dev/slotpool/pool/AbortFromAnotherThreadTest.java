package dev.slotpool.pool;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JDBC lets another thread {@code abort()} a connection. An abort of a borrow that has already ended (its
 * connection returned and lent again) must do nothing to the next borrower: S1 holds per borrow, not per
 * physical connection.
 */
class AbortFromAnotherThreadTest {

    private static final Executor INLINE = Runnable::run;
    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void aLateAbortOfAnEndedBorrowNeverReachesTheNextBorrower() throws Exception {
        StubDatabase db = StubDatabase.reset("late-abort");
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).downAfterFailures(0)
                .borrowTimeout(Duration.ofSeconds(5)).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");

        AtomicReference<Connection> current = new AtomicReference<>();
        Set<Connection> aborted = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong borrows = new AtomicLong();
        AtomicLong victims = new AtomicLong();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        Thread aborter = new Thread(() -> {
            while (!stop.get()) {
                Connection c = current.get();
                if (c != null) {
                    aborted.add(c);
                    try {
                        c.abort(INLINE);
                    } catch (SQLException | RuntimeException e) {
                        unexpected.compareAndSet(null, e);
                    }
                }
            }
        });
        aborter.start();
        long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        try {
            while (System.nanoTime() - end < 0 && unexpected.get() == null) {
                Connection c = pool.borrow();
                borrows.incrementAndGet();
                current.set(c);
                try (Statement st = c.createStatement()) {
                    st.execute("SELECT 1");
                } catch (SQLException e) {
                    if (!aborted.contains(c)) {
                        victims.incrementAndGet(); // this borrow was never aborted, yet its connection died
                    }
                }
                c.close();
            }
        } finally {
            stop.set(true);
            aborter.join(10_000);
        }
        assertThat(unexpected.get()).isNull();
        assertThat(borrows.get()).isPositive();
        assertThat(victims.get()).as("borrows whose connection died from an abort of an earlier borrow (of %d)",
                borrows.get()).isZero();
        Pools.await(pool, s -> s.total() == 1 && s.borrowed() == 0 && db.live() == 1, "the pool whole again");
    }
}
