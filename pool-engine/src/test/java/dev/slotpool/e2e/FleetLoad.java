package dev.slotpool.e2e;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;

/**
 * The fleet workload of docs/poolers.md: several pools (simulated app instances) with a few threads each, every
 * transaction running three prepared statements as an ORM does (a read, an update, an insert: 1, 2 and 2
 * parameters of different types, so a statement bound to another's parameters fails), through whatever sits in
 * front of the database. Counts committed and failed transactions, and each failure's message with its numbers
 * masked ({@code S_12} becomes {@code S_n}), so a run prints what failed.
 */
final class FleetLoad {

    static final int ACCOUNTS = 1000;

    private final List<? extends DataSource> pools;
    private final int threadsPerPool;
    private final LongAdder committed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    /** When each failed transaction asked for its connection (System.nanoTime). */
    private final ConcurrentLinkedQueue<Long> failedStarts = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();
    private long startedAt;
    private long stoppedAt;

    FleetLoad(List<? extends DataSource> pools, int threadsPerPool) {
        this.pools = pools;
        this.threadsPerPool = threadsPerPool;
    }

    /** Creates the two tables (through a plain connection to the server, not the pooler). */
    static void createSchema(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS fleet_history");
            st.execute("DROP TABLE IF EXISTS fleet_account");
            st.execute("CREATE TABLE fleet_account (id int PRIMARY KEY, balance bigint NOT NULL)");
            st.execute("CREATE TABLE fleet_history (account int NOT NULL, amount bigint NOT NULL, note text)");
            st.execute("INSERT INTO fleet_account SELECT g, 0 FROM generate_series(1, " + ACCOUNTS + ") g");
        }
    }

    /** Starts every pool's threads. */
    FleetLoad start() {
        startedAt = System.nanoTime();
        for (int p = 0; p < pools.size(); p++) {
            DataSource ds = pools.get(p);
            for (int t = 0; t < threadsPerPool; t++) {
                Thread th = new Thread(() -> loop(ds), "fleet-" + p + "-" + t);
                th.setDaemon(true);
                threads.add(th);
                th.start();
            }
        }
        return this;
    }

    /** Runs for {@code length}, then stops and joins every thread. */
    FleetLoad runFor(Duration length) throws InterruptedException {
        start();
        Thread.sleep(length.toMillis());
        return stopAndJoin();
    }

    /** Stops the threads after their current transaction and waits for them. */
    FleetLoad stopAndJoin() throws InterruptedException {
        stop.set(true);
        stoppedAt = System.nanoTime();
        for (Thread th : threads) {
            th.join(Duration.ofMinutes(1).toMillis());
            if (th.isAlive()) {
                throw new AssertionError(th.getName() + " did not finish its transaction within a minute");
            }
        }
        return this;
    }

    long committed() {
        return committed.sum();
    }

    long failed() {
        return failed.sum();
    }

    /** Failed transactions that asked for their connection after {@code nanoTime} (System.nanoTime): not in flight
     * at that moment. */
    long failedStartedAfter(long nanoTime) {
        return failedStarts.stream().filter(t -> t - nanoTime > 0).count();
    }

    /** Each failure message (numbers masked) and how often it was seen, most frequent first. */
    Map<String, Long> failures() {
        Map<String, Long> sorted = new TreeMap<>();
        failures.forEach((k, v) -> sorted.put(k, v.sum()));
        return sorted;
    }

    /** One line for the test output and docs/poolers.md. */
    String summary(String label) {
        double seconds = (stoppedAt - startedAt) / 1e9;
        return String.format("FLEET %s: committed %d in %.1f s (%.0f tx/s), failed %d%s", label, committed(),
                seconds, committed() / seconds, failed(), failed() == 0 ? "" : " " + failures());
    }

    private void loop(DataSource ds) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!stop.get()) {
            int id = 1 + random.nextInt(ACCOUNTS);
            long amount = random.nextInt(1, 100);
            long start = System.nanoTime();
            try {
                transaction(ds, id, amount);
                committed.increment();
            } catch (SQLException | RuntimeException e) {
                failedStarts.add(start);
                failed.increment();
                failures.computeIfAbsent(mask(e), k -> new LongAdder()).increment();
            }
        }
    }

    private static void transaction(DataSource ds, int id, long amount) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try {
                try (PreparedStatement read = c.prepareStatement("SELECT balance FROM fleet_account WHERE id = ?")) {
                    read.setInt(1, id);
                    try (ResultSet rs = read.executeQuery()) {
                        if (!rs.next()) {
                            throw new SQLException("account " + id + " not found");
                        }
                    }
                }
                try (PreparedStatement update = c.prepareStatement(
                        "UPDATE fleet_account SET balance = balance + ? WHERE id = ?")) {
                    update.setLong(1, amount);
                    update.setInt(2, id);
                    if (update.executeUpdate() != 1) {
                        throw new SQLException("account " + id + " not updated");
                    }
                }
                try (PreparedStatement insert = c.prepareStatement(
                        "INSERT INTO fleet_history (account, amount, note) VALUES (?, ?, ?)")) {
                    insert.setInt(1, id);
                    insert.setLong(2, amount);
                    insert.setString(3, "fleet");
                    insert.executeUpdate();
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                try {
                    c.rollback();
                } catch (SQLException ignored) {
                    // the connection may be the broken part; the pool decides what to do with it
                }
                throw e;
            }
            // No setAutoCommit(true) afterwards: both pools restore auto-commit at return, and a finally block
            // that threw on a closed connection would hide the error that failed the transaction.
        }
    }

    private static String mask(Throwable e) {
        String m = e.getClass().getSimpleName() + ": " + e.getMessage();
        int nl = m.indexOf('\n');
        if (nl >= 0) {
            m = m.substring(0, nl);
        }
        return m.replaceAll("\\d+", "n");
    }

    /** Counts, while running, the most server sessions seen at once (pg_stat_activity, the given application). */
    static final class SessionSampler {
        private final AtomicLong max = new AtomicLong();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final Thread thread;

        SessionSampler(java.util.concurrent.Callable<Long> count) {
            thread = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        long n = count.call();
                        max.accumulateAndGet(n, Math::max);
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        // a sample missed; the next one counts
                    }
                }
            }, "session-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        long stopAndMax() throws InterruptedException {
            stop.set(true);
            thread.join(60_000);
            return max.get();
        }
    }
}
