package dev.slotpool.e2e;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.pooler.PgBouncerAdmin;
import dev.slotpool.testsupport.PgBouncerServer;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Helpers shared by the end-to-end tests: polling with a deadline for asynchronous outcomes (pool threads,
 * backends exiting), a listener that records what the pool reported, and the PgBouncer tests' PgBouncer and its
 * admin console. Public for the fault tests ({@code dev.slotpool.faults}).
 */
public final class E2e {

    /** Long enough for any pool or server reaction on a slow CI machine; a condition that never holds fails. */
    static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final long POLL_MILLIS = 20;
    /** PAUSE answers once every server session is released: a transaction of the tests' takes milliseconds. */
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

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

    /**
     * A PgBouncer named {@code name} in front of the server on {@code serverPort} as the PgBouncer tests run it
     * (docs/poolers.md, "In the suite"): the launcher's defaults, user {@code postgres} (trusted) on the admin
     * console, {@code server_check_delay = 0}, and {@code settings} added to or replacing those; not started.
     */
    static PgBouncerServer pgBouncer(String name, int serverPort, Map<String, String> settings) throws IOException {
        return PgBouncerServer.builder(name, serverPort).adminUser("postgres").setting("server_check_delay", "0")
                .settings(settings).build();
    }

    /** Runs an admin console command ({@code SHOW POOLS}, {@code PAUSE postgres}, ...) as postgres; its rows. */
    static List<Map<String, String>> admin(PgBouncerServer bouncer, String command) throws IOException, SQLException {
        return console(bouncer).run(command, ADMIN_TIMEOUT);
    }

    /** The admin console, read as the pool reads it (docs/poolers.md, "Sizing a fleet"). */
    static PgBouncerAdmin console(PgBouncerServer bouncer) {
        return PgBouncerAdmin.at(bouncer.adminUrl("postgres"));
    }

    /** The {@code SHOW POOLS} row of database postgres, user postgres (empty if PgBouncer has none yet). */
    static Map<String, String> pool(PgBouncerServer bouncer) throws IOException, SQLException {
        for (Map<String, String> row : admin(bouncer, "SHOW POOLS")) {
            if ("postgres".equals(row.get("database")) && "postgres".equals(row.get("user"))) {
                return row;
            }
        }
        return Map.of();
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
