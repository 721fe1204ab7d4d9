package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.PoolInitializationException;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * build() fails with every origin's last failure when no origin gives a first connection within
 * initializationFailTimeout (default: connectTimeout); a negative timeout keeps the background fill.
 */
class InitializationFailTimeoutTest {

    @Test
    void noOriginAnsweringFailsTheStartNamingEachOriginAndClosesThePool() {
        StubDatabase east = StubDatabase.reset("init-east").down(true);
        StubDatabase west = StubDatabase.reset("init-west").down(true);

        PoolInitializationException e = catchThrowableOfType(PoolInitializationException.class, () ->
                Pools.stub(east).name("init-fails").url(null).connectTimeout(Duration.ofMillis(200))
                        .origin(OriginConfig.named("east").url(east.url()))
                        .origin(OriginConfig.named("west").url(west.url() + "?user=app&password=Url-pw-5Kd"))
                        .build());

        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("pool 'init-fails' could not open a first connection",
                        "initializationFailTimeout is 200 ms",
                        "origin east (jdbc:stub:init-east): origin 'east': could not connect: stub database init-east is down",
                        "origin west (jdbc:stub:init-west?user=app&password=***)")
                .doesNotContain("Url-pw-5Kd").doesNotContain("s3cret-pw");
        assertThat(e.lastFailures()).containsOnlyKeys("east", "west");
        assertThat(e.getCause()).isNotNull();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!StubFaultsTest.poolThreads("init-fails").isEmpty()) {
            assertThat(System.nanoTime() - deadline).as("the pool's threads end").isNegative();
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
    }

    /** A first connect that takes 3 s (a cold database, a busy machine) starts the pool. */
    @Test
    void aSlowFirstConnectStartsThePool() throws Exception {
        StubDatabase db = StubDatabase.reset("init-slow").connectDelay(Duration.ofSeconds(3));
        try (SlotPoolDataSource ds = Pools.stub(db).name("init-slow").minSize(1).build()) {
            assertThat(ds.snapshot().origins().get(0).consecutiveFailures()).isZero();
            try (Connection c = ds.getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
        }
    }

    @Test
    void oneOriginAnsweringIsEnough() throws Exception {
        StubDatabase down = StubDatabase.reset("init-one-down").down(true);
        StubDatabase up = StubDatabase.reset("init-one-up");
        try (SlotPoolDataSource ds = Pools.stub(up).name("init-one").url(null).minSize(2)
                .origin(OriginConfig.named("down").url(down.url())).origin(OriginConfig.named("up").url(up.url()))
                .build()) {
            assertThat(up.opened()).as("build() returned after a first connection").isPositive();
            try (Connection c = ds.getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
        }
    }

    @Test
    void aNegativeTimeoutStartsAtOnceAndFillsInTheBackground() throws Exception {
        StubDatabase db = StubDatabase.reset("init-background").down(true);
        try (SlotPoolDataSource ds = Pools.stub(db).name("init-background").minSize(1)
                .initializationFailTimeout(Duration.ofMillis(-1)).build()) {
            db.down(false);
            try (Connection c = ds.getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
        }
    }

    @Test
    void zeroTriesEachOriginOnce() {
        StubDatabase db = StubDatabase.reset("init-zero").down(true);
        PoolInitializationException e = catchThrowableOfType(PoolInitializationException.class, () ->
                Pools.stub(db).name("init-zero").initializationFailTimeout(Duration.ZERO).build());
        assertThat(e).isNotNull();
        assertThat(e.lastFailures().get("default")).contains("stub database init-zero is down");
        assertThat(db.connectAttempts()).isPositive();
    }

    @Test
    void aConnectionWhoseInitSqlFailedIsNoFirstConnection() {
        StubDatabase db = StubDatabase.reset("init-sql-fails");
        db.failNextQueries(Integer.MAX_VALUE, "42501");
        PoolInitializationException e = catchThrowableOfType(PoolInitializationException.class, () ->
                Pools.stub(db).name("init-sql-fails").connectTimeout(Duration.ofMillis(200))
                        .connectionInitSql("SET ROLE reporting").build());
        assertThat(e).isNotNull();
        assertThat(e.lastFailures().get("default")).contains("connectionInitSql failed");
        assertThat(db.live()).as("each such connection was closed").isZero();
    }

    @Test
    void nothingToOpenAtStartMeansNothingToWaitFor() throws Exception {
        StubDatabase db = StubDatabase.reset("init-empty").down(true);
        try (SlotPoolDataSource ds = Pools.stub(db).name("init-empty").minSize(0).build()) {
            assertThat(ds.snapshot().total()).isZero();
        }
    }
}
