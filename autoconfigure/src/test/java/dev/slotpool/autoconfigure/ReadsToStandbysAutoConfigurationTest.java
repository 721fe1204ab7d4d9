package dev.slotpool.autoconfigure;

import dev.slotpool.PoolListener;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * {@code slotpool.reads-to-standbys=true} with Spring's own routing of read-only transactions: a real
 * {@code @Transactional(readOnly = true)} service runs on the standby, a read-write one on the primary (stub servers
 * answering PostgreSQL's role query; real servers: the engine's {@code ReadsToStandbysPostgresTest}).
 */
class ReadsToStandbysAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class))
            .withUserConfiguration(Service.class);

    @AfterEach
    void reset() {
        StubDatabase.reset();
    }

    /** Where each borrow of the current thread went (the pool calls onBorrow on the borrowing thread). */
    static final ThreadLocal<String> LAST_ORIGIN = new ThreadLocal<>();

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    static class Service {
        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }

        @Bean
        Accounts accounts(DataSource dataSource) {
            return new Accounts(new JdbcTemplate(dataSource));
        }

        @Bean
        PoolListener lastOrigin() {
            return new PoolListener() {
                @Override
                public void onBorrow(String origin, long waitNanos) {
                    LAST_ORIGIN.set(origin);
                }
            };
        }
    }

    /** A service as an application writes it. */
    public static class Accounts {
        private final JdbcTemplate jdbc;

        public Accounts(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        /** Where a read-only transaction ran, and whether its connection was read-only. */
        @Transactional(readOnly = true)
        public String read() {
            // A statement first: the lazy proxy borrows only for one.
            boolean readOnly = Boolean.TRUE.equals(jdbc.execute((java.sql.Connection c) -> {
                try (java.sql.Statement st = c.createStatement()) {
                    st.execute("SELECT 1");
                }
                return c.isReadOnly();
            }));
            return LAST_ORIGIN.get() + (readOnly ? " read-only" : " read-write");
        }

        @Transactional
        public String write() {
            jdbc.update("UPDATE accounts SET balance = balance + 1 WHERE id = 1");
            return LAST_ORIGIN.get();
        }
    }

    static Map<String, Object> pg(boolean inRecovery) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("in_recovery", inRecovery);
        row.put("cluster", "42");
        row.put("transaction_read_only", inRecovery ? "on" : "off");
        row.put("default_read_only", "off");
        row.put("timeline", inRecovery ? null : 1);
        row.put("lag_bytes", inRecovery ? 0L : null);
        row.put("lag_millis", inRecovery ? 0L : null);
        row.put("receiver", inRecovery ? "streaming" : null);
        return row;
    }

    private String[] origins(String prefix) {
        StubDatabase primary = StubDatabase.reset(prefix + "-primary").productName("PostgreSQL")
                .answer("pg_is_in_recovery", pg(false));
        StubDatabase standby = StubDatabase.reset(prefix + "-standby").productName("PostgreSQL")
                .answer("pg_is_in_recovery", pg(true));
        return new String[] {"slotpool.min-size=2", "slotpool.max-size=4",
                "slotpool.origins[0].name=primary", "slotpool.origins[0].url=" + primary.url(),
                "slotpool.origins[1].name=standby", "slotpool.origins[1].url=" + standby.url()};
    }

    /** Runs read-only transactions until one lands on the standby (it has connections once its role is read). */
    private static String awaitReadOnStandby(Accounts accounts) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String read;
        while (!(read = accounts.read()).startsWith("standby")) {
            assertThat(System.nanoTime() - deadline).as("no read-only transaction on the standby; last: %s", read)
                    .isNegative();
            TimeUnit.MILLISECONDS.sleep(10);
        }
        return read;
    }

    @Test
    void readOnlyTransactionsRunOnTheStandbyAndTheOthersOnThePrimary() {
        runner.withPropertyValues(origins("spring-reads"))
                .withPropertyValues("slotpool.reads-to-standbys=true", "slotpool.max-replica-lag=2s")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    DataSource dataSource = ctx.getBean(DataSource.class);
                    assertThat(dataSource).isInstanceOf(LazyConnectionDataSourceProxy.class);
                    SlotPoolDataSource pool = SlotPools.unwrap(dataSource);
                    assertThat(pool.config().readsToStandbys()).isTrue();
                    assertThat(pool.config().maxReplicaLag()).isEqualTo(Duration.ofSeconds(2));
                    Accounts accounts = ctx.getBean(Accounts.class);
                    assertThat(awaitReadOnStandby(accounts)).isEqualTo("standby read-only");
                    // The endpoint's and the console's view say whether the standby takes reads, and why.
                    PoolViews.PoolView view = PoolViews.pool(pool.snapshot(), new PoolViews.Reader(true, u -> u, t -> t));
                    assertThat(view.origins()).extracting(PoolViews.OriginView::name, PoolViews.OriginView::reads)
                            .containsExactly(tuple("primary", null),
                                    tuple("standby", "takes reads: replica lag 0 ms (bound 2000 ms)"));
                    for (int i = 0; i < 50; i++) {
                        assertThat(accounts.read()).isEqualTo("standby read-only");
                        assertThat(accounts.write()).isEqualTo("primary");
                    }
                    ctx.close();
                    assertThat(pool.isClosed()).as("the pool is still closed with the context").isTrue();
                });
    }

    @Test
    void offByDefaultReadOnlyTransactionsRunOnThePrimaryAndThePoolIsUnwrapped() {
        runner.withPropertyValues(origins("spring-no-reads")).run(ctx -> {
            assertThat(ctx).hasNotFailed();
            assertThat(ctx.getBean(DataSource.class)).isInstanceOf(SlotPoolDataSource.class);
            Accounts accounts = ctx.getBean(Accounts.class);
            for (int i = 0; i < 20; i++) {
                assertThat(accounts.read()).isEqualTo("primary read-only");
                assertThat(accounts.write()).isEqualTo("primary");
            }
        });
    }
}
