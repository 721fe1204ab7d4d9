package dev.slotpool;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The JavaBean lifecycle of {@link SlotPoolDataSource}: configure, first use starts, then settings are fixed. */
class BeanStyleDataSourceTest {

    private static SlotPoolDataSource configured(String db) {
        SlotPoolDataSource ds = new SlotPoolDataSource();
        ds.setJdbcUrl("jdbc:h2:mem:" + db + ";DB_CLOSE_DELAY=-1");
        ds.setUsername("sa");
        ds.setPassword("");
        ds.setDriverClassName("org.h2.Driver");
        ds.setPoolName("bean");
        ds.setMinSize(0);
        ds.setMaxSize(3);
        ds.setBorrowTimeout(Duration.ofSeconds(7));
        return ds;
    }

    @Test
    void settersConfigureAndTheFirstGetConnectionStartsThePool() throws SQLException {
        try (SlotPoolDataSource ds = configured("bean-start")) {
            assertThat(ds.getUrl()).isEqualTo("jdbc:h2:mem:bean-start;DB_CLOSE_DELAY=-1");
            assertThat(ds.toString()).contains("not started");
            try (Connection c = ds.getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
            PoolConfig config = ds.config();
            assertThat(config.name()).isEqualTo("bean");
            assertThat(config.maxSize()).isEqualTo(3);
            assertThat(config.minSize()).isZero();
            assertThat(config.borrowTimeout()).isEqualTo(Duration.ofSeconds(7));
            assertThat(ds.getLoginTimeout()).isEqualTo(7);
            assertThat(ds.getUsername()).isEqualTo("sa");
            assertThat(ds.getDriverClassName()).isEqualTo("org.h2.Driver");
            assertThat(ds.snapshot().borrows()).isEqualTo(1);
        }
    }

    @Test
    void settersThrowAfterTheFirstUse() throws SQLException {
        try (SlotPoolDataSource ds = configured("bean-fixed")) {
            ds.getConnection().close();
            assertThatThrownBy(() -> ds.setMaxSize(5)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("maxSize").hasMessageContaining("after the first getConnection");
            assertThatThrownBy(() -> ds.setUrl("jdbc:h2:mem:other")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("url");
            assertThat(ds.getMaxSize()).isEqualTo(3);
        }
    }

    @Test
    void closeStopsTheStartedPool() throws SQLException {
        SlotPoolDataSource ds = configured("bean-close");
        ds.getConnection().close();
        ds.close();
        assertThat(ds.isClosed()).isTrue();
        assertThatThrownBy(ds::getConnection).isInstanceOf(SQLException.class).hasMessageContaining("closed");
    }

    @Test
    void closeBeforeTheFirstUseLeavesAClosedPoolThatNeverStarts() {
        SlotPoolDataSource ds = configured("bean-close-early");
        ds.close();
        assertThat(ds.isClosed()).isTrue();
        assertThatThrownBy(ds::getConnection).isInstanceOf(SQLException.class)
                .hasMessage("pool 'bean' is closed");
        assertThatThrownBy(() -> ds.setMaxSize(4)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anUnconfiguredPoolNamesTheMissingUrlAndCanStillBeConfigured() throws SQLException {
        try (SlotPoolDataSource ds = new SlotPoolDataSource()) {
            assertThatThrownBy(ds::getConnection).isInstanceOf(InvalidPoolConfigException.class)
                    .hasMessageContaining("url").hasMessageContaining("is required");
            assertThat(ds.isClosed()).isFalse();
            ds.setUrl("jdbc:h2:mem:bean-late;DB_CLOSE_DELAY=-1");
            ds.getConnection().close();
        }
    }

    @Test
    void aBuiltPoolRefusesEverySetter() {
        try (SlotPoolDataSource ds = SlotPoolDataSource.builder().name("built")
                .url("jdbc:h2:mem:bean-built;DB_CLOSE_DELAY=-1").minSize(0).build()) {
            assertThat(ds.getUrl()).isEqualTo("jdbc:h2:mem:bean-built;DB_CLOSE_DELAY=-1");
            assertThat(ds.getPoolName()).isEqualTo("built");
            assertThatThrownBy(() -> ds.setPassword("x")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("builder").hasMessageContaining("password");
        }
    }
}
