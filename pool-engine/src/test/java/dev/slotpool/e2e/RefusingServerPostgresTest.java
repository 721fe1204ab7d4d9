package dev.slotpool.e2e;

import java.util.function.IntSupplier;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.SlotPoolDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server that refuses new sessions while the old ones are fine (docs/failover.md, "Evidence"): PostgreSQL at
 * {@code max_connections=16}. A pool (min 2, max 12, defaults otherwise) serves 3 threads; then another client
 * takes every free server session, and 9 more threads arrive, so every new connect of the pool is refused ("too
 * many clients") while the sessions it has keep answering. HikariCP 7.1 (minimumIdle 2, maximumPoolSize 12) runs
 * the same scenario against the same server, one pool after the other, in the order slotpool, HikariCP, HikariCP,
 * slotpool; each pool's better phase is compared, so a busy moment of the machine weighs on neither.
 *
 * <p>slotpool must serve with no error and close none of its sessions while the server refuses new ones (the
 * defect closed them, flapped DOWN/UP and served a fraction of HikariCP's rate). The rates are printed, not
 * asserted: a ratio of two timed phases moves with the machine's load (0.85× in a suite on a machine at load 30,
 * 1.02× alone just after), and speed is the benchmarks' to check (docs/failover.md has the measured table).
 * Each run prints one {@code REFUSING SERVER ...} line per pool; the test checks that both held the same sessions
 * when the other client took the rest.
 */
class RefusingServerPostgresTest {

    private static final int FIRST_THREADS = 3;
    private static final int ALL_THREADS = 12;
    /** Statements the first threads complete before the grab: each pool is serving when the server starts
     * refusing (a few hundred milliseconds of the 3 threads). */
    private static final int WARM_UP_STATEMENTS = 100;
    /**
     * The refusal lasts this long. The pool says "refusing new sessions" after {@code downAfterFailures} (3) refused
     * connects on the back-off from 50 ms (53300 is not a refused login, which would go to the maximum at once),
     * well under a second; the defect closed its sessions over and over all along (37 and 29 in two 6 s phases).
     * Rates are printed, not asserted.
     */
    private static final Duration MEASURED = Duration.ofSeconds(3);
    /**
     * A statement that keeps its session 5 ms, as real work does (the case served 229 statements/s): the rate
     * then measures how many sessions keep serving while the server refuses new ones. With {@code SELECT 1} it
     * measures the pools' hand-off instead, where slotpool is behind HikariCP at 12 threads on 5 connections on a
     * quiet machine (0.40×, docs/benchmarks.md).
     */
    private static final String SQL = "SELECT pg_sleep(0.005)";
    /**
     * The sessions each pool holds when the other client takes the rest: HikariCP's minimumIdle 2 keeps 2 idle on
     * top of the 3 busy, 5 in all; slotpool's minSize counts the busy ones too (docs/migrating-from-hikaricp.md), so
     * it holds the same 5 with minSize 5. Both then serve 12 threads from the same sessions while their new connects
     * are refused: with minSize 2 slotpool held 3 and served 0.68× HikariCP's 5, a difference of sessions, not of
     * serving.
     */
    private static final int SESSIONS_AT_GRAB = 5;

    private static EmbeddedPostgres server;

    @BeforeAll
    static void start() throws IOException {
        server = EmbeddedPostgres.builder().setServerConfig("max_connections", "16").start();
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aServerAtMaxConnectionsIsServedByTheSessionsThePoolHas() throws Exception {
        Phase slot1 = runSlotpool("refuse-slot-1");
        Phase hikari1 = runHikari("refuse-hikari-1");
        Phase hikari2 = runHikari("refuse-hikari-2");
        Phase slot2 = runSlotpool("refuse-slot-2");

        // Each pool's better phase: other builds on this machine only ever slow a phase down, so the better of two
        // is the closer to what the pool can do, and the order (slotpool, HikariCP, HikariCP, slotpool) gives
        // both a chance at a quiet moment.
        double slotRate = Math.max(slot1.rate(), slot2.rate());
        double hikariRate = Math.max(hikari1.rate(), hikari2.rate());
        System.out.printf("REFUSING SERVER: slotpool %.0f statements/s, HikariCP %.0f statements/s (%.2fx, each "
                + "pool's better phase)%n", slotRate, hikariRate, slotRate / hikariRate);

        for (Phase p : List.of(slot1, hikari1, hikari2, slot2)) {
            assertThat(p.grabbed).as("%s: the other client took the server's free sessions", p.name).isPositive();
            assertThat(p.refusals).as("%s: the pool's own connects were refused meanwhile", p.name).isTrue();
            assertThat(p.errors).as("%s: errors (first: %s)", p.name, p.firstError).isZero();
        }
        for (Phase p : List.of(slot1, slot2)) {
            assertThat(p.closed).as("%s: sessions the pool closed while the server refused new ones: %s", p.name,
                    p.events).isZero();
        }
        for (Phase p : List.of(slot1, hikari1, hikari2, slot2)) {
            assertThat(p.sessionsAtGrab).as("%s: sessions when the other client took the rest", p.name)
                    .isGreaterThanOrEqualTo(SESSIONS_AT_GRAB);
        }
    }

    private Phase runSlotpool(String name) throws Exception {
        Recorder events = new Recorder();
        try (SlotPoolDataSource ds = SlotPoolDataSource.builder().name(name).username("postgres")
                .url(url(name)).minSize(SESSIONS_AT_GRAB).maxSize(12).listener(events).build()) {
            Phase phase = run(name, ds, () -> ds.snapshot().total(), events);
            assertThat(phase.summaryAtEnd).as("what the pool says while the server refuses new sessions")
                    .contains("default=UP [refusing new sessions]");
            return phase;
        }
    }

    private Phase runHikari(String name) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setJdbcUrl(url(name));
        config.setUsername("postgres");
        config.setMinimumIdle(2);
        config.setMaximumPoolSize(12);
        try (HikariDataSource ds = new HikariDataSource(config)) {
            return run(name, ds, () -> ds.getHikariPoolMXBean().getTotalConnections(), null);
        }
    }

    private static String url(String app) {
        return "jdbc:postgresql://localhost:" + server.getPort() + "/postgres?sslmode=disable&ApplicationName=" + app;
    }

    /** 3 threads, then every free server session taken, then 12 threads for {@link #MEASURED}. */
    private static Phase run(String name, DataSource ds, IntSupplier poolSessions, Recorder events)
            throws Exception {
        Phase phase = new Phase(name);
        Load load = new Load(ds, phase);
        List<Connection> grabbed = new ArrayList<>();
        try {
            load.start(FIRST_THREADS);
            // HikariCP grows from its 2 idle sessions as the 3 threads ask: on a loaded machine it had 4, not 5,
            // after a 2 s warm-up. Both pools hold the same sessions at the grab, or the comparison is unfair.
            long growDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((load.served() < WARM_UP_STATEMENTS || poolSessions.getAsInt() < SESSIONS_AT_GRAB)
                    && System.nanoTime() - growDeadline < 0) {
                pause(20);
            }
            phase.sessionsAtGrab = poolSessions.getAsInt();
            grabEveryFreeSession(grabbed);
            phase.grabbed = grabbed.size();
            long closedBefore = events == null ? 0 : events.closed();
            load.measureFrom(System.nanoTime());
            load.start(ALL_THREADS - FIRST_THREADS);
            pause(MEASURED.toMillis());
            load.stopMeasuring(System.nanoTime());
            phase.sessionsAtEnd = poolSessions.getAsInt();
            phase.refusals = refused();
            if (ds instanceof SlotPoolDataSource slot) {
                phase.summaryAtEnd = slot.snapshot().summary();
            }
            if (events != null) {
                phase.closed = events.closed() - closedBefore;
                phase.events = events.all;
            }
        } finally {
            load.stop();
            assertThat(load.join(Duration.ofSeconds(30))).as("every worker of %s ended", name).isTrue();
            for (Connection c : grabbed) {
                c.close();
            }
        }
        System.out.printf("REFUSING SERVER %s: %.0f statements/s with %d sessions at the grab, %d at the end, %d errors, "
                        + "%d sessions closed by the pool, %d taken by the other client%n", name,
                phase.rate(), phase.sessionsAtGrab, phase.sessionsAtEnd, phase.errors,
                phase.closed, phase.grabbed);
        return phase;
    }

    /** The other client: plain connections until the server refuses one (SQLState 53300, "too many clients"). */
    private static void grabEveryFreeSession(List<Connection> grabbed) throws SQLException {
        while (grabbed.size() < 16) {
            try {
                grabbed.add(DriverManager.getConnection(url("other-client"), "postgres", null));
            } catch (SQLException e) {
                if ("53300".equals(e.getSQLState())) {
                    return;
                }
                throw e;
            }
        }
        throw new AssertionError("the server took 16 more sessions: max_connections is not in effect");
    }

    /** Whether a new session is refused now (the other client still holds the rest). */
    private static boolean refused() {
        try (Connection c = DriverManager.getConnection(url("refusal-check"), "postgres", null)) {
            return false;
        } catch (SQLException e) {
            return "53300".equals(e.getSQLState());
        }
    }

    private static final class Phase {
        final String name;
        long statements;
        double seconds;
        long errors;
        String firstError;
        int sessionsAtGrab;
        int sessionsAtEnd;
        int grabbed;
        boolean refusals;
        long closed;
        List<PoolEvent> events = List.of();
        String summaryAtEnd;

        Phase(String name) {
            this.name = name;
        }

        double rate() {
            return statements / seconds;
        }
    }

    /** Worker threads: borrow, run {@link #SQL}, close, with no pause; statements and errors counted from
     * {@link #measureFrom} to {@link #stopMeasuring} (a statement counts where it ended). */
    private static final class Load {
        private final DataSource ds;
        private final Phase phase;
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicBoolean measuring = new AtomicBoolean();
        private final AtomicLong statements = new AtomicLong();
        private final AtomicLong served = new AtomicLong();
        private final AtomicLong errors = new AtomicLong();
        private final AtomicReference<String> firstError = new AtomicReference<>();
        private long from;

        Load(DataSource ds, Phase phase) {
            this.ds = ds;
            this.phase = phase;
        }

        void start(int n) {
            for (int i = 0; i < n; i++) {
                Thread t = new Thread(this::loop, phase.name + "-worker-" + threads.size());
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
        }

        private void loop() {
            while (!stop.get()) {
                try (Connection c = ds.getConnection(); Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery(SQL)) {
                    rs.next();
                    served.incrementAndGet();
                    if (measuring.get()) {
                        statements.incrementAndGet();
                    }
                } catch (SQLException e) {
                    // Every error counts, the 3 first threads' too: a failure before the grab is a failure.
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, e.toString());
                }
            }
        }

        /** Statements completed since the start, measured or not. */
        long served() {
            return served.get();
        }

        void measureFrom(long nanos) {
            from = nanos;
            measuring.set(true);
        }

        void stopMeasuring(long nanos) {
            measuring.set(false);
            phase.statements = statements.get();
            phase.seconds = (nanos - from) / 1e9;
        }

        void stop() {
            stop.set(true);
        }

        boolean join(Duration limit) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (t.isAlive()) {
                    return false;
                }
            }
            phase.errors = errors.get();
            phase.firstError = firstError.get();
            return true;
        }
    }

    /** The pool's events; counts its closes. */
    private static final class Recorder implements PoolListener {
        final List<PoolEvent> all = new CopyOnWriteArrayList<>();

        @Override
        public void onEvent(PoolEvent e) {
            all.add(e);
        }

        long closed() {
            return all.stream().filter(e -> e.type() == PoolEvent.Type.CLOSED).count();
        }
    }

    private static void pause(long millis) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
    }
}
