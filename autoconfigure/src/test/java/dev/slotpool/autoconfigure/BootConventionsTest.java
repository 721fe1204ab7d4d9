package dev.slotpool.autoconfigure;

import dev.slotpool.Balancing;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.metrics.SlotPoolMetrics;
import dev.slotpool.testsupport.StubDatabase;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.sql.Connection;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Boot's conventions in the details: credentials, connection details, bean-style binding. */
class BootConventionsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class));

    private static JdbcConnectionDetails details(String url) {
        return new JdbcConnectionDetails() {
            @Override
            public String getUsername() {
                return "u";
            }

            @Override
            public String getPassword() {
                return "p";
            }

            @Override
            public String getJdbcUrl() {
                return url;
            }
        };
    }

    @Test
    void anEmbeddedUrlWithoutAUsernameConnectsAsSaAsBootsPropertiesDo() {
        runner.withPropertyValues("spring.datasource.url=jdbc:h2:mem:conventions-sa;DB_CLOSE_DELAY=-1",
                        "slotpool.min-size=0")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
                    assertThat(pool.config().username()).isEqualTo("sa");
                    try (Connection c = pool.getConnection()) {
                        assertThat(c.getMetaData().getUserName()).isEqualToIgnoringCase("sa");
                    }
                });
    }

    @Test
    void anEmptyUsernameForAServerDatabaseIsNoUsername() {
        runner.withPropertyValues("spring.datasource.url=" + StubDatabase.reset("conventions-empty").url(),
                        "spring.datasource.username=", "slotpool.min-size=0")
                .run(ctx -> assertThat(ctx.getBean(SlotPoolDataSource.class).config().username()).isNull());
    }

    @Test
    void twoJdbcConnectionDetailsBeansFailAsTheyFailForHikari() {
        runner.withPropertyValues("spring.datasource.url=" + StubDatabase.reset("conventions-props").url())
                .withBean("first", JdbcConnectionDetails.class, () -> details(StubDatabase.reset("details-1").url()))
                .withBean("second", JdbcConnectionDetails.class, () -> details(StubDatabase.reset("details-2").url()))
                .run(ctx -> {
                    assertThat(ctx).hasFailed();
                    assertThat(ctx.getStartupFailure()).rootCause().isInstanceOf(NoUniqueBeanDefinitionException.class);
                });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties
    static class BeanStylePool {

        @Bean
        @ConfigurationProperties("app.datasource")
        SlotPoolDataSource appDataSource() {
            return DataSourceBuilder.create().type(SlotPoolDataSource.class).build();
        }
    }

    @Test
    void configurationPropertiesOnABeanStylePoolBindEverySetting() {
        new ApplicationContextRunner().withUserConfiguration(BeanStylePool.class)
                .withPropertyValues("app.datasource.url=" + StubDatabase.reset("conventions-bean").url(),
                        "app.datasource.min-size=0", "app.datasource.max-size=4", "app.datasource.initial-size=1",
                        "app.datasource.turn-duration=1ms", "app.datasource.creator-threads=1",
                        "app.datasource.creation-backoff-max=2s", "app.datasource.connect-timeout=3s",
                        "app.datasource.inactive-timeout=4m", "app.datasource.max-lifetime=20m",
                        "app.datasource.abandoned-timeout=5m", "app.datasource.time-to-live=1h",
                        "app.datasource.keepalive-interval=3m", "app.datasource.validate-after-idle=1s",
                        "app.datasource.validation-timeout=2s", "app.datasource.validation-query=select 1",
                        "app.datasource.housekeeping-period=1s", "app.datasource.shutdown-timeout=2s",
                        "app.datasource.down-grace-period=3s", "app.datasource.abort-borrowed-on-down=false",
                        "app.datasource.balancing=latency", "app.datasource.down-after-failures=5",
                        "app.datasource.rebalance-step=3", "app.datasource.leak-tracing=true",
                        "app.datasource.leak-detection-threshold=30s", "app.datasource.initialization-fail-timeout=-1s",
                        "app.datasource.auto-commit=false", "app.datasource.transaction-isolation=serializable",
                        "app.datasource.read-only=true", "app.datasource.catalog=c", "app.datasource.schema=s",
                        "app.datasource.connection-init-sql=select 2", "app.datasource.statement-cache-size=5",
                        "app.datasource.connection-properties.loginTimeout=7")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    PoolConfig c = ctx.getBean(SlotPoolDataSource.class).config();
                    assertThat(c.initialSize()).isEqualTo(1);
                    assertThat(c.turnDuration()).isEqualTo(Duration.ofMillis(1));
                    assertThat(c.creatorThreads()).isEqualTo(1);
                    assertThat(c.creationBackoffMax()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(c.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(c.inactiveTimeout()).isEqualTo(Duration.ofMinutes(4));
                    assertThat(c.maxLifetime()).isEqualTo(Duration.ofMinutes(20));
                    assertThat(c.abandonedTimeout()).isEqualTo(Duration.ofMinutes(5));
                    assertThat(c.timeToLive()).isEqualTo(Duration.ofHours(1));
                    assertThat(c.keepaliveInterval()).isEqualTo(Duration.ofMinutes(3));
                    assertThat(c.validateAfterIdle()).isEqualTo(Duration.ofSeconds(1));
                    assertThat(c.validationTimeout()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(c.validationQuery()).isEqualTo("select 1");
                    assertThat(c.housekeepingPeriod()).isEqualTo(Duration.ofSeconds(1));
                    assertThat(c.shutdownTimeout()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(c.downGracePeriod()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(c.abortBorrowedOnDown()).isFalse();
                    assertThat(c.balancing()).isEqualTo(Balancing.LATENCY);
                    assertThat(c.downAfterFailures()).isEqualTo(5);
                    assertThat(c.rebalanceStep()).isEqualTo(3);
                    assertThat(c.leakTracing()).isTrue();
                    assertThat(c.leakDetectionThreshold()).isEqualTo(Duration.ofSeconds(30));
                    assertThat(c.initializationFailTimeout()).isNegative();
                    assertThat(c.autoCommit()).isFalse();
                    assertThat(c.transactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
                    assertThat(c.readOnly()).isTrue();
                    assertThat(c.catalog()).isEqualTo("c");
                    assertThat(c.schema()).isEqualTo("s");
                    assertThat(c.connectionInitSql()).isEqualTo("select 2");
                    assertThat(c.statementCacheSize()).isEqualTo(5);
                    assertThat(c.connectionProperties()).containsEntry("loginTimeout", "7");
                });
    }

    @Test
    void aSnapshotOfABeanStylePoolDoesNotStartIt() {
        try (SlotPoolDataSource pool = new SlotPoolDataSource()) {
            pool.setUrl(StubDatabase.reset("conventions-snapshot").url());
            pool.setPoolName("unstarted");
            pool.setMinSize(0);
            PoolSnapshot s = pool.snapshot();
            assertThat(s.name()).isEqualTo("unstarted");
            assertThat(s.total()).isZero();
            assertThat(s.closed()).isFalse();
            assertThat(s.origins()).isEmpty();
            pool.setMaxSize(3); // still configurable: the snapshot did not start it
            assertThat(pool.snapshot().maxSize()).isEqualTo(3);
        }
    }

    @Test
    void bootsPoolMetadataAndTheSnapshotGaugesDoNotStartABeanStylePool() {
        try (SlotPoolDataSource pool = new SlotPoolDataSource()) {
            pool.setUrl(StubDatabase.reset("conventions-gauges").url());
            pool.setMinSize(0);
            SlotPoolDataSourcePoolMetadata metadata = new SlotPoolDataSourcePoolMetadata(pool);
            assertThat(metadata.getActive()).isZero();
            assertThat(metadata.getMax()).isEqualTo(pool.getMaxSize());
            assertThat(metadata.getDefaultAutoCommit()).isNull();
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            SlotPoolMetrics.fromSnapshots(registry, "unstarted", pool, false);
            registry.getMeters().forEach(Meter::measure);
            pool.setMaxSize(3); // still configurable: neither started it
            assertThat(metadata.getMax()).isEqualTo(3);
        }
    }
}
