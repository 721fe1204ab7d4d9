package dev.slotpool.pool;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * What a failed borrow and {@code isClosed()} cost, counted in bytes this thread allocates (a count, not a time):
 * a timeout storm must not build a full snapshot, with every holder's borrow stack as text, per failure.
 */
class FailurePathCostTest {

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getCurrentThreadAllocatedBytes();
    }

    /** Borrows from {@code depth} frames down, so the borrow stack leak tracing records is that deep. */
    private static Connection borrowDeep(ConnectionPool pool, int depth) throws SQLException {
        return depth == 0 ? pool.borrow() : borrowDeep(pool, depth - 1);
    }

    @Test
    void aTimedOutBorrowDoesNotRenderTheHoldersStacks() throws Exception {
        StubDatabase db = StubDatabase.reset("timeout-cost");
        int size = 100;
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(size).maxSize(size).leakTracing(true)
                .borrowTimeout(Duration.ZERO).config());
        List<Connection> held = new ArrayList<>();
        try {
            Pools.await(pool, s -> s.available() == size, size + " idle");
            for (int i = 0; i < size; i++) {
                held.add(borrowDeep(pool, 200));
            }
            for (int i = 0; i < 5; i++) { // the first ones load classes
                catchThrowableOfType(SQLTransientConnectionException.class, pool::borrow);
            }
            long before = allocated();
            SQLTransientConnectionException e = catchThrowableOfType(SQLTransientConnectionException.class,
                    pool::borrow);
            long bytes = allocated() - before;

            assertThat(e.getMessage()).contains("pool 'test': no connection available within")
                    .contains("(borrow timeout 0 ms)").contains("total=" + size).contains("borrowed=" + size)
                    .contains("waiting=").contains("default=UP(total " + size + ", borrowed " + size + ")");
            System.out.printf("failure path: one timed-out borrow with %d holders (leak tracing, 200-frame borrow"
                    + " stacks) allocated %d bytes%n", size, bytes);
            // 100 borrow stacks of 200 frames as text are megabytes; the counts the message needs are a few KB.
            assertThat(bytes).as("bytes allocated by one timed-out borrow with %d holders", size)
                    .isLessThan(256 * 1024);
        } finally {
            for (Connection c : held) {
                c.close();
            }
            pool.close();
        }
    }

    @Test
    void isClosedReadsAFlag() throws Exception {
        StubDatabase db = StubDatabase.reset("is-closed-cost");
        SlotPoolDataSource ds = SlotPoolDataSource.builder().url(db.url()).minSize(4).maxSize(4).build();
        try {
            int calls = 10_000;
            for (int i = 0; i < calls; i++) {
                assertThat(ds.isClosed()).isFalse();
            }
            long before = allocated();
            boolean any = false;
            for (int i = 0; i < calls; i++) {
                any |= ds.isClosed();
            }
            long bytes = allocated() - before;
            System.out.printf("failure path: %d isClosed() calls allocated %d bytes%n", calls, bytes);
            assertThat(any).isFalse();
            assertThat(bytes).as("bytes allocated by %d isClosed() calls", calls).isLessThan(64 * 1024);
        } finally {
            ds.close();
        }
        assertThat(ds.isClosed()).isTrue();
    }
}
