package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolEvent;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keepalive validations that hang in the driver (a server that stopped answering: each validation lasts its
 * validationTimeout) do not hold the housekeeper's timers: run on its thread, k of them would freeze every timer
 * for k × validationTimeout.
 */
class HungKeepaliveTest {

    @Test
    void anAbandonedConnectionIsTakenBackOnScheduleWhileKeepaliveValidationsHang() throws Exception {
        StubDatabase db = StubDatabase.reset("hung-keepalive");
        RecordedEvents recorder = new RecordedEvents();
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("hung-keepalive").listener(recorder)
                .minSize(5).maxSize(5).housekeepingPeriod(Duration.ofMillis(50))
                .keepaliveInterval(Duration.ofSeconds(1)).validationTimeout(Duration.ofSeconds(30))
                .abandonedTimeout(Duration.ofSeconds(2)).shutdownTimeout(Duration.ZERO).config());
        try {
            Pools.await(pool, s -> s.available() == 5, "5 idle");
            db.validationDelay(Duration.ofSeconds(30)); // every validation from now on lasts its whole timeout
            long before = db.validations();
            Connection leaked = pool.borrow();          // no JDBC call from here on: abandoned after 2 s

            // The abandoned timer is due about 2 s after the borrow, the keepalive of the 4 idle ones 1 s after they
            // were created; their validations (4 × 30 s) end far later. Pools.await gives up after 20 s: on the old
            // code the housekeeper was inside the first validation.
            Pools.await(pool, s -> recorder.events.stream().anyMatch(e -> e.type() == PoolEvent.Type.LEAK
                    && e.reason() == CloseReason.ABANDONED), "the abandoned connection taken back");
            assertThat(leaked.isClosed()).isTrue();
            Pools.await(pool, s -> db.validations() > before, "a keepalive validation hanging in the driver");
            assertThat(pool.housekeeper.keepaliveIdle()).as("the keepalive batch still under way").isFalse();
            assertThat(db.validations() - before).as("hung validations: one at a time").isEqualTo(1);
        } finally {
            pool.close();
        }
    }
}
