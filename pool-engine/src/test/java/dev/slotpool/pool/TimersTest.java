package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolEvent;
import dev.slotpool.SlotState;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The housekeeper's timers, driven by a manual clock: {@link Housekeeper#pass()} is called by the test. */
class TimersTest {

    private final ManualTicker clock = new ManualTicker();
    private final RecordedEvents recorder = new RecordedEvents();
    private final List<PoolEvent> events = recorder.events;
    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
    }

    private List<PoolEvent> closes(CloseReason reason) {
        return events.stream().filter(e -> e.type() == PoolEvent.Type.CLOSED && e.reason() == reason).toList();
    }

    @Test
    void inactiveConnectionsAboveMinAreClosed() throws Exception {
        StubDatabase db = StubDatabase.reset("inactive");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).minSize(2).maxSize(6)
                .initialSize(5).inactiveTimeout(Duration.ofMinutes(1)).config());
        Pools.await(pool, s -> s.available() == 5, "5 idle");

        clock.advance(Duration.ofSeconds(59));
        pool.housekeeper.pass();
        Pools.closesDone(pool);
        assertThat(pool.snapshot().total()).as("not idle long enough yet").isEqualTo(5);

        clock.advance(Duration.ofSeconds(2));
        pool.housekeeper.pass();
        Pools.closesDone(pool);
        assertThat(pool.snapshot().total()).as("closed down to minSize, never below").isEqualTo(2);
        assertThat(closes(CloseReason.INACTIVE)).hasSize(3);
        assertThat(db.live()).isEqualTo(2);
    }

    @Test
    void maxLifetimeRetiresIdleAtOnceAndBorrowedAtReturn() throws Exception {
        StubDatabase db = StubDatabase.reset("lifetime");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).minSize(2).maxSize(2)
                .maxLifetime(Duration.ofMinutes(30)).config());
        Pools.await(pool, s -> s.available() == 2, "2 idle");
        Connection held = pool.borrow();
        StubConnection heldPhysical = held.unwrap(StubConnection.class);

        clock.advance(Duration.ofMinutes(31));
        pool.housekeeper.pass();
        Pools.closesDone(pool);
        assertThat(closes(CloseReason.MAX_LIFETIME)).as("the idle one").hasSize(1);
        assertThat(pool.snapshot().origins().get(0).slots()).anySatisfy(s -> {
            assertThat(s.state()).isEqualTo(SlotState.BORROWED);
            assertThat(s.retiring()).isTrue();
        });
        assertThat(heldPhysical.isClosed()).as("the holder is not interrupted").isFalse();

        held.close();
        Pools.closesDone(pool);
        assertThat(closes(CloseReason.MAX_LIFETIME)).as("the borrowed one, at return").hasSize(2);
        assertThat(heldPhysical.isClosed()).isTrue();
        Pools.await(pool, s -> s.available() == 2, "replacements up to minSize");
    }

    /**
     * A holder's JDBC calls are counted, not timed (no clock read per call): the housekeeper notices them at its
     * next visit, and the abandoned timer counts from that visit. It fires at most one visit late, never early.
     */
    @Test
    void callsBetweenVisitsPostponeTheAbandonedTimerFromTheVisitThatSawThem() throws Exception {
        StubDatabase db = StubDatabase.reset("abandoned-visits");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).minSize(1).maxSize(1)
                .abandonedTimeout(Duration.ofMinutes(5)).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");
        Connection held = pool.borrow();
        pool.housekeeper.pass();                        // t = 0: borrowed, no call yet
        clock.advance(Duration.ofMinutes(3));
        held.getAutoCommit();                           // a call at t = 3 min
        clock.advance(Duration.ofMinutes(1));
        pool.housekeeper.pass();                        // t = 4 min: the visit that sees it
        clock.advance(Duration.ofMinutes(4).plusSeconds(59));
        pool.housekeeper.pass();                        // t = 8:59: 5:59 after the call, 4:59 after the visit
        Pools.closesDone(pool);
        assertThat(events).as("not before 5 minutes from the visit that saw the call")
                .noneMatch(e -> e.type() == PoolEvent.Type.LEAK);
        clock.advance(Duration.ofSeconds(1));
        pool.housekeeper.pass();                        // t = 9:00
        Pools.closesDone(pool);
        assertThat(events).filteredOn(e -> e.type() == PoolEvent.Type.LEAK).singleElement()
                .satisfies(e -> assertThat(e.reason()).isEqualTo(CloseReason.ABANDONED));
        held.close();
    }

    @Test
    void abandonedConnectionIsTakenBackReportedAndItsSlotReused() throws Exception {
        StubDatabase db = StubDatabase.reset("abandoned");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).minSize(1).maxSize(1)
                .leakTracing(true).abandonedTimeout(Duration.ofMinutes(5)).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");
        Connection leaked = pool.borrow();
        StubConnection physical = leaked.unwrap(StubConnection.class);
        try (Statement st = leaked.createStatement()) {
            st.execute("SELECT 1");
        }
        pool.housekeeper.pass(); // the visit that sees those calls
        clock.advance(Duration.ofMinutes(4));
        pool.housekeeper.pass();
        Pools.closesDone(pool);
        assertThat(events).noneMatch(e -> e.type() == PoolEvent.Type.LEAK);

        clock.advance(Duration.ofMinutes(2));
        pool.housekeeper.pass();
        Pools.closesDone(pool);
        PoolEvent leak = events.stream().filter(e -> e.type() == PoolEvent.Type.LEAK).findFirst().orElseThrow();
        assertThat(leak.reason()).isEqualTo(CloseReason.ABANDONED);
        assertThat(leak.detail()).contains(Thread.currentThread().getName())
                .contains("abandonedConnectionIsTakenBackReportedAndItsSlotReused");
        assertThat(db.aborted()).as("the physical connection is aborted").isEqualTo(1);
        assertThat(physical.isClosed()).isTrue();
        assertThatThrownBy(leaked::createStatement).isInstanceOf(SQLException.class)
                .hasMessageContaining("connection is closed");
        leaked.close(); // the late close of the old holder must not disturb the slot's next user

        try (Connection again = pool.borrow()) {
            assertThat(again.unwrap(StubConnection.class)).isNotSameAs(physical);
        }
        assertThat(db.opened() - db.closed() - db.aborted()).isEqualTo(pool.snapshot().total());
    }

    @Test
    void timeToLiveTakesBackAConnectionBorrowedTooLongEvenIfActive() throws Exception {
        StubDatabase db = StubDatabase.reset("ttl");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).minSize(1).maxSize(1)
                .timeToLive(Duration.ofMinutes(10)).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");
        Connection busy = pool.borrow();
        for (int i = 0; i < 3; i++) {
            clock.advance(Duration.ofMinutes(4));
            try (Statement st = busy.createStatement()) {
                st.execute("SELECT 1");
            } catch (SQLException e) {
                assertThat(i).as("only the last use may fail").isEqualTo(2);
            }
            pool.housekeeper.pass();
            Pools.closesDone(pool);
        }
        assertThat(closes(CloseReason.TIME_TO_LIVE)).hasSize(1);
        assertThat(busy.isClosed()).isTrue();
    }

    @Test
    void keepaliveValidatesIdleConnectionsAndClosesDeadOnes() throws Exception {
        StubDatabase db = StubDatabase.reset("keepalive");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).minSize(2).maxSize(2)
                .keepaliveInterval(Duration.ofMinutes(2)).config());
        Pools.await(pool, s -> s.available() == 2, "2 idle");
        long validationsBefore = db.validations();

        clock.advance(Duration.ofMinutes(3));
        pool.housekeeper.pass();
        Pools.keepalivesDone(pool);
        Pools.closesDone(pool);
        assertThat(db.validations() - validationsBefore).isEqualTo(2);
        assertThat(pool.snapshot().available()).isEqualTo(2);

        db.killLiveConnections();
        clock.advance(Duration.ofMinutes(3));
        pool.housekeeper.pass();
        Pools.keepalivesDone(pool);
        Pools.closesDone(pool);
        assertThat(closes(CloseReason.VALIDATION_FAILED)).hasSize(2);
        Pools.await(pool, s -> s.available() == 2, "replacements");
    }

    @Test
    void aConnectionIdleLongerThanTheThresholdIsValidatedBeforeItIsLent() throws Exception {
        StubDatabase db = StubDatabase.reset("validate");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(recorder).minSize(1).maxSize(1)
                .validateAfterIdle(Duration.ofSeconds(1)).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");
        db.killLiveConnections();
        clock.advance(Duration.ofSeconds(5));
        try (Connection c = pool.borrow(); Statement st = c.createStatement()) {
            st.execute("SELECT 1"); // a dead connection handed out would throw here
        }
        assertThat(closes(CloseReason.VALIDATION_FAILED)).hasSize(1);
    }
}
