package dev.slotpool.e2e;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Helpers shared by the end-to-end tests: polling with a deadline for asynchronous outcomes (pool threads,
 * backends exiting) and a listener that records what the pool reported. Public for the fault tests
 * ({@code dev.slotpool.faults}).
 */
public final class E2e {

    /** Long enough for any pool or server reaction on a slow CI machine; a condition that never holds fails. */
    static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final long POLL_MILLIS = 20;

    private E2e() {
    }

    /** Polls {@code ds.snapshot()} until it satisfies {@code condition}; fails with the last snapshot after
     * {@link #DEADLINE}. */
    public static PoolSnapshot awaitSnapshot(SlotPoolDataSource ds, String what, Predicate<PoolSnapshot> condition) {
        return await(what, ds::snapshot, condition);
    }

    /** Polls {@code probe} until its value satisfies {@code condition}; fails with the last value (or the last
     * exception) after {@link #DEADLINE}. */
    public static <T> T await(String what, Callable<T> probe, Predicate<? super T> condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        T last = null;
        Exception lastError = null;
        while (true) {
            try {
                last = probe.call();
                lastError = null;
                if (condition.test(last)) {
                    return last;
                }
            } catch (Exception e) {
                lastError = e;
            }
            if (System.nanoTime() - deadline > 0) {
                AssertionError failure = new AssertionError("timed out after " + DEADLINE.toSeconds()
                        + " s waiting for: " + what + "; last value: " + describe(last));
                if (lastError != null) {
                    failure.initCause(lastError);
                }
                throw failure;
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for: " + what, e);
            }
        }
    }

    private static String describe(Object value) {
        return value instanceof PoolSnapshot s ? s.summary() + " " + s : String.valueOf(value);
    }

    /** Runs a query that returns one row with one column. */
    static String queryString(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next()) {
                throw new AssertionError("no row from: " + sql);
            }
            return rs.getString(1);
        }
    }

    static long queryLong(Connection c, String sql) throws SQLException {
        return Long.parseLong(queryString(c, sql));
    }

    /** Records every event; also remembers, per borrowing thread, the origin of its latest borrow (the pool
     * calls {@link #onBorrow} on the borrowing thread, just before it hands the connection out). */
    static final class RecordingListener implements PoolListener {

        final List<PoolEvent> events = new CopyOnWriteArrayList<>();
        private final ThreadLocal<String> lastBorrowOrigin = new ThreadLocal<>();

        @Override
        public void onEvent(PoolEvent event) {
            events.add(event);
        }

        @Override
        public void onBorrow(String origin, long waitNanos) {
            lastBorrowOrigin.set(origin);
        }

        /** The origin the pool reported for this thread's latest borrow. */
        String lastBorrowOrigin() {
            return lastBorrowOrigin.get();
        }

        long closed(CloseReason reason) {
            return events.stream()
                    .filter(e -> e.type() == PoolEvent.Type.CLOSED && e.reason() == reason)
                    .count();
        }
    }
}
