package dev.slotpool.bench;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/** Every pool of the comparison starts from the shared settings, lends stub connections and closes them all. */
class PoolKindTest {

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void startsLendsAndClosesEverything(PoolKind kind) throws Exception {
        StubDatabase db = StubDatabase.reset("kind-" + kind.id());
        try (BenchPool pool = kind.start(PoolSettings.fixed(db.url(), 4, Duration.ofSeconds(5)))) {
            for (int i = 0; i < 200; i++) {
                try (Connection c = pool.dataSource().getConnection(); Statement st = c.createStatement()) {
                    st.execute("SELECT 1");
                }
            }
            Connection held = pool.dataSource().getConnection();
            BenchPool.PoolCounts counts = pool.counts();
            assertThat(counts.active()).isEqualTo(1);
            // Not opened(): DBCP2 opens and closes one extra connection at start to check the driver.
            assertThat(db.maxOpen()).isBetween(1L, 4L);
            held.close();
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (db.live() > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
        assertThat(db.live()).as("%s closed every connection", kind).isZero();
        assertThat(db.queries()).isGreaterThanOrEqualTo(200);
    }

    @Test
    void slotpoolWithTurnRunsWithThatTurn() throws Exception {
        StubDatabase db = StubDatabase.reset("kind-slotpool-turn");
        try (BenchPool pool = PoolKind.slotpoolWithTurn(PoolSettings.fixed(db.url(), 2, Duration.ofSeconds(5)),
                Duration.ofMillis(3))) {
            assertThat(((SlotPoolDataSource) pool.dataSource()).config().turnDuration())
                    .isEqualTo(Duration.ofMillis(3));
            try (Connection c = pool.dataSource().getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
        }
    }
}
