package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.jdbc.ProxyConnection;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * S1 per borrow against the pool's own reclaims (docs/architecture.md, "Invariants"): a borrow taken back while it
 * is being lent stays ended for its holder, and a reclaim acts on the borrow it judged, never on a later one of the
 * same connection. Both interleavings are made deterministic: a listener's {@code onBorrow} runs between the lease
 * store and the borrower's return, and the reclaim's pieces are called from this package.
 */
class ReclaimedBorrowTest {

    private final ManualTicker clock = new ManualTicker();
    private final RecordedEvents recorder = new RecordedEvents();
    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
    }

    /**
     * The listener takes the borrow back (time-to-live) while it is being lent, waits for the slot to be refilled
     * and lends the new connection to a second holder. The first borrower must get a closed connection, and its
     * close must leave the second holder's slot alone.
     */
    @Test
    void aBorrowReclaimedWhileItIsLentStaysEndedAndItsCloseLeavesTheRefilledSlotAlone() throws Exception {
        StubDatabase db = StubDatabase.reset("reclaim-in-lend");
        AtomicBoolean armed = new AtomicBoolean(true);
        AtomicReference<Connection> next = new AtomicReference<>();
        AtomicReference<Throwable> listenerFailure = new AtomicReference<>();
        PoolListener reclaimDuringLend = new PoolListener() {
            @Override
            public void onBorrow(String origin, long waitNanos) {
                if (!armed.compareAndSet(true, false)) {
                    return; // the second holder's borrow
                }
                try {
                    clock.advance(Duration.ofMinutes(11));
                    pool.housekeeper.pass(); // past timeToLive: the borrow being lent is taken back
                    Pools.closesDone(pool);
                    Pools.await(pool, s -> s.available() == 1, "the slot refilled");
                    next.set(pool.borrow());
                } catch (Throwable t) {
                    listenerFailure.set(t);
                }
            }
        };
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).listener(reclaimDuringLend)
                .minSize(1).maxSize(1).timeToLive(Duration.ofMinutes(10)).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");

        Connection reclaimed = pool.borrow();
        assertThat(listenerFailure.get()).isNull();
        Connection second = next.get();
        assertThat(second).isNotNull();
        StubConnection secondPhysical = second.unwrap(StubConnection.class);

        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(reclaimed.isClosed()).as("the reclaimed borrow is closed for its holder").isTrue();
        reclaimed.close();
        softly.assertThat(pool.snapshot().borrowed()).as("the second holder still holds the only slot").isEqualTo(1);
        softly.assertThat(pool.snapshot().available()).as("nothing made available under the second holder")
                .isZero();
        softly.assertAll();

        try (Statement st = second.createStatement()) {
            st.execute("SELECT 1");
        }
        assertThat(secondPhysical.isClosed()).isFalse();
        second.close();
        Pools.closesDone(pool);
        Pools.await(pool, s -> s.total() == 1 && s.available() == 1 && s.borrowed() == 0, "the pool whole again");
        assertThat(db.opened() - db.closed() - db.aborted()).as("S2: each connection closed once")
                .isEqualTo(pool.snapshot().total());
    }
    /**
     * A reclaimer (the housekeeper's abandoned or time-to-live timer, a drain deadline, a silent origin's abort)
     * judges borrow A; before its reclaim runs, A's holder returns the connection and another thread borrows it
     * (B). The reclaim judged A and must leave B alone: not abort it, not report it as a leak.
     */
    @Test
    void aReclaimJudgedOnAnEndedBorrowLeavesTheNextBorrowAlone() throws Exception {
        StubDatabase db = StubDatabase.reset("reclaim-judged");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).minSize(1).maxSize(1)
                .leakTracing(true).abandonedTimeout(Duration.ofMinutes(5)).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");

        Connection first = pool.borrow();
        PooledConnection e = (PooledConnection) ((ProxyConnection) first).lease();
        long judged = e.stamp(); // what the reclaimer's visit read before it judged the borrow
        first.close();
        AtomicReference<Connection> next = new AtomicReference<>();
        Thread nextHolder = new Thread(() -> {
            try {
                next.set(pool.borrow());
            } catch (SQLException ex) {
                throw new IllegalStateException(ex);
            }
        }, "next-holder");
        nextHolder.start();
        nextHolder.join(20_000);
        Connection second = next.get();
        assertThat(second).isNotNull();
        assertThat(((ProxyConnection) second).lease()).as("the same connection, lent again").isSameAs(e);

        boolean taken = pool.closing.reclaim(e, judged, CloseReason.ABANDONED);
        Pools.closesDone(pool);

        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(taken).as("the judged borrow had ended").isFalse();
        softly.assertThat(recorder.events).as("no LEAK event blames the next holder")
                .noneMatch(ev -> ev.type() == PoolEvent.Type.LEAK);
        softly.assertThat(second.isClosed()).as("the next holder keeps its borrow").isFalse();
        softly.assertThat(db.aborted()).isZero();
        softly.assertAll();
        try (Statement st = second.createStatement()) {
            st.execute("SELECT 1");
        }
        second.close();
        Pools.await(pool, s -> s.total() == 1 && s.available() == 1, "the pool whole again");
    }

    /**
     * The housekeeper's look at a borrow's activity (abandoned timer, silence on a DOWN origin) is recorded late:
     * a pass that began at T noticed the first borrow's calls, and stores "active at T" only after that borrow has
     * ended and the connection was lent again at T + 65 s. The second borrow is 0 s old and must not be judged by
     * the first one's look: before the fix the store overwrote the lend's and the next pass took it back as
     * abandoned (the pool-level model check, seed 19).
     */
    @Test
    void theHousekeepersLateLookAtAnEndedBorrowDoesNotAgeTheNextOne() throws Exception {
        StubDatabase db = StubDatabase.reset("late-look");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).minSize(1).maxSize(1)
                .abandonedTimeout(Duration.ofSeconds(60)).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");

        Connection first = pool.borrow();
        PooledConnection e = (PooledConnection) ((ProxyConnection) first).lease();
        long judged = e.stamp(); // the pass that began at lookedAt read it before its look
        long lookedAt = clock.nanoTime();
        try (Statement st = first.createStatement()) {
            st.execute("SELECT 1"); // calls that look notices
        }
        first.close();
        clock.advance(Duration.ofSeconds(65));
        Connection second = pool.borrow();
        assertThat(((ProxyConnection) second).lease()).as("the same connection, lent again").isSameAs(e);

        e.lastActivity(judged, lookedAt); // the late look's store, judging the first borrow
        pool.housekeeper.pass(); // at lookedAt + 65 s: the second borrow is 0 s old
        Pools.closesDone(pool);

        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(second.isClosed()).as("the 0 s old borrow is not taken back as abandoned").isFalse();
        softly.assertThat(recorder.events).as("no LEAK event blames the next holder")
                .noneMatch(ev -> ev.type() == PoolEvent.Type.LEAK);
        softly.assertAll();
        second.close();
    }
}
