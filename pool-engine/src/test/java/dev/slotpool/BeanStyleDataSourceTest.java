package dev.slotpool;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

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
        ds.setStatementCacheSize(4);
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
            assertThat(config.statementCacheSize()).isEqualTo(4);
            assertThat(ds.getStatementCacheSize()).isEqualTo(4);
            assertThat(ds.getLoginTimeout()).isEqualTo(7);
            assertThat(ds.getUsername()).isEqualTo("sa");
            assertThat(ds.getDriverClassName()).isEqualTo("org.h2.Driver");
            assertThat(ds.snapshot().borrows()).isEqualTo(1);
        }
    }

    @Test
    void threadsRacingTheFirstUseShareOnePool() throws Exception {
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (SlotPoolDataSource ds = configured("bean-race")) {
            ds.setMaxSize(threads);
            CountDownLatch start = new CountDownLatch(1);
            CountDownLatch holding = new CountDownLatch(threads);
            CountDownLatch release = new CountDownLatch(1);
            List<Future<?>> borrows = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                borrows.add(pool.submit(() -> {
                    start.await();
                    try (Connection c = ds.getConnection()) {
                        holding.countDown();
                        release.await();
                    }
                    return null;
                }));
            }
            start.countDown();
            assertThat(holding.await(30, TimeUnit.SECONDS)).as("every thread borrowed").isTrue();
            // had two racers each started a pool, the one kept would not lend all of these connections
            assertThat(ds.snapshot().borrowed()).isEqualTo(threads);
            release.countDown();
            for (Future<?> f : borrows) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * First uses racing against a database that refuses every connect. Each borrow ends by its
     * own borrow timeout (within the pool's promise: 10 % plus 50 ms, docs/reliability.md "Faults") with the
     * connect failure chained, and one pool serves them all: it is started once and not torn down and rebuilt
     * by each caller in turn.
     */
    @Test
    void firstUsesRacingAgainstAnUnreachableDatabaseEachEndWithinTheirBorrowTimeout() throws Exception {
        int threads = 4;
        Duration borrowTimeout = Duration.ofSeconds(1);
        long allowedMillis = borrowTimeout.toMillis() * 11 / 10 + 50;
        StubDatabase db = StubDatabase.reset("bean-unreachable").down(true);
        ExecutorService callers = Executors.newFixedThreadPool(threads);
        SlotPoolDataSource ds = new SlotPoolDataSource();
        ds.setUrl(db.url());
        ds.setPoolName("bean-unreachable");
        ds.setBorrowTimeout(borrowTimeout);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Long>> calls = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                calls.add(callers.submit(() -> {
                    start.await();
                    long t0 = System.nanoTime();
                    try (Connection c = ds.getConnection()) {
                        throw new AssertionError("lent a connection of a database that is down: " + c);
                    } catch (SQLTransientConnectionException e) {
                        assertThat(e.getCause()).as("the connect failure is chained").isNotNull();
                        assertThat(e.getCause().getMessage()).contains("stub database bean-unreachable is down");
                    }
                    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                }));
            }
            start.countDown();
            List<Long> took = new ArrayList<>();
            for (Future<Long> call : calls) {
                took.add(call.get(30, TimeUnit.SECONDS));
            }
            System.out.println("bean-style first uses against a down database (borrow timeout 1 s) took " + took + " ms");
            assertThat(took).as("each first use ended by its own borrow timeout (ms)")
                    .allMatch(ms -> ms <= allowedMillis);
            assertThat(ds.isClosed()).as("the pool the first use started still runs").isFalse();
            assertThat(Thread.getAllStackTraces().keySet()).as("one pool: one housekeeper")
                    .filteredOn(t -> t.getName().equals("slotpool-bean-unreachable-housekeeper")).hasSize(1);
        } finally {
            callers.shutdownNow();
            ds.close();
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

    /** A built pool's bean properties are its builder's settings at build(), as set; config() has them resolved. */
    @Test
    void aBuiltPoolsPropertiesAreItsSettingsAtBuildTime() {
        SlotPoolBuilder builder = SlotPoolDataSource.builder().name("built-copy")
                .url(StubDatabase.reset("bean-built-copy").url()).minSize(0).maxSize(3).connectionProperty("a", "1");
        try (SlotPoolDataSource ds = builder.build()) {
            builder.name("changed").maxSize(7).connectionProperty("b", "2");
            assertThat(ds.getPoolName()).isEqualTo("built-copy");
            assertThat(ds.getMaxSize()).isEqualTo(3);
            assertThat(ds.getConnectionProperties()).containsOnlyKeys("a");
            assertThat(ds.getSilenceTimeout()).as("left unset").isNull();
            assertThat(ds.config().silenceTimeout()).as("resolved").isEqualTo(Duration.ofSeconds(2));
            assertThat(ds.config().name()).isEqualTo("built-copy");
        }
    }

    @Test
    void everySingleValuedBuilderSettingHasABeanPropertyOfTheSameName() {
        Set<Class<?>> values = Set.of(int.class, boolean.class, String.class, Duration.class, Balancing.class);
        List<String> missing = new ArrayList<>();
        for (Method setting : SlotPoolBuilder.class.getDeclaredMethods()) {
            if (!Modifier.isPublic(setting.getModifiers()) || setting.getParameterCount() != 1
                    || !values.contains(setting.getParameterTypes()[0])) {
                continue;
            }
            String property = setting.getName().equals("name") ? "PoolName"
                    : Character.toUpperCase(setting.getName().charAt(0)) + setting.getName().substring(1);
            try {
                SlotPoolDataSource.class.getMethod("set" + property, setting.getParameterTypes()[0]);
            } catch (NoSuchMethodException e) {
                missing.add(setting.getName());
            }
        }
        assertThat(missing).as("builder settings without a JavaBean setter").isEmpty();
    }
}
