package dev.slotpool.pool;

import dev.slotpool.LabelingCallback;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** A labeled borrow has one deadline: its look for the cheapest connection, the validations that look needs and
 * the plain borrow after it all count against the one borrow timeout. */
class LabeledBorrowDeadlineTest {

    private static final LabelingCallback ANY = new LabelingCallback() {
        @Override
        public int cost(Map<String, String> requested, Map<String, String> current) {
            return 1;
        }

        @Override
        public boolean configure(Map<String, String> requested, Connection connection) {
            return true;
        }
    };

    @Test
    void aLabeledBorrowWhoseCandidatesHangInValidationEndsAtOneBorrowTimeout() throws Exception {
        StubDatabase db = StubDatabase.reset("labels-deadline");
        Duration borrowTimeout = Duration.ofSeconds(1);
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(2).maxSize(2).labeling(ANY)
                .validateAfterIdle(Duration.ZERO).validationTimeout(Duration.ofSeconds(5)).downAfterFailures(0)
                .borrowTimeout(borrowTimeout).config());
        try {
            Pools.await(pool, s -> s.available() == 2, "2 idle");
            db.validationDelay(Duration.ofSeconds(30)); // the server stops answering

            long start = System.nanoTime();
            SQLTransientConnectionException e = catchThrowableOfType(SQLTransientConnectionException.class,
                    () -> pool.borrow(Map.of("tenant", "a")));
            long elapsed = Duration.ofNanos(System.nanoTime() - start).toMillis();

            assertThat((Throwable) e).as("the labeled borrow times out").isNotNull();
            // Each candidate's validation restarting the budget made it about 3 borrow timeouts.
            assertThat(elapsed).as("elapsed ms against a %d ms borrow timeout", borrowTimeout.toMillis())
                    .isLessThan(borrowTimeout.toMillis() * 3 / 2);
        } finally {
            pool.close();
        }
    }
}
