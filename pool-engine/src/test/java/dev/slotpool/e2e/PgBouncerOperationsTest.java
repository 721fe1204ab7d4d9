package dev.slotpool.e2e;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.Pooler;
import dev.slotpool.PoolerView;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.PgBouncerServer;
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
import java.util.Map;

import static dev.slotpool.e2e.E2e.pgBouncer;
import static dev.slotpool.e2e.E2e.admin;
import static dev.slotpool.e2e.E2e.pool;
import static dev.slotpool.e2e.E2e.await;
import static dev.slotpool.e2e.E2e.awaitSnapshot;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A PgBouncer tier's operations under load, with {@code pooler(TRANSACTION)} and pgjdbc's defaults (docs/poolers.md,
 * "Operations"): PAUSE/RESUME, a rolling restart of two PgBouncers that are two origins of the pool, and 20 pools
 * of 5 behind {@code default_pool_size = 10}. Every scenario asserts 0 failed transactions; each prints one
 * {@code FLEET ...} line.
 */
class PgBouncerOperationsTest {

    /** Long enough that idle connections close within a drain, short enough that a borrowed one is returned
     * (a transaction takes milliseconds) before the drain would abort it. */
    private static final Duration DRAIN = Duration.ofSeconds(2);
    private static final Duration RUN = Duration.ofSeconds(3);

    private static EmbeddedPostgres server;

    @BeforeAll
    static void start() throws IOException, SQLException {
        PgBouncerServer.binary();
        server = EmbeddedPostgres.builder().start();
        try (Connection c = direct()) {
            FleetLoad.createSchema(c);
        }
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private static Connection direct() throws SQLException {
        return DriverManager.getConnection(server.getJdbcUrl("postgres", "postgres"));
    }

    @Test
    void pauseAndResumeUnderLoadFailNoTransaction() throws Exception {
        try (PgBouncerServer bouncer = pgBouncer("pause", server.getPort(), Map.of("default_pool_size", "4")).start();
             Fleet fleet = new Fleet(5, i -> SlotPoolDataSource.builder().name("pause-" + i)
                     .url(bouncer.url("postgres")).pooler(Pooler.TRANSACTION).minSize(4).maxSize(4).build())) {
            FleetLoad load = new FleetLoad(fleet.pools, 4).start();
            await("transactions committed", load::committed, n -> n > 100);
            admin(bouncer, "PAUSE postgres"); // returns once every server session is released
            long atPause = load.committed();
            // Most of the 20 threads hold a transaction that waits: the pause is seen, not a moment's blip.
            await("clients waiting on the paused database", () -> waiting(bouncer), w -> w >= 10);
            // Printed, not asserted: a commit that returned just after PAUSE did is counted here.
            long duringPause = load.committed() - atPause;
            admin(bouncer, "RESUME postgres");
            long atResume = load.committed();
            await("transactions after RESUME", load::committed, n -> n > atResume + 100);
            load.stopAndJoin();
            System.out.println(load.summary("PAUSE/RESUME (committed while paused: " + duringPause + ")"));
            assertThat(load.failed()).as("failed transactions: %s", load.failures()).isZero();
        }
    }

    @Test
    void aRollingRestartOfTwoPgBouncersLosesNoTransaction() throws Exception {
        try (PgBouncerServer a = pgBouncer("roll-a", server.getPort(), Map.of("default_pool_size", "4")).start();
             PgBouncerServer b = pgBouncer("roll-b", server.getPort(), Map.of("default_pool_size", "4")).start();
             Fleet fleet = new Fleet(2, i -> SlotPoolDataSource.builder().name("roll-" + i)
                     .pooler(Pooler.TRANSACTION).minSize(4).maxSize(8)
                     .origin(OriginConfig.named("bouncer-a").url(a.url("postgres")))
                     .origin(OriginConfig.named("bouncer-b").url(b.url("postgres"))).build())) {
            FleetLoad load = new FleetLoad(fleet.pools, 6).start();
            await("transactions committed", load::committed, n -> n > 100);
            int restarts = 0;
            for (PgBouncerServer bouncer : List.of(a, b)) {
                String origin = bouncer == a ? "bouncer-a" : "bouncer-b";
                for (SlotPoolDataSource ds : fleet.pools) {
                    ds.drain(origin, DRAIN);
                }
                for (SlotPoolDataSource ds : fleet.pools) {
                    awaitSnapshot(ds, origin + " drained and empty", s -> origin(s, origin).state() == OriginState.DOWN
                            && origin(s, origin).total() == 0);
                }
                bouncer.restart();
                restarts++;
                for (SlotPoolDataSource ds : fleet.pools) {
                    ds.markUp(origin);
                }
                long before = load.committed();
                for (SlotPoolDataSource ds : fleet.pools) {
                    awaitSnapshot(ds, origin + " serving again", s -> origin(s, origin).borrows() > 0
                            && origin(s, origin).total() > 0);
                }
                await("transactions after the restart", load::committed, n -> n > before + 100);
            }
            load.stopAndJoin();
            System.out.println(load.summary("rolling restart of 2 PgBouncers (" + restarts + " restarts)"));
            assertThat(load.failed()).as("failed transactions: %s", load.failures()).isZero();
        }
    }

    @Test
    void twentyPoolsOfFiveShareTenServerSessions() throws Exception {
        // One probe connection throughout: a backend ends a moment after its client closes, so a probe per sample
        // would count the previous sample's; likewise the other scenarios' PgBouncers' server sessions.
        try (Connection probe = direct()) {
            await("no server session left from other scenarios", () -> serverSessions(probe), n -> n == 0);
            runTwentyPools(probe);
        }
    }

    private void runTwentyPools(Connection probe) throws Exception {
        try (PgBouncerServer bouncer = pgBouncer("twenty", server.getPort(), Map.of("default_pool_size", "10",
                "max_client_conn", "200")).start();
             Fleet fleet = new Fleet(20, i -> SlotPoolDataSource.builder().name("twenty-" + i)
                     .origin(OriginConfig.named("bouncer").url(bouncer.url("postgres"))
                             .poolerAdminUrl(bouncer.adminUrl("postgres")))
                     .pooler(Pooler.TRANSACTION).minSize(5).maxSize(5).housekeepingPeriod(Duration.ofMillis(200))
                     .build())) {
            FleetLoad.SessionSampler sessions = new FleetLoad.SessionSampler(() -> serverSessions(probe));
            FleetLoad load = new FleetLoad(fleet.pools, 5).runFor(RUN);
            long most = sessions.stopAndMax();
            // The fleet's arithmetic as one instance sees it: every instance's clients on the pooler's sessions.
            PoolerView view = awaitSnapshot(fleet.pools.get(0), "the pooler's view of all 100 clients",
                    s -> s.origins().get(0).pooler() != null && s.origins().get(0).pooler().clientsActive() == 100)
                    .origins().get(0).pooler();
            System.out.println(load.summary("20 pools of 5 behind default_pool_size=10 (most server sessions: "
                    + most + ", the pool's pooler view after: " + view + ")"));
            assertThat(load.failed()).as("failed transactions: %s", load.failures()).isZero();
            assertThat(most).as("server sessions at once").isPositive().isLessThanOrEqualTo(10);
            assertThat(view.serversActive() + view.serversIdle() + view.serversUsed()).isBetween(1, 10);
        }
    }

    /** Backends of database postgres other than the probe's own: PgBouncers' server sessions. */
    private static long serverSessions(Connection probe) throws SQLException {
        try (Statement st = probe.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE datname = 'postgres' "
                     + "AND backend_type = 'client backend' AND pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static int waiting(PgBouncerServer bouncer) throws IOException, SQLException {
        String w = pool(bouncer).get("cl_waiting");
        return w == null ? 0 : Integer.parseInt(w);
    }

    private static OriginSnapshot origin(dev.slotpool.PoolSnapshot s, String name) {
        return s.origins().stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
    }

    /** Pools built from a factory, closed together. */
    private static final class Fleet implements AutoCloseable {
        final List<SlotPoolDataSource> pools = new ArrayList<>();

        Fleet(int count, PoolFactory factory) throws Exception {
            try {
                for (int i = 0; i < count; i++) {
                    pools.add(factory.make(i));
                }
            } catch (Exception | Error e) {
                close();
                throw e;
            }
        }

        @Override
        public void close() {
            pools.forEach(SlotPoolDataSource::close);
        }
    }

    @FunctionalInterface
    private interface PoolFactory {
        SlotPoolDataSource make(int index) throws Exception;
    }
}
