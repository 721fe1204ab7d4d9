package dev.slotpool.e2e;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.ServerRole;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads to standbys on a real primary and streaming standby (docs/failover.md, "Reads to standbys"): read-only
 * transactions through {@link SlotPoolDataSource#forReads()} land on the standby and writes on the primary; a
 * standby whose replay is paused while the primary writes takes no reads once its lag is beyond the bound, and
 * again once it caught up; a standby stopped abruptly takes no reads and they go to the primary. Each prints one
 * "READS ..." line; the assertions count. The lag scenario runs also with HikariCP 7.1 and a second pool for reads
 * on pgjdbc's multi-host URL ({@code targetServerType=preferSecondary}); both keep replay paused for {@link #PAUSE}
 * and count the reads either serves from the standby while its lag is beyond the bound, and the greatest lag a read
 * there saw. HikariCP's numbers are printed, not asserted.
 */
class ReadsToStandbysPostgresTest {

    private static final int READERS = 6;
    private static final int WRITERS = 2;
    /** The lag bound of the lag scenario; a read on the standby counts as stale beyond it. */
    private static final Duration LAG_BOUND = Duration.ofMillis(500);
    /**
     * How long both lag scenarios keep the standby's replay paused at least, so that slotpool's and HikariCP's stale
     * reads are counted over windows of the same length: longer than the bound plus the role watch's second.
     */
    private static final Duration PAUSE = Duration.ofSeconds(3);

    /** One event with the time it was seen. */
    private record Seen(long at, String text) {
    }

    private static SlotPoolDataSource pool(PgStandbyPair pair, List<Seen> events, Duration maxLag) {
        return SlotPoolDataSource.builder().name("reads").username("postgres").minSize(4).maxSize(10)
                .connectionProperty("connectTimeout", "2").connectionProperty("socketTimeout", "3")
                .borrowTimeout(Duration.ofSeconds(5)).readsToStandbys(true).maxReplicaLag(maxLag)
                .listener(new PoolListener() {
                    @Override
                    public void onEvent(PoolEvent e) {
                        if (e.type() == PoolEvent.Type.ORIGIN_STATE) {
                            events.add(new Seen(System.nanoTime(), e.origin() + " " + e.detail()));
                        }
                    }
                })
                .origin(OriginConfig.named("primary").url("jdbc:postgresql://localhost:" + pair.port(0) + "/postgres"))
                .origin(OriginConfig.named("standby").url("jdbc:postgresql://localhost:" + pair.port(1) + "/postgres"))
                .build();
    }

    /** Readers in read-only transactions through the read view, writers through the pool; counts where each
     * landed, asked of the server inside the transaction. */
    static final class Load {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final List<Thread> threads = new ArrayList<>();
        final AtomicLong readsOnStandby = new AtomicLong();
        /** Reads on the standby whose replica lag, asked in the read's transaction, was beyond {@link #LAG_BOUND}. */
        final AtomicLong staleReads = new AtomicLong();
        /** The greatest replica lag a read on the standby saw, in ms: how old the data it read could be. */
        final AtomicLong maxLagSeenMs = new AtomicLong();
        final AtomicLong readsOnPrimary = new AtomicLong();
        final AtomicLong writesOnPrimary = new AtomicLong();
        final AtomicLong writesOnStandby = new AtomicLong();
        final AtomicLong readErrors = new AtomicLong();
        final AtomicLong writeErrors = new AtomicLong();
        final AtomicLong lastReadOnStandby = new AtomicLong();
        /** Set once the pool said the standby takes no reads: a read begun after that must not land there. */
        volatile boolean standbyOut;
        final AtomicLong readsOnStandbyBegunWhileOut = new AtomicLong();
        final Map<String, Long> errorStates = new ConcurrentHashMap<>();
        final long startedAt = System.nanoTime();
        /** When the first write committed (nanoTime); 0 until then. */
        final AtomicLong firstWriteAt = new AtomicLong();

        Load(DataSource writes, DataSource reads) {
            for (int t = 0; t < READERS + WRITERS; t++) {
                boolean reader = t < READERS;
                Thread th = new Thread(() -> run(reader ? reads : writes, reader), (reader ? "read-" : "write-") + t);
                th.setDaemon(true);
                threads.add(th);
                th.start();
            }
        }

        private void run(DataSource ds, boolean reader) {
            while (!stop.get()) {
                boolean begunWhileOut = standbyOut; // read before the borrow begins
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(false);
                    boolean inRecovery;
                    long lagMs = 0;
                    // The lag as the pool reads it (docs/failover.md, "Reads to standbys"): the age of the last
                    // transaction replayed, only while WAL received is not replayed yet; null on a primary.
                    try (PreparedStatement ps = c.prepareStatement(reader
                            ? "SELECT pg_is_in_recovery(),"
                                    + " CASE WHEN pg_last_wal_receive_lsn() > pg_last_wal_replay_lsn() THEN"
                                    + " (extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000)::bigint"
                                    + " ELSE 0 END, balance FROM accounts WHERE id = ?"
                            : "UPDATE accounts SET balance = balance + 1 WHERE id = ? RETURNING pg_is_in_recovery()")) {
                        ps.setInt(1, 1 + ThreadLocalRandom.current().nextInt(PgStandbyPair.ROWS));
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            inRecovery = rs.getBoolean(1);
                            if (reader) {
                                lagMs = rs.getLong(2);
                            }
                        }
                    }
                    c.commit();
                    if (reader && inRecovery) {
                        readsOnStandby.incrementAndGet();
                        lastReadOnStandby.set(System.nanoTime());
                        maxLagSeenMs.accumulateAndGet(lagMs, Math::max);
                        if (lagMs > LAG_BOUND.toMillis()) {
                            staleReads.incrementAndGet();
                        }
                        if (begunWhileOut) {
                            readsOnStandbyBegunWhileOut.incrementAndGet();
                        }
                    } else if (reader) {
                        readsOnPrimary.incrementAndGet();
                    } else {
                        (inRecovery ? writesOnStandby : writesOnPrimary).incrementAndGet();
                        firstWriteAt.compareAndSet(0, System.nanoTime());
                    }
                } catch (SQLException e) {
                    (reader ? readErrors : writeErrors).incrementAndGet();
                    errorStates.merge(String.valueOf(e.getSQLState()), 1L, Long::sum);
                }
            }
        }

        long reads() {
            return readsOnStandby.get() + readsOnPrimary.get();
        }

        /** Waits until {@code n} more reads committed than now. */
        void awaitReads(long n) {
            long target = reads() + n;
            E2e.await(n + " more reads", this::reads, r -> r >= target);
        }

        /** Waits for the first committed write; fails at once, with the errors, once a write failed. */
        void awaitAWrite() {
            E2e.await("a write committed", () -> {
                assertThat(writeErrors.get()).as(errors()).isZero();
                return writesOnPrimary.get() + writesOnStandby.get();
            }, n -> n > 0);
        }

        /** The errors so far, for an assertion that there are none. */
        String errors() {
            return readErrors.get() + " reads and " + writeErrors.get() + " writes failed, by SQLState: " + errorStates;
        }

        /** Milliseconds from the load's start to its first committed write. */
        long firstWriteMillis() {
            return millisSince(startedAt, firstWriteAt.get());
        }

        void stop() throws InterruptedException {
            stop.set(true);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                assertThat(t.isAlive()).as("%s ended", t.getName()).isFalse();
            }
        }
    }

    private static long millisSince(long start, long at) {
        return TimeUnit.NANOSECONDS.toMillis(at - start);
    }

    /** Sleeps until {@link #PAUSE} has passed since {@code pausedAt} (nanoTime); at once if it has. */
    private static void sleepOutThePause(long pausedAt) throws InterruptedException {
        long left = PAUSE.toNanos() - (System.nanoTime() - pausedAt);
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    private static long lagNowMs(PgStandbyPair pair) throws SQLException {
        return Long.parseLong(pair.query(1, "SELECT (extract(epoch FROM now() - pg_last_xact_replay_timestamp())"
                + " * 1000)::bigint"));
    }

    /**
     * Waits until reads land on the standby now: at the start of the load a new connection often reads the
     * standby's lag as unknown (WAL received, no transaction replayed since it started), and it takes no reads until
     * the watch's next reading.
     */
    private static void awaitReadsOnStandbyNow(Load load, SlotPoolDataSource ds, PgStandbyPair pair,
                                               List<Seen> events) {
        E2e.await("reads on the standby now", () -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime()
                - load.lastReadOnStandby.get()) + " ms since the last read on it; the standby's replay: "
                + pair.query(1, "SELECT pg_last_wal_receive_lsn() || ' received, ' || pg_last_wal_replay_lsn()"
                        + " || ' replayed, last at ' || coalesce(pg_last_xact_replay_timestamp()::text, 'none')")
                + "; " + ds.snapshot() + "; events " + events,
                t -> System.nanoTime() - load.lastReadOnStandby.get() < TimeUnit.MILLISECONDS.toNanos(100));
    }

    /**
     * Waits until the standby replayed a transaction, before a test pauses its replay. The lag has an age only from
     * then on: with none replayed yet (the writers' first commit may not have reached the standby when the readers'
     * first reads are done) a paused replay leaves the lag unknown for good, which takes the standby out of
     * slotpool's reads for another reason than its lag, and never lets the lag grow past the bound.
     */
    private static void awaitATransactionReplayed(PgStandbyPair pair) {
        E2e.await("a transaction replayed on the standby",
                () -> pair.query(1, "SELECT pg_last_xact_replay_timestamp()::text"), t -> t != null);
    }

    /** The first event after {@code since} (nanoTime) that starts with {@code prefix}. */
    private static Seen awaitEvent(List<Seen> events, long since, String what, String prefix) {
        return E2e.await(what, () -> events.stream().filter(e -> e.at - since > 0 && e.text.startsWith(prefix))
                .findFirst().orElse(null), e -> e != null);
    }

    @Test
    void readsOnTheStandbyWritesOnThePrimaryAndNoReadsWhileItLagsBeyondTheBound() throws Exception {
        List<Seen> events = new CopyOnWriteArrayList<>();
        try (PgStandbyPair pair = new PgStandbyPair();
             SlotPoolDataSource ds = pool(pair, events, LAG_BOUND)) {
            E2e.awaitSnapshot(ds, "the standby kept for reads, with connections", s -> s.origin("standby")
                    .orElseThrow().role() == ServerRole.STANDBY && s.origin("standby").orElseThrow().total() > 0);
            Load load = new Load(ds, ds.forReads());
            try {
                load.awaitReads(2_000);
                awaitReadsOnStandbyNow(load, ds, pair, events);
                long onStandby = load.readsOnStandby.get();
                long onPrimary = load.readsOnPrimary.get();
                assertThat(onStandby).as("reads land on the standby").isPositive();
                assertThat(load.readErrors.get() + load.writeErrors.get()).as(load.errors()).isZero();
                // The writers' first commit may come after the first 2,000 reads.
                load.awaitAWrite();
                assertThat(load.writesOnStandby.get()).isZero();
                assertThat(ds.snapshot().origin("standby").orElseThrow().state()).isEqualTo(OriginState.UP);

                awaitATransactionReplayed(pair);
                // Replay paused while the primary writes: the standby's lag grows past the bound.
                long pausedAt = System.nanoTime();
                long staleBefore = load.staleReads.get();
                pair.pauseReplay(1);
                Seen out = awaitEvent(events, pausedAt, "the standby takes no reads",
                        "standby takes no reads: replica lag");
                assertThat(out.text).as("out of reads for a lag beyond the bound").matches(".*replica lag \\d+ ms.*");
                // A read borrowed before the event may still end on the standby; none begun after it may.
                load.standbyOut = true;
                load.awaitReads(2_000);
                load.standbyOut = false;
                assertThat(load.readsOnStandbyBegunWhileOut.get())
                        .as("reads begun after the event on the lagging standby")
                        .isZero();
                sleepOutThePause(pausedAt);
                long lagMs = lagNowMs(pair);
                long stale = load.staleReads.get() - staleBefore;
                long maxLagSeen = load.maxLagSeenMs.get();
                pair.resumeReplay(1);
                long resumedAt = System.nanoTime();
                Seen back = awaitEvent(events, out.at, "the standby takes reads again", "standby takes reads");
                long before = load.readsOnStandby.get();
                load.awaitReads(2_000);
                assertThat(load.readsOnStandby.get()).as("reads back on the standby").isGreaterThan(before);
                assertThat(load.writesOnStandby.get()).isZero();
                assertThat(load.readErrors.get() + load.writeErrors.get()).as(load.errors()).isZero();
                System.out.printf("READS steady: %,d reads on the standby, %,d on the primary (%d readers, %d "
                                + "writers, 10 connections, the first write %d ms after the load began); writes %,d "
                                + "on the primary, 0 on the standby, 0 errors. "
                                + "Lag bound 500 ms: replay paused -> no reads %d ms later (%s), %,d reads on the "
                                + "primary meanwhile; resumed %d ms after the pause, at a lag of %d ms -> reads %d ms "
                                + "later; reads on the standby beyond the bound from the pause to the resume (stale): "
                                + "%,d; the greatest lag a read on the standby saw: %d ms%n",
                        onStandby, onPrimary, READERS, WRITERS, load.firstWriteMillis(), load.writesOnPrimary.get(),
                        millisSince(pausedAt, out.at), out.text, 2_000, millisSince(pausedAt, resumedAt), lagMs,
                        millisSince(resumedAt, back.at), stale, maxLagSeen);
            } finally {
                load.stop();
            }
        }
    }

    /** A HikariCP pool on pgjdbc's multi-host URL; HikariCP routes reads with a second one. */
    private static HikariDataSource hikari(PgStandbyPair pair, String targetServerType, int size, boolean readOnly) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(pair.multiHostUrl() + "?targetServerType=" + targetServerType);
        config.setUsername("postgres");
        config.setMaximumPoolSize(size);
        config.setReadOnly(readOnly);
        config.setConnectionTimeout(5_000);
        config.addDataSourceProperty("connectTimeout", "2");
        config.addDataSourceProperty("socketTimeout", "3");
        return new HikariDataSource(config);
    }

    @Test
    void hikariWithASecondPoolForReadsWhileTheStandbyLagsBeyondTheBound() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair();
             HikariDataSource writes = hikari(pair, "primary", 4, false);
             HikariDataSource reads = hikari(pair, "preferSecondary", 6, true)) {
            Load load = new Load(writes, reads);
            try {
                load.awaitReads(2_000);
                long onStandby = load.readsOnStandby.get();
                long onPrimary = load.readsOnPrimary.get();
                load.awaitAWrite();
                awaitATransactionReplayed(pair);
                long pausedAt = System.nanoTime();
                long staleBefore = load.staleReads.get();
                pair.pauseReplay(1);
                sleepOutThePause(pausedAt);
                long lagMs = lagNowMs(pair);
                assertThat(lagMs).as("the standby's lag when resumed").isGreaterThan(LAG_BOUND.toMillis());
                long stale = load.staleReads.get() - staleBefore;
                long maxLagSeen = load.maxLagSeenMs.get();
                pair.resumeReplay(1);
                long resumedAt = System.nanoTime();
                System.out.printf("READS HikariCP 7.1, a pool on targetServerType=primary (4) and one for reads on "
                                + "preferSecondary (6): steady %,d reads on the standby, %,d on the primary, the first "
                                + "write %d ms after the load began; replay "
                                + "paused, bound %d ms; resumed %d ms after the pause, at a lag of %d ms; reads on "
                                + "the standby beyond the bound from the pause to the resume (stale): %,d; the "
                                + "greatest lag a read on the standby saw: %d ms; errors %d reads, %d writes%n",
                        onStandby, onPrimary, load.firstWriteMillis(), LAG_BOUND.toMillis(),
                        millisSince(pausedAt, resumedAt), lagMs, stale,
                        maxLagSeen, load.readErrors.get(), load.writeErrors.get());
            } finally {
                load.stop();
            }
        }
    }

    @Test
    void aStandbyStoppedTakesNoReadsAndReadsGoToThePrimary() throws Exception {
        List<Seen> events = new CopyOnWriteArrayList<>();
        try (PgStandbyPair pair = new PgStandbyPair();
             SlotPoolDataSource ds = pool(pair, events, Duration.ofSeconds(5))) {
            E2e.awaitSnapshot(ds, "the standby kept for reads, with connections", s -> s.origin("standby")
                    .orElseThrow().role() == ServerRole.STANDBY && s.origin("standby").orElseThrow().total() > 0);
            Load load = new Load(ds, ds.forReads());
            try {
                load.awaitReads(2_000);
                awaitReadsOnStandbyNow(load, ds, pair, events);
                int standbyConnections = ds.snapshot().origin("standby").orElseThrow().total();
                long stoppedAt = System.nanoTime();
                pair.stopAbruptly(1);
                long stopped = System.nanoTime();
                Seen out = E2e.await("the standby takes no reads or is down", () -> events.stream()
                        .filter(e -> e.at - stoppedAt > 0 && (e.text.startsWith("standby takes no reads")
                                || e.text.startsWith("standby UP -> DOWN"))).findFirst().orElse(null), e -> e != null);
                load.awaitReads(200);
                long errorsAtOut = load.readErrors.get();
                long standbyAfterOut = load.readsOnStandby.get();
                load.awaitReads(3_000);
                assertThat(load.readsOnStandby.get()).as("no read on the stopped standby")
                        .isEqualTo(standbyAfterOut);
                assertThat(load.readErrors.get()).as("no read failed once it was out").isEqualTo(errorsAtOut);
                assertThat(errorsAtOut).as("only reads on the standby's connections at the stop failed")
                        .isLessThanOrEqualTo(standbyConnections + READERS);
                assertThat(load.writeErrors.get()).isZero();
                assertThat(load.writesOnStandby.get()).isZero();
                System.out.printf("READS standby stopped (immediate shutdown, %d ms): %d reads failed (%s), all on "
                                + "its %d connections; out of reads %d ms after the stop (%s); then %,d reads on "
                                + "the primary, 0 errors; writes 0 errors%n",
                        millisSince(stoppedAt, stopped), errorsAtOut, load.errorStates, standbyConnections,
                        millisSince(stoppedAt, out.at), out.text, 3_000);
            } finally {
                load.stop();
            }
        }
    }
}
