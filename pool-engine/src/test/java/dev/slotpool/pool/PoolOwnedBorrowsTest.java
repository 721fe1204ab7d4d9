package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotSnapshot;
import dev.slotpool.SlotState;
import dev.slotpool.jdbc.ProxyConnection;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the pool does with a connection for itself is not a user's borrow (docs/reliability.md, 25.3): a connection under a
 * keepalive validation is not counted as borrowed, and a connection marked to retire that a borrower meets idle is
 * closed for the reason it was marked with.
 */
class PoolOwnedBorrowsTest {

    @Test
    void aConnectionUnderKeepaliveIsNotCountedAsBorrowed() throws Exception {
        StubDatabase db = StubDatabase.reset("keepalive-held");
        ManualTicker clock = new ManualTicker();
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("keepalive-held").ticker(clock)
                .minSize(1).maxSize(1).keepaliveInterval(Duration.ofMinutes(1))
                .validationTimeout(Duration.ofSeconds(30)).shutdownTimeout(Duration.ZERO).config());
        try {
            Pools.await(pool, s -> s.available() == 1, "1 idle");
            db.validationDelay(Duration.ofSeconds(30)); // the keepalive's validation stays in the driver
            long before = db.validations();
            clock.advance(Duration.ofMinutes(2));
            pool.housekeeper.pass();
            Pools.await(pool, s -> db.validations() > before, "the keepalive validating the idle connection");

            PoolSnapshot s = pool.snapshot();
            assertThat(s.borrowed()).as("borrowed connections while the only one is under keepalive").isZero();
            assertThat(s.origins().get(0).borrowed()).isZero();
            assertThat(s.available()).as("idle: no user holds it").isEqualTo(1);
            SlotSnapshot slot = s.origins().get(0).slots().get(0);
            assertThat(slot.state()).isEqualTo(SlotState.HELD);
            assertThat(slot.holderThread()).isNull();
        } finally {
            pool.close();
        }
    }

    @Test
    void aRetirementMetIdleIsClosedForItsOwnReason() throws Exception {
        StubDatabase db = StubDatabase.reset("retired-idle");
        RecordedEvents recorder = new RecordedEvents();
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("retired-idle").listener(recorder)
                .minSize(1).maxSize(1).config());
        try {
            Pools.await(pool, s -> s.available() == 1, "1 idle");
            PooledConnection e;
            try (Connection c = pool.borrow()) {
                e = (PooledConnection) ((ProxyConnection) c).lease();
            }
            // A rebalance step that marked the connection as its holder was returning it (after the return read the
            // mark): the connection is idle, marked, and the next borrower meets it.
            e.retire(CloseReason.REBALANCED);
            pool.borrow().close();

            Pools.closesDone(pool);
            assertThat(recorder.events).filteredOn(ev -> ev.type() == PoolEvent.Type.CLOSED)
                    .extracting(PoolEvent::reason).containsExactly(CloseReason.REBALANCED);
        } finally {
            pool.close();
        }
    }
}
