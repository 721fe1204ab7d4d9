package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolEvent;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * close() under load (docs/reliability.md, "Shutdown"), beyond {@link ShutdownTest}: many blocked borrowers and holders that
 * never return, a holder returning within the grace time, a creator stuck in a driver's connect. Borrowers get a
 * clear error at once, held connections are aborted when the shutdown timeout ends (not before, not much later),
 * no pool thread survives close(), and a second close() is harmless. Durations are printed for the docs.
 */
class ShutdownUnderLoadTest {

    /** What close() may add to the shutdown timeout on a loaded machine: closing, joining threads. */
    private static final long CLOSE_SLACK_MILLIS = 1_500;
    /** How long a keepalive validation stays in the driver in the keepalive test. */
    private static final Duration VALIDATION_IN_THE_DRIVER = Duration.ofSeconds(7);

    private final RecordedEvents recorder = new RecordedEvents();
    private final List<PoolEvent> events = recorder.events;

    private record Outcome(String message, String sqlState, long afterCloseMillis) {
    }

    @Test
    void blockedBorrowersFailAtOnceAndHeldConnectionsAreAbortedAtTheShutdownTimeout() throws Exception {
        StubDatabase db = StubDatabase.reset("shutdown-load");
        Duration shutdownTimeout = Duration.ofSeconds(1);
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("shut").minSize(4).maxSize(4).listener(recorder)
                .borrowTimeout(Duration.ofSeconds(60)).shutdownTimeout(shutdownTimeout).config());
        Pools.await(pool, s -> s.available() == 4, "4 idle");

        // Four holders that never give their connection back on their own.
        CountDownLatch release = new CountDownLatch(1);
        List<StubConnection> heldPhysical = new CopyOnWriteArrayList<>();
        List<Throwable> holderErrors = new CopyOnWriteArrayList<>();
        List<Thread> holders = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(() -> {
                try {
                    Connection c = pool.borrow();
                    heldPhysical.add(c.unwrap(StubConnection.class));
                    release.await();
                    try (Statement st = c.createStatement()) {
                        st.execute("SELECT 1");
                    } catch (SQLException e) {
                        holderErrors.add(e);
                    }
                    c.close();
                } catch (SQLException | InterruptedException e) {
                    holderErrors.add(e);
                }
            }, "holder-" + i);
            t.start();
            holders.add(t);
        }
        Pools.await(pool, s -> s.borrowed() == 4, "4 held");

        // Six borrowers blocked in borrow().
        AtomicLong closeStartedAt = new AtomicLong();
        List<Outcome> outcomes = new CopyOnWriteArrayList<>();
        List<Thread> borrowers = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Thread t = new Thread(() -> {
                try {
                    pool.borrow().close();
                    outcomes.add(new Outcome("served", null, 0));
                } catch (SQLException e) {
                    outcomes.add(new Outcome(e.getMessage(), e.getSQLState(),
                            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closeStartedAt.get())));
                }
            }, "blocked-" + i);
            t.start();
            borrowers.add(t);
        }
        Pools.await(pool, s -> s.waiting() == 6, "6 waiting");

        closeStartedAt.set(System.nanoTime());
        pool.close();
        long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closeStartedAt.get());

        assertThat(StubFaultsTest.poolThreads("shut")).as("pool threads alive when close() returns").isEmpty();
        assertThat(closeMillis).as("close() with 4 connections never returned, shutdown timeout %d ms",
                        shutdownTimeout.toMillis())
                .isGreaterThanOrEqualTo(shutdownTimeout.toMillis())
                .isLessThanOrEqualTo(shutdownTimeout.toMillis() + CLOSE_SLACK_MILLIS);
        assertThat(db.aborted()).as("held connections aborted").isEqualTo(4);
        assertThat(db.live()).isZero();
        assertThat(heldPhysical).allMatch(StubConnection::isClosed);
        assertThat(events).filteredOn(e -> e.reason() == CloseReason.POOL_CLOSED).hasSize(4);

        for (Thread t : borrowers) {
            t.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(t.isAlive()).isFalse();
        }
        assertThat(outcomes).hasSize(6).allSatisfy(o -> {
            assertThat(o.message()).isEqualTo("pool 'shut' is closed");
            assertThat(o.sqlState()).isEqualTo("08003");
            // Told when the close began, not when it ended.
            assertThat(o.afterCloseMillis()).isLessThan(shutdownTimeout.toMillis());
        });
        long slowestBorrowerMillis = outcomes.stream().mapToLong(Outcome::afterCloseMillis).max().orElseThrow();

        release.countDown();
        for (Thread t : holders) {
            t.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(t.isAlive()).isFalse();
        }
        assertThat(holderErrors).hasSize(4).allSatisfy(e -> assertThat(e).hasMessageContaining("connection is closed"));

        long secondStart = System.nanoTime();
        pool.close();
        long secondMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - secondStart);
        assertThat(secondMillis).as("a second close() returns at once").isLessThan(500);
        assertThat(db.opened()).isEqualTo(db.closed() + db.aborted());
        assertThat(events).filteredOn(e -> e.reason() == CloseReason.POOL_CLOSED).hasSize(4);
        assertThatThrownBy(pool::borrow).isInstanceOf(SQLException.class).hasMessage("pool 'shut' is closed");
        System.out.printf("shutdown: 4 held never returned, 6 blocked borrowers: close() took %d ms (shutdownTimeout "
                        + "%d ms); borrowers told within %d ms; 4 aborted; pool threads after close 0; second close() %d ms%n",
                closeMillis, shutdownTimeout.toMillis(), slowestBorrowerMillis, secondMillis);
    }

    @Test
    void aHolderReturningWithinTheShutdownTimeoutEndsTheWaitEarlyAndIsClosedNotAborted() throws Exception {
        StubDatabase db = StubDatabase.reset("shutdown-grace");
        Duration shutdownTimeout = Duration.ofSeconds(5);
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("grace").minSize(2).maxSize(2)
                .shutdownTimeout(shutdownTimeout).config());
        Pools.await(pool, s -> s.available() == 2, "2 idle");
        Connection held = pool.borrow();
        Thread returner = new Thread(() -> {
            try {
                Thread.sleep(300);
                held.close();
            } catch (SQLException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        long start = System.nanoTime();
        returner.start();
        pool.close();
        long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        returner.join(TimeUnit.SECONDS.toMillis(20));

        assertThat(closeMillis).as("close() waits for the holder, not for the whole shutdown timeout")
                .isGreaterThanOrEqualTo(300).isLessThan(shutdownTimeout.toMillis());
        assertThat(db.aborted()).isZero();
        assertThat(db.closed()).isEqualTo(2);
        assertThat(StubFaultsTest.poolThreads("grace")).isEmpty();
        System.out.printf("shutdown: a holder returning after 300 ms: close() took %d ms (shutdownTimeout %d ms), "
                + "nothing aborted%n", closeMillis, shutdownTimeout.toMillis());
    }

    @Test
    void aCreatorStuckInTheDriversConnectDoesNotSurviveClose() throws Exception {
        StubDatabase db = StubDatabase.reset("shutdown-hung-connect");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("hung").minSize(1).maxSize(2)
                .borrowTimeout(Duration.ofMillis(300)).shutdownTimeout(Duration.ZERO).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");
        db.hangConnects(true);
        try (Connection held = pool.borrow()) {
            // Demand for a second connection: a creator enters the connect that never returns by itself.
            assertThatThrownBy(pool::borrow).isInstanceOf(SQLException.class);
            Pools.await(pool, s -> pool.capacity.creating() == 1, "a creation under way");

            long start = System.nanoTime();
            pool.close();
            long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(StubFaultsTest.poolThreads("hung")).as("pool threads alive when close() returns").isEmpty();
            assertThat(db.live()).isZero();
            System.out.printf("shutdown: a connect stuck in the driver, shutdownTimeout 0: close() took %d ms (the"
                    + " connect thread is interrupted)%n", closeMillis);
        } finally {
            db.hangConnects(false);
        }
    }

    @Test
    void aKeepaliveStillInTheDriverAtCloseClosesItsConnectionWhenItEnds() throws Exception {
        StubDatabase db = StubDatabase.reset("shutdown-keepalive");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("keepalive").minSize(1).maxSize(1)
                .housekeepingPeriod(Duration.ofMillis(50)).keepaliveInterval(Duration.ofSeconds(1))
                .validationTimeout(Duration.ofSeconds(20)).shutdownTimeout(Duration.ZERO).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");
        // The next keepalive validation answers after 7 s and ignores interrupts, as a driver in a socket read:
        // longer than the 5 s close() may take here, so a close() that waits for it fails (before the fix close()
        // joined the housekeeper for up to 5 s + 5 s, and took 10,001 ms with a 12 s validation).
        db.validationDelay(VALIDATION_IN_THE_DRIVER).ignoreInterrupts(true);
        Pools.await(pool, s -> db.validations() > 0, "a keepalive validation in the driver");

        long start = System.nanoTime();
        pool.close();
        long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(closeMillis).as("close() does not wait for the keepalive's driver call").isLessThan(5_000);

        // The validation succeeds after close() returned: the keepalive sees the pool closed and closes it.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (db.live() > 0 && System.nanoTime() - deadline < 0) {
            Thread.sleep(20);
        }
        assertThat(db.live()).as("connections open after the keepalive ended").isZero();
        System.out.printf("shutdown: a keepalive validation in the driver for %d s, shutdownTimeout 0: close() took"
                + " %d ms, the connection closed when the validation ended%n", VALIDATION_IN_THE_DRIVER.toSeconds(),
                closeMillis);
    }
}
