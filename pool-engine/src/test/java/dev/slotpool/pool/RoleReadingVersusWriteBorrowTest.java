package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginConfig;
import dev.slotpool.ServerRole;
import dev.slotpool.failover.RoleReading;
import dev.slotpool.failover.RoleWatch;
import dev.slotpool.jdbc.ProxyConnection;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A primary demoted behind the pool's back (docs/failover.md, "Primary and standbys"): the pool learns it from a new
 * connection's role query. From the moment the pool's reading says standby, no write borrow may be lent the
 * origin's older connections, even while the thread that read it has not finished judging (the promise the role
 * model check holds the pool to: {@link RoleHistory}).
 *
 * <p>The window is held open deterministically: an extra origin registered with the pool's {@link RoleWatch} is
 * asked its name while the watch compares every origin's standing with what is applied, after the new reading is
 * stored; there it stops the judging thread until the test has borrowed.
 */
class RoleReadingVersusWriteBorrowTest {

    private final StubDatabase db = StubDatabase.reset("demoted").productName("PostgreSQL")
            .answer("pg_is_in_recovery", RoleLayerTest.pg(false, 1));

    @AfterEach
    void reset() {
        StubDatabase.reset();
    }

    @ParameterizedTest(name = "reads to standbys {0}")
    @ValueSource(booleans = {false, true})
    void aWriteBorrowIsNeverLentAnOriginTheRoleAlreadyReadAsStandby(boolean readsToStandbys) throws Exception {
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("demoted-" + readsToStandbys).url(null)
                .origin(OriginConfig.named("a").url(db.url()))
                .minSize(2).maxSize(2).borrowTimeout(Duration.ofMillis(300))
                .housekeepingPeriod(Duration.ofMillis(50))
                .readsToStandbys(readsToStandbys).maxReplicaLag(Duration.ofSeconds(5))
                .config());
        try {
            Pools.await(pool, s -> s.available() == 2 && s.creating() == 0, "two connections of the primary");
            WindowProbe probe = new WindowProbe(pool);
            pool.failover.roles().register(probe);

            db.answer("pg_is_in_recovery", RoleLayerTest.pg(true, 0)); // demoted: the pool does not know yet
            probe.armed.set(true);
            // One connection closed: its replacement's role query is the pool's first reading of the standby.
            Connection replaced = pool.borrow();
            ((PooledConnection) ((ProxyConnection) replaced).lease()).retire(CloseReason.MAX_LIFETIME);
            replaced.close();

            assertThat(probe.open.await(30, TimeUnit.SECONDS))
                    .as("the new connection's reading of the standby was judged").isTrue();
            String lent;
            try (Connection c = pool.borrow()) {
                lent = "lent a connection of '" + ((PooledConnection) ((ProxyConnection) c).lease()).origin.name
                        + "'";
            } catch (SQLException timedOut) {
                lent = "not lent (" + timedOut.getMessage() + ")";
            } finally {
                probe.done.countDown();
            }
            assertThat(lent).as("a write borrow that began with the pool's reading %s", probe.seen)
                    .startsWith("not lent");
        } finally {
            pool.close();
        }
    }

    /** Stops the first thread that asks its name once the pool's reading of the origin says standby. */
    private static final class WindowProbe implements RoleWatch.Watched {
        final AtomicBoolean armed = new AtomicBoolean();
        final CountDownLatch open = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        private final AtomicBoolean fired = new AtomicBoolean();
        private final ConnectionPool pool;
        volatile RoleReading seen;

        WindowProbe(ConnectionPool pool) {
            this.pool = pool;
        }

        @Override
        public String name() {
            RoleReading r = pool.failover.roles().roles().reading("a");
            if (armed.get() && r != null && r.role() == ServerRole.STANDBY && fired.compareAndSet(false, true)) {
                seen = r;
                open.countDown();
                try {
                    done.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return "window-probe";
        }

        @Override
        public boolean claimRoom() {
            return false;
        }

        @Override
        public void releaseRoom() {
        }

        @Override
        public boolean mayHoldSession() {
            return false;
        }

        @Override
        public Connection connect() throws SQLException {
            throw new SQLException("the probe has no server");
        }

        @Override
        public boolean watchable() {
            return false;
        }

        @Override
        public void outForRole(String reason) {
        }

        @Override
        public void backForRole(String reason) {
        }

        @Override
        public void holdWrites() {
        }

        @Override
        public void releaseWrites() {
        }

        @Override
        public long lagBoundMillis() {
            return -1;
        }

        @Override
        public void read(RoleReading reading) {
        }
    }
}
