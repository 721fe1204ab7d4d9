package dev.slotpool.e2e;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.slotpool.OriginConfig;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failover table of docs/failover.md ("Measured: crash of the primary"), tried as a user would: a PostgreSQL
 * primary and its streaming standby, 20 threads of one-row UPDATE transactions on 10 connections; after
 * {@link #BEFORE} the primary stops immediately (SIGQUIT) and the standby is promoted. Three configurations, each on a fresh
 * pair: HikariCP 7.1 with a pgjdbc multi-host URL and {@code targetServerType=primary}, slotpool with the same URL as
 * one origin, and slotpool with the two servers as two origins and no other setting. Times count from the stop
 * signal; the promotion starts once the old primary's postmaster has exited. Each prints one "PRIMARY-STANDBY ..."
 * line (docs/failover.md, "Primary and standbys"); the assertions count, they never time.
 */
class PrimaryStandbyFailoverPostgresTest {

    private static final int THREADS = 20;
    private static final int CONNECTIONS = 10;
    private static final Duration BEFORE = Duration.ofMillis(2500);
    private static final Duration AFTER = Duration.ofSeconds(4);
    private static final String READ_ONLY_TRANSACTION = "25006";

    /** Driver settings every configuration gets, so a dead server is given up on in seconds, as in
     * {@link FailoverPostgresTest}. */
    private static final Map<String, String> DRIVER = Map.of("connectTimeout", "2", "socketTimeout", "3",
            "sslmode", "disable", "ApplicationName", "slotpool-primary-standby");

    @Test
    void hikariWithAMultiHostUrlTargetingThePrimary() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair()) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(pair.multiHostUrl() + "?targetServerType=primary");
            config.setUsername("postgres");
            config.setMaximumPoolSize(CONNECTIONS);
            config.setMinimumIdle(CONNECTIONS);
            config.setConnectionTimeout(5_000);
            DRIVER.forEach(config::addDataSourceProperty);
            try (HikariDataSource ds = new HikariDataSource(config)) {
                Result r = run("HikariCP 7.1 + multi-host URL, targetServerType=primary", pair, ds);
                assertThat(r.readOnlyRefusals()).as("no write reached the standby").isZero();
                assertThat(r.committedAfterOn(1)).as("writes went on on the promoted server").isPositive();
            }
        }
    }

    @Test
    void slotpoolWithTheMultiHostUrlAsOneOrigin() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair()) {
            try (SlotPoolDataSource ds = pool().origin(OriginConfig.named("pg")
                    .url(pair.multiHostUrl() + "?targetServerType=primary")).build()) {
                Result r = run("slotpool + the same multi-host URL as one origin", pair, ds);
                assertThat(r.readOnlyRefusals()).as("no write reached the standby").isZero();
                assertThat(r.committedAfterOn(1)).as("writes went on on the promoted server").isPositive();
            }
        }
    }

    @Test
    void slotpoolWithPrimaryAndStandbyAsTwoOrigins() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair()) {
            try (SlotPoolDataSource ds = pool()
                    .origin(OriginConfig.named("first").url(pgUrl(pair.port(0))))
                    .origin(OriginConfig.named("second").url(pgUrl(pair.port(1)))).build()) {
                Result r = run("slotpool, primary and standby as two origins", pair, ds);
                assertThat(r.readOnlyRefusals()).as("no write reached the standby").isZero();
                assertThat(r.committedAfterOn(1)).as("writes went on on the promoted server").isPositive();
            }
        }
    }

    /** The origins' state changes with when they were seen (System.nanoTime), for the printed story. */
    static final java.util.List<long[]> seenAt = new java.util.concurrent.CopyOnWriteArrayList<>();
    static final java.util.List<String> story = new java.util.concurrent.CopyOnWriteArrayList<>();

    private static SlotPoolBuilder pool() {
        SlotPoolBuilder b = SlotPoolDataSource.builder().name("primary-standby").username("postgres")
                .listener(new dev.slotpool.PoolListener() {
                    @Override
                    public void onEvent(dev.slotpool.PoolEvent e) {
                        if (e.type() == dev.slotpool.PoolEvent.Type.ORIGIN_STATE) {
                            seenAt.add(new long[] {System.nanoTime()});
                            story.add(e.origin() + " " + e.detail());
                        }
                    }
                })
                .minSize(CONNECTIONS).maxSize(CONNECTIONS).borrowTimeout(Duration.ofSeconds(5));
        DRIVER.forEach(b::connectionProperty);
        return b;
    }

    private static String pgUrl(int port) {
        return "jdbc:postgresql://localhost:" + port + "/postgres";
    }

    /** Runs the workload; stops server 0 and promotes server 1 after {@link #BEFORE}; stops {@link #AFTER} later. */
    private static Result run(String configuration, PgStandbyPair pair, DataSource ds) throws Exception {
        seenAt.clear();
        story.clear();
        Workload load = new Workload(ds, pair);
        try {
            load.awaitCommits(200);
            TimeUnit.MILLISECONDS.sleep(BEFORE.toMillis());
            long stopAt = System.nanoTime();
            load.failoverAt.set(stopAt);
            pair.stopAbruptly(0);
            long stoppedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopAt);
            pair.promote(1);
            long promotedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopAt);
            load.awaitCommitsOn(1, 200);
            TimeUnit.MILLISECONDS.sleep(AFTER.toMillis());
            load.stop();
            Result r = load.result(configuration, stoppedMs, promotedMs);
            System.out.println(r.line());
            for (int i = 0; i < story.size(); i++) {
                System.out.printf("  story +%d ms: %s%n", TimeUnit.NANOSECONDS.toMillis(seenAt.get(i)[0] - stopAt), story.get(i));
            }
            return r;
        } finally {
            load.stop();
        }
    }

    record Result(String configuration, long commits, long errors, long readOnlyRefusals, long errorsBefore,
                  long firstErrorMs, long lastErrorMs, long firstCommitOnNewPrimaryMs, long stoppedMs, long promotedMs,
                  Map<String, Long> errorStates, long[] commitsBeforeOn, long[] commitsAfterOn) {

        long committedAfterOn(int server) {
            return commitsAfterOn[server];
        }

        String line() {
            return String.format("PRIMARY-STANDBY %s: transactions committed %,d (before the stop: %,d on the "
                    + "primary, %,d on the standby; after: %,d on the old primary, %,d on the promoted one); errors "
                    + "%,d (%,d before the stop), of them refused as read-only (25006) %,d; error window after the "
                    + "stop: first error at %d ms, last at %d ms; first commit on the promoted server at %d ms "
                    + "(the old primary's postmaster gone at %d ms, pg_promote returned at %d ms: %d ms after the promotion); "
                    + "errors by SQLState %s",
                    configuration, commits, commitsBeforeOn[0], commitsBeforeOn[1], commitsAfterOn[0],
                    commitsAfterOn[1], errors, errorsBefore, readOnlyRefusals, firstErrorMs, lastErrorMs,
                    firstCommitOnNewPrimaryMs, stoppedMs, promotedMs, firstCommitOnNewPrimaryMs - promotedMs, errorStates);
        }
    }

    /**
     * Threads of one-row UPDATE transactions; each asks the server its port in the UPDATE's RETURNING, so a commit
     * counts on the server that took it, and records every failure with its SQLState and time.
     */
    static final class Workload {
        private final PgStandbyPair pair;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final List<Thread> threads = new ArrayList<>();
        final AtomicLong failoverAt = new AtomicLong();
        private final AtomicLong[] commitsBefore = {new AtomicLong(), new AtomicLong()};
        private final AtomicLong[] commitsAfter = {new AtomicLong(), new AtomicLong()};
        private final AtomicLong errors = new AtomicLong();
        private final AtomicLong errorsBefore = new AtomicLong();
        private final AtomicLong readOnly = new AtomicLong();
        private final LongAccumulator firstError = new LongAccumulator(Math::min, Long.MAX_VALUE);
        private final LongAccumulator lastError = new LongAccumulator(Math::max, Long.MIN_VALUE);
        private final LongAccumulator firstCommitOnNew = new LongAccumulator(Math::min, Long.MAX_VALUE);
        private final Map<String, Long> errorStates = new ConcurrentHashMap<>();

        Workload(DataSource ds, PgStandbyPair pair) {
            this(ds, pair, THREADS);
        }

        Workload(DataSource ds, PgStandbyPair pair, int threadCount) {
            this.pair = pair;
            for (int t = 0; t < threadCount; t++) {
                Thread th = new Thread(() -> run(ds), "update-" + t);
                th.setDaemon(true);
                threads.add(th);
                th.start();
            }
        }

        private void run(DataSource ds) {
            while (!stop.get()) {
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(false);
                    int port;
                    try (PreparedStatement ps = c.prepareStatement(
                            "UPDATE accounts SET balance = balance + 1 WHERE id = ? RETURNING inet_server_port()")) {
                        ps.setInt(1, 1 + ThreadLocalRandom.current().nextInt(PgStandbyPair.ROWS));
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            port = rs.getInt(1);
                        }
                    }
                    c.commit();
                    committed(port);
                } catch (SQLException e) {
                    failed(e);
                }
            }
        }

        private void committed(int port) {
            int server = port == pair.port(0) ? 0 : 1;
            long at = failoverAt.get();
            if (at == 0) {
                commitsBefore[server].incrementAndGet();
            } else {
                commitsAfter[server].incrementAndGet();
                if (server == 1) {
                    firstCommitOnNew.accumulate(System.nanoTime() - at);
                }
            }
        }

        private void failed(SQLException e) {
            errors.incrementAndGet();
            errorStates.merge(String.valueOf(e.getSQLState()), 1L, Long::sum);
            if (READ_ONLY_TRANSACTION.equals(e.getSQLState())) {
                readOnly.incrementAndGet();
            }
            long at = failoverAt.get();
            if (at == 0) {
                errorsBefore.incrementAndGet();
            } else {
                long since = System.nanoTime() - at;
                firstError.accumulate(since);
                lastError.accumulate(since);
            }
        }

        long commits() {
            return commitsBefore[0].get() + commitsBefore[1].get() + commitsAfter[0].get() + commitsAfter[1].get();
        }

        void awaitCommits(long n) {
            E2e.await(n + " commits", this::commits, c -> c >= n);
        }

        long committedAfterOn(int server) {
            return commitsAfter[server].get();
        }

        long errors() {
            return errors.get();
        }

        long readOnlyRefusals() {
            return readOnly.get();
        }

        void awaitCommitsOn(int server, long n) {
            E2e.await(n + " commits on server " + server + " after the failover", () -> commitsAfter[server].get(),
                    c -> c >= n);
        }

        void stop() throws InterruptedException {
            stop.set(true);
            for (Thread th : threads) {
                th.join(TimeUnit.SECONDS.toMillis(30));
            }
        }

        Result result(String configuration, long stoppedMs, long promotedMs) {
            return new Result(configuration, commits(), errors.get(), readOnly.get(), errorsBefore.get(),
                    millis(firstError.get()), millis(lastError.get()), millis(firstCommitOnNew.get()), stoppedMs, promotedMs,
                    new java.util.TreeMap<>(errorStates),
                    new long[] {commitsBefore[0].get(), commitsBefore[1].get()},
                    new long[] {commitsAfter[0].get(), commitsAfter[1].get()});
        }

        private static long millis(long nanos) {
            return nanos == Long.MAX_VALUE || nanos == Long.MIN_VALUE ? -1 : TimeUnit.NANOSECONDS.toMillis(nanos);
        }
    }
}
