package dev.slotpool.pool;

import dev.slotpool.OriginState;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.SQLTransientConnectionException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Validation runs on the borrower's thread, so it must not make the borrower wait past its borrow timeout: a
 * validation against a server that no longer answers (the stub's validation delay; a blackholed PostgreSQL
 * server in {@code dev.slotpool.faults.PostgresFaultsTest}) is cut at the time the borrow has left, through the
 * connection's network timeout, which drivers apply to {@code isValid}.
 */
class ValidationWithinBorrowTimeoutTest {

    /** The promised accuracy (docs/reliability.md, "Faults"): within 10 % of the timeout plus 50 ms. */
    private static long allowedMillis(Duration timeout) {
        return timeout.toMillis() * 11 / 10 + 50;
    }

    @Test
    void aHangingValidationEndsAtTheBorrowTimeoutNotTheValidationTimeout() throws Exception {
        StubDatabase db = StubDatabase.reset("validation-hangs");
        Duration borrowTimeout = Duration.ofSeconds(1);
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1)
                .validateAfterIdle(Duration.ZERO).validationTimeout(Duration.ofSeconds(5))
                .downAfterFailures(1).borrowTimeout(borrowTimeout).config());
        try {
            Pools.await(pool, s -> s.available() == 1, "1 idle");
            db.validationDelay(Duration.ofSeconds(30)); // the server stops answering

            long start = System.nanoTime();
            SQLTransientConnectionException e = catchThrowableOfType(SQLTransientConnectionException.class, pool::borrow);
            long elapsed = Duration.ofNanos(System.nanoTime() - start).toMillis();

            assertThat((Throwable) e).as("the borrow times out").isNotNull();
            assertThat(elapsed).as("elapsed ms against a %d ms borrow timeout", borrowTimeout.toMillis())
                    .isGreaterThanOrEqualTo(borrowTimeout.toMillis())
                    .isLessThanOrEqualTo(allowedMillis(borrowTimeout));
            assertThat(db.validations()).isGreaterThanOrEqualTo(1);
            assertThat(pool.snapshot().waiting()).isZero();
            // Cut short by the borrower's deadline, the validation proves nothing about the origin.
            assertThat(pool.snapshot().origins().get(0).state()).isEqualTo(OriginState.UP);
        } finally {
            pool.close();
        }
        assertThat(db.live()).isZero();
    }

    @Test
    void validationsOnTheFastAndTheSlowPathShareOneBorrowTimeout() throws Exception {
        StubDatabase db = StubDatabase.reset("validation-twice");
        Duration borrowTimeout = Duration.ofMillis(1500);
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(2).maxSize(2)
                .validateAfterIdle(Duration.ZERO).validationTimeout(Duration.ofSeconds(1))
                .downAfterFailures(0).borrowTimeout(borrowTimeout).config());
        try {
            Pools.await(pool, s -> s.available() == 2, "2 idle");
            db.validationDelay(Duration.ofSeconds(30));

            // The first idle connection is validated on the fast path (1 s validation timeout), the second on
            // the slow path, which must count the first validation against the same 1.5 s.
            long start = System.nanoTime();
            SQLTransientConnectionException e = catchThrowableOfType(SQLTransientConnectionException.class, pool::borrow);
            long elapsed = Duration.ofNanos(System.nanoTime() - start).toMillis();

            assertThat((Throwable) e).isNotNull();
            assertThat(elapsed).isGreaterThanOrEqualTo(borrowTimeout.toMillis())
                    .isLessThanOrEqualTo(allowedMillis(borrowTimeout));
            assertThat(db.validations()).as("both idle connections validated").isGreaterThanOrEqualTo(2);
        } finally {
            pool.close();
        }
        assertThat(db.live()).isZero();
    }
}
