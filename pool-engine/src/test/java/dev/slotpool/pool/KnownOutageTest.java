package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Borrows fail at once when the pool knows every origin is DOWN (docs/architecture.md, "Borrow", step 4), with
 * each origin's current reason; the borrow timeout stays the bound when it does not know. The borrow timeout here
 * is ten minutes, and the 20 s bounds are for a broken pool, not speed targets: a borrow that waits for its
 * timeout fails them.
 */
class KnownOutageTest {

    private static final Duration LONG_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration BROKEN = Duration.ofSeconds(20);
    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
        StubDatabase.reset();
    }

    private static void awaitDown(ConnectionPool pool, String origin) {
        Pools.await(pool, s -> s.origin(origin).orElseThrow().state() == OriginState.DOWN, origin + " DOWN");
    }

    @Test
    void everyOriginDownFailsABorrowAtOnceWithTheReason() {
        StubDatabase a = StubDatabase.reset("ko-a").down(true);
        StubDatabase b = StubDatabase.reset("ko-b").down(true);
        pool = new ConnectionPool(Pools.stub(a).minSize(1).maxSize(2).borrowTimeout(LONG_TIMEOUT)
                .creationBackoffMax(Duration.ofMillis(200))
                .origin(OriginConfig.named("a").url(a.url()))
                .origin(OriginConfig.named("b").url(b.url()))
                .config());
        awaitDown(pool, "a");
        awaitDown(pool, "b");

        SQLException failure = assertTimeoutPreemptively(BROKEN, () -> {
            try (Connection c = pool.borrow()) {
                throw new AssertionError("lent a connection with every origin DOWN: " + c);
            } catch (SQLException e) {
                return e;
            }
        });
        assertThat((Throwable) failure).isInstanceOf(SQLTransientConnectionException.class)
                .hasMessageContaining("every origin is DOWN")
                // known once a probe failed, so each origin's reason is its probe's failure
                .hasMessageContaining("origin 'a': probe failed: stub database ko-a is down")
                .hasMessageContaining("origin 'b': probe failed: stub database ko-b is down");
        assertThat(failure.getSQLState()).isEqualTo("08001");
        assertThat(failure.getCause()).as("the current failure, chained").hasMessageContaining("is down");
        assertThat(failure.getMessage()).doesNotContain("s3cret-pw");
        assertThat(pool.snapshot().timeouts()).as("no borrow timed out").isZero();
    }

    @Test
    void theFailureFollowsTheCauseWhenItChangesWhileDown() {
        StubDatabase db = StubDatabase.reset("ko-change").down(true);
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).borrowTimeout(LONG_TIMEOUT)
                .creationBackoffMax(Duration.ofMillis(200)).config());
        awaitDown(pool, "default");
        assertThatThrownBy(() -> assertTimeoutPreemptively(BROKEN, () -> pool.borrow()))
                .hasMessageContaining("is down");

        db.down(false).requirePassword("another-password"); // the server is back, but refuses the pool's login
        long deadline = System.nanoTime() + BROKEN.toNanos();
        String message = "";
        while (!message.contains("password authentication failed")) {
            assertThat(System.nanoTime() - deadline).as("the probes' new failure reaches the borrow; last: "
                    + message).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            SQLException e = assertTimeoutPreemptively(BROKEN, () -> {
                try (Connection c = pool.borrow()) {
                    throw new AssertionError("lent a connection while every login is refused: " + c);
                } catch (SQLException ex) {
                    return ex;
                }
            });
            message = e.getMessage();
        }
        assertThat(message).as("the current reason, not the first one kept").doesNotContain("is down")
                .doesNotContain("another-password").doesNotContain("s3cret-pw");
    }

    @Test
    void aBorrowerAlreadyWaitingWhenTheLastOriginGoesDownIsTold() throws Exception {
        StubDatabase db = StubDatabase.reset("ko-waiter");
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).borrowTimeout(LONG_TIMEOUT)
                .creationBackoffMax(Duration.ofMillis(200)).config());
        Pools.await(pool, s -> s.available() == 1, "one idle connection");
        Connection held = pool.borrow();
        AtomicReference<Throwable> waiterGot = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try (Connection c = pool.borrow()) {
                waiterGot.set(new AssertionError("lent " + c));
            } catch (Throwable e) {
                waiterGot.set(e);
            }
        });
        waiter.start();
        Pools.await(pool, s -> s.waiting() == 1, "the borrower waits");

        db.down(true).killLiveConnections();
        assertThatThrownBy(() -> held.createStatement().execute("SELECT 1")).isInstanceOf(SQLException.class);
        held.close(); // evicted; its replacement's connects fail: DOWN at the third, with no session left

        waiter.join(BROKEN.toMillis());
        assertThat(waiter.isAlive()).as("the waiter was told, not left to its ten-minute timeout").isFalse();
        assertThat(waiterGot.get()).isInstanceOf(SQLTransientConnectionException.class)
                .hasMessageContaining("every origin is DOWN");
        assertThat(pool.snapshot().waiting()).as("nobody left in the queue").isZero();

        db.down(false); // a probe brings the origin back; borrows are served again
        Pools.await(pool, s -> s.origins().get(0).state() == OriginState.UP && s.available() == 1, "UP again");
        try (Connection c = pool.borrow()) {
            assertThat(c.isValid(1)).isTrue();
        }
    }

    /** A DOWN for broken sessions while the server still takes connects: not known, the borrow waits, and the
     * probe that brings the origin back serves it. */
    @Test
    void aDownForBrokenSessionsWhoseServerTakesConnectsIsRiddenThrough() throws Exception {
        StubDatabase db = StubDatabase.reset("ko-sessions");
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).borrowTimeout(LONG_TIMEOUT)
                .downAfterFailures(1).creationBackoffMax(Duration.ofMillis(200)).config());
        Pools.await(pool, s -> s.available() == 1, "one idle connection");
        Connection held = pool.borrow();
        db.killLiveConnections();
        assertThatThrownBy(() -> held.createStatement().execute("SELECT 1")).isInstanceOf(SQLException.class);
        held.close(); // evicted: DOWN at the first (downAfterFailures 1); connects still succeed
        Connection again = assertTimeoutPreemptively(BROKEN, () -> pool.borrow());
        assertThat(again.isValid(1)).as("served once a probe brought the origin back").isTrue();
        again.close();
    }

    /** Connects that failed for a moment (a pooler's KILL and RESUME) take the origin DOWN, but no probe has failed
     * since: not known yet, so the borrow waits and the probe that finds the server back serves it. Only a probe
     * that fails confirms the outage. */
    @Test
    void aDownFromConnectsAloneIsRiddenThroughWhenTheFirstProbeAnswers() throws Exception {
        StubDatabase db = StubDatabase.reset("ko-moment").down(true);
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).borrowTimeout(LONG_TIMEOUT)
                .creationBackoffMax(Duration.ofSeconds(5)).config());
        awaitDown(pool, "default");
        db.down(false); // back before the first probe, which comes a back-off after the DOWN

        Connection c = assertTimeoutPreemptively(BROKEN, () -> pool.borrow());
        assertThat(c.isValid(1)).as("served once the first probe brought the origin back").isTrue();
        c.close();
    }

    /** An origin UP but not yet answering (its first connect hangs): the pool does not know, the timeout bounds. */
    @Test
    void anOriginNotYetTriedKeepsTheBorrowTimeoutAsTheBound() {
        StubDatabase db = StubDatabase.reset("ko-untried").hangConnects(true);
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).borrowTimeout(Duration.ofMillis(300))
                .config());
        try {
            assertThatThrownBy(() -> pool.borrow()).isInstanceOf(SQLTransientConnectionException.class)
                    .hasMessageContaining("no connection available within")
                    .hasMessageNotContaining("every origin is DOWN");
            assertThat(pool.snapshot().timeouts()).isEqualTo(1);
        } finally {
            db.hangConnects(false);
        }
    }
}
