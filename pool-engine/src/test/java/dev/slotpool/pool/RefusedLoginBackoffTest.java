package dev.slotpool.pool;

import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A refused login (SQLState class 28, Oracle's login codes) fails the same way until the credentials change: the
 * origin backs off to creationBackoffMax after the first one instead of retrying at 50 ms, 100 ms, ...
 */
class RefusedLoginBackoffTest {

    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void aRefusedLoginBacksOffToTheMaximumAtOnceAndSaysSo() throws Exception {
        StubDatabase db = StubDatabase.reset("refused-login");
        db.requirePassword("the-right-one");
        RecordedEvents events = new RecordedEvents();
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).downAfterFailures(0)
                .creationBackoffMax(Duration.ofMinutes(10)).listener(events).config());

        PoolEvent refused = awaitFailure(events);
        long backoffLeft = pool.origins.configured()[0].health.nextAttemptAt() - pool.ticker.nanoTime();
        // A window with no creation allowed: the fast back-off (50 ms doubling) would retry several times in it.
        long windowEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (System.nanoTime() - windowEnd < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        System.out.println("connect attempts in the first second after a refused login: " + db.connectAttempts());
        assertThat(db.connectAttempts()).as("connect attempts (an upper bound: slowness only lowers it)")
                .isEqualTo(1);
        assertThat(refused.detail()).startsWith("authentication failed").contains("28P01", "600000 ms")
                .doesNotContain("s3cret-pw");
        assertThat(backoffLeft).as("next attempt not before the maximum back-off (minus the time since)")
                .isGreaterThan(TimeUnit.MINUTES.toNanos(5));
    }

    @Test
    void anOtherConnectFailureKeepsTheFastBackoff() {
        StubDatabase db = StubDatabase.reset("refused-other");
        db.failNextConnects(1);
        RecordedEvents events = new RecordedEvents();
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).downAfterFailures(0)
                .creationBackoffMax(Duration.ofMinutes(10)).listener(events).config());

        PoolEvent failed = awaitFailure(events);
        assertThat(failed.detail()).doesNotContain("authentication failed");
        Pools.await(pool, s -> s.available() == 1, "the connection after a 50 ms back-off");
    }

    @Test
    void aRefusedLoginThatMarksTheOriginDownKeepsTheMaximumBackoff() throws Exception {
        StubDatabase db = StubDatabase.reset("refused-down");
        db.requirePassword("the-right-one");
        RecordedEvents events = new RecordedEvents();
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).downAfterFailures(1)
                .creationBackoffMax(Duration.ofMinutes(10)).listener(events).config());

        awaitFailure(events);
        Pools.await(pool, s -> s.origins().get(0).state() == OriginState.DOWN, "DOWN after one refused login");
        long backoffLeft = pool.origins.configured()[0].health.nextAttemptAt() - pool.ticker.nanoTime();
        assertThat(backoffLeft).as("the probe waits for the maximum back-off too")
                .isGreaterThan(TimeUnit.MINUTES.toNanos(5));
    }

    @Test
    void theRightPasswordConnects() throws Exception {
        StubDatabase db = StubDatabase.reset("refused-not");
        db.requirePassword("s3cret-pw");
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).config());
        try (Connection c = pool.borrow()) {
            assertThat(c.isValid(1)).isTrue();
        }
    }

    private static PoolEvent awaitFailure(RecordedEvents events) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            for (PoolEvent e : events.events) {
                if (e.type() == PoolEvent.Type.CREATION_FAILED) {
                    return e;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no CREATION_FAILED event; events: " + events.events);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
