package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.OwnThread;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The origins a discovery query names: their group's weight split among them, and forgotten once gone. */
class DiscoveredOriginsTest {

    @Test
    void aGroupOfServersSharesItsWeightInsteadOfMultiplyingIt() throws Exception {
        // The group lands its connections on left and right in turn (a random side left all of them on one side
        // now and then, and the wait for both timed out); "solo" is a plain origin of the same weight.
        String url = "jdbc:h2:mem:split;DB_CLOSE_DELAY=-1";
        try (Connection admin = DriverManager.getConnection(url); Statement st = admin.createStatement()) {
            st.execute("CREATE SEQUENCE landings");
        }
        String landing = "SELECT CASE WHEN MOD(NEXT VALUE FOR landings, 2) = 0 THEN 'left' ELSE 'right' END";
        ConnectionPool pool = new ConnectionPool(SlotPoolDataSource.builder().name("split").minSize(12).maxSize(12)
                .housekeepingPeriod(Duration.ofMinutes(10))
                .origin(OriginConfig.named("group").weight(50).url(url)
                        .originQuery(landing))
                .origin(OriginConfig.named("solo").weight(50).url("jdbc:h2:mem:solo;DB_CLOSE_DELAY=-1"))
                .config());
        try {
            PoolSnapshot s = Pools.await(pool, p -> p.available() == 12 && p.origins().size() == 3,
                    "both servers of the group discovered");
            double groupShare = s.origins().stream().filter(o -> !o.name().equals("solo"))
                    .mapToDouble(OriginSnapshot::targetShare).sum();
            assertThat(groupShare).as("the group's share of borrows (its weight 50 of 100)").isEqualTo(50.0);
            assertThat(s.origin("solo").orElseThrow().targetShare()).isEqualTo(50.0);
            // The actual share is each origin's live connections over the pool's, computed in the snapshot.
            for (OriginSnapshot o : s.origins()) {
                assertThat(o.actualShare()).as(o.name()).isEqualTo(100.0 * o.total() / s.total());
            }
            assertThat(s.origins().stream().mapToDouble(OriginSnapshot::actualShare).sum()).isCloseTo(100.0,
                    within(1e-9));
        } finally {
            pool.close();
        }
    }

    @Test
    void aServerTheGroupNoLongerReachesIsForgottenOnceItHasNoConnection() throws Exception {
        ManualTicker clock = new ManualTicker();
        String url = "jdbc:h2:mem:forget;DB_CLOSE_DELAY=-1";
        try (Connection admin = DriverManager.getConnection(url); Statement st = admin.createStatement()) {
            st.execute("CREATE TABLE landing(name VARCHAR(20))");
            st.execute("INSERT INTO landing VALUES ('old')");
            ConnectionPool pool = new ConnectionPool(SlotPoolDataSource.builder().name("forget").ticker(clock)
                    .minSize(0).maxSize(2).initialSize(2).housekeepingPeriod(Duration.ofMinutes(10))
                    .inactiveTimeout(Duration.ofMinutes(1))
                    .origin(OriginConfig.named("group").url(url).originQuery("SELECT name FROM landing"))
                    .config());
            try {
                Pools.await(pool, p -> p.available() == 2 && p.origin("old").isPresent(), "landed on old");
                st.execute("UPDATE landing SET name = 'new'"); // the URL now reaches another server

                clock.advance(Duration.ofMinutes(2));
                pool.housekeeper.pass(); // old's idle connections close (inactive, above minSize 0)
                Pools.closesDone(pool);
                assertThat(pool.snapshot().origin("old").orElseThrow().total()).isZero();
                pool.housekeeper.pass(); // sees old empty (the closes end on the closer thread, after the pass above)
                clock.advance(Duration.ofMinutes(2));
                pool.housekeeper.pass(); // old has had no connection for the inactive timeout

                assertThat(pool.snapshot().origins()).extracting(OriginSnapshot::name).doesNotContain("old");
                // Time moves while the borrow waits: a connect that lands on an origin forgotten meanwhile ('new'
                // too, when an earlier landing found it) is closed and backs the group off 50 ms on this clock.
                CompletableFuture<Connection> borrowed = OwnThread.supply(pool::borrow);
                long realDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!borrowed.isDone() && System.nanoTime() - realDeadline < 0) {
                    clock.advance(Duration.ofMillis(100));
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
                try (Connection c = borrowed.get(1, TimeUnit.SECONDS)) {
                    assertThat(pool.snapshot().origin("new")).isPresent();
                }
            } finally {
                pool.close();
            }
        }
    }

    /** A discovery query that names a server '../west' (which would point the console's actions at another path):
     * the connection is refused, its failure naming the origin and the name; no such origin is lent. */
    @Test
    void aDiscoveredNameThatIsNotOnePathSegmentIsRefusedNamingTheOrigin() throws Exception {
        ConnectionPool pool = new ConnectionPool(SlotPoolDataSource.builder().name("bad-name").minSize(1).maxSize(1)
                .housekeepingPeriod(Duration.ofMillis(100))
                .origin(OriginConfig.named("group").url("jdbc:h2:mem:bad-name;DB_CLOSE_DELAY=-1")
                        .originQuery("SELECT '../west'"))
                .config());
        try {
            PoolSnapshot s = Pools.await(pool, p -> p.lastCreationFailure().isPresent(),
                    "the group's connection refused");
            assertThat(s.lastCreationFailure().orElseThrow()).contains("origin 'group'", "'../west'", "hold no '..'");
            assertThat(s.origins()).extracting(OriginSnapshot::name).noneMatch(n -> n.contains("west"));
        } finally {
            pool.close();
        }
    }
}
