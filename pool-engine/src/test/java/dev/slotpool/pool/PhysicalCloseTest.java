package dev.slotpool.pool;

import dev.slotpool.PoolEvent;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A driver's close or abort that waits on a silent server runs on the pool's closer thread, after a network
 * timeout is set: no returning holder, borrower, operator or timer waits on it. The stub's close here would take
 * a minute; each assertion's bound is far below that and far above any scheduling delay.
 */
class PhysicalCloseTest {

    /** How long the stub's close and abort take when no network timeout cuts them short. */
    private static final Duration HUNG_CLOSE = Duration.ofSeconds(60);
    /** Far below HUNG_CLOSE: a caller that waited for the driver's close would not be done by then. */
    private static final long PROMPT_MILLIS = 10_000;

    private ConnectionPool pool;
    private StubDatabase db;

    @AfterEach
    void close() {
        if (db != null) {
            db.closeDelay(Duration.ZERO);
        }
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void aHolderReturningAConnectionOfADrainedOriginDoesNotWaitForItsClose() throws Exception {
        db = StubDatabase.reset("close-return").closeDelay(HUNG_CLOSE);
        pool = new ConnectionPool(Pools.stub(db).shutdownTimeout(Duration.ofMillis(100)).name("close-return")
                .minSize(1).maxSize(1).validationTimeout(Duration.ofSeconds(1)).config());
        Pools.await(pool, s -> s.available() == 1, "one connection");

        Connection c = pool.borrow();
        pool.operations().drain("default", Duration.ofMinutes(5)); // a borrowed connection closes at its return
        long start = System.nanoTime();
        c.close();
        assertThat(millisSince(start)).as("the holder's close() of a drained origin's connection")
                .isLessThan(PROMPT_MILLIS);

        // The physical close ends within the network timeout the pool set first (1 s), not the driver's minute.
        Pools.await(pool, s -> db.closed() == 1, "the drained connection closed");
        Pools.await(pool, s -> s.total() == 0, "its slot and room released");
    }

    @Test
    void aBorrowThatFindsAConnectionToCloseEndsWithinItsTimeout() throws Exception {
        db = StubDatabase.reset("close-borrow").closeDelay(HUNG_CLOSE);
        ManualTicker clock = new ManualTicker();
        pool = new ConnectionPool(Pools.stub(db).shutdownTimeout(Duration.ofMillis(100)).name("close-borrow")
                .ticker(clock).minSize(1).maxSize(1).maxLifetime(Duration.ofMinutes(30))
                .borrowTimeout(Duration.ofMillis(500)).validationTimeout(Duration.ofSeconds(1)).config());
        Pools.await(pool, s -> s.available() == 1, "one connection");
        clock.advance(Duration.ofMinutes(31)); // past its lifetime: the borrower that wins it closes it

        long start = System.nanoTime();
        try (Connection c = pool.borrow()) {
            assertThat(c.isValid(1)).isTrue(); // the replacement, once the closer released the room
        } catch (SQLException timeout) {
            assertThat(timeout.getMessage()).contains("no connection available");
        }
        assertThat(millisSince(start)).as("a borrow whose connection had to be closed").isLessThan(PROMPT_MILLIS);
    }

    @Test
    void theHousekeepersTimersDoNotWaitForAnAbort() throws Exception {
        db = StubDatabase.reset("close-timers").closeDelay(HUNG_CLOSE);
        RecordedEvents events = new RecordedEvents();
        pool = new ConnectionPool(Pools.stub(db).shutdownTimeout(Duration.ofMillis(100)).name("close-timers").minSize(0).maxSize(2)
                .housekeepingPeriod(Duration.ofMillis(50)).abandonedTimeout(Duration.ofMillis(200))
                .validationTimeout(Duration.ofSeconds(30)).listener(events).config());
        List<Connection> leaked = new ArrayList<>();
        leaked.add(pool.borrow());
        leaked.add(pool.borrow());

        // Both are past the abandoned timeout at the same visit; the second is taken back while the first's
        // abort is still in the driver (30 s network timeout, a minute's close).
        long start = System.nanoTime();
        Pools.await(pool, s -> events.events.stream().filter(e -> e.type() == PoolEvent.Type.LEAK).count() == 2, "both abandoned connections taken back");
        assertThat(millisSince(start)).as("two reclaims by the housekeeper").isLessThan(PROMPT_MILLIS);
        for (Connection c : leaked) {
            assertThat(c.isClosed()).isTrue();
        }
    }

    @Test
    void anOperatorsMarkDownDoesNotWaitForTheIdleConnectionsItCloses() throws Exception {
        db = StubDatabase.reset("close-operator");
        pool = new ConnectionPool(Pools.stub(db).shutdownTimeout(Duration.ofMillis(100)).name("close-operator").minSize(3).maxSize(3)
                .validationTimeout(Duration.ofSeconds(30)).config());
        Pools.await(pool, s -> s.available() == 3, "three idle connections");
        db.closeDelay(HUNG_CLOSE);

        long start = System.nanoTime();
        pool.operations().markDown("default");
        assertThat(millisSince(start)).as("markDown closing three idle connections").isLessThan(PROMPT_MILLIS);
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
}
