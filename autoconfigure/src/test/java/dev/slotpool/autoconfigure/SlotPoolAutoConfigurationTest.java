package dev.slotpool.autoconfigure;

import com.zaxxer.hikari.HikariDataSource;
import dev.slotpool.OriginConfig;
import dev.slotpool.PoolConfig;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.jdbc.metadata.DataSourcePoolMetadata;
import org.springframework.boot.jdbc.metadata.DataSourcePoolMetadataProvider;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The DataSource conditions and the property mapping, without booting an app. */
@ExtendWith(OutputCaptureExtension.class)
class SlotPoolAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class));

    private static String stubUrl(String name) {
        return StubDatabase.reset(name).url();
    }

    @Test
    void replacesHikariEvenWithHikariOnTheClassPath() {
        assertThat(HikariDataSource.class).isNotNull();
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("hikari-present")).run(ctx -> {
            assertThat(ctx).hasSingleBean(DataSource.class);
            assertThat(ctx.getBean(DataSource.class)).isInstanceOf(SlotPoolDataSource.class);
            assertThat(ctx).doesNotHaveBean(HikariDataSource.class);
        });
    }

    @Test
    void backsOffForAUserDataSource() {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("user-ds"))
                .withBean("myDataSource", DataSource.class, SimpleDriverDataSource::new)
                .run(ctx -> {
                    assertThat(ctx).hasSingleBean(DataSource.class);
                    assertThat(ctx).doesNotHaveBean(SlotPoolDataSource.class);
                });
    }

    @Test
    void backsOffWhenDisabledAndBootConfiguresHikari() {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("disabled"), "slotpool.enabled=false")
                .run(ctx -> {
                    assertThat(ctx).doesNotHaveBean(SlotPoolDataSource.class);
                    assertThat(ctx.getBean(DataSource.class)).isInstanceOf(HikariDataSource.class);
                });
    }

    @Test
    void backsOffForAnotherSpringDatasourceTypeWithOneInfoLineSayingWhy(CapturedOutput output) {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("other-type"),
                        "spring.datasource.type=" + HikariDataSource.class.getName())
                .run(ctx -> {
                    assertThat(ctx).doesNotHaveBean(SlotPoolDataSource.class);
                    assertThat(ctx.getBean(DataSource.class)).isInstanceOf(HikariDataSource.class);
                    assertThat(output.getOut().lines().filter(l -> l.contains("spring.datasource.type")))
                            .singleElement().satisfies(l -> assertThat(l).contains("INFO")
                                    .contains("slotpool is not the DataSource")
                                    .contains(HikariDataSource.class.getName())
                                    .contains(SlotPoolDataSource.class.getName()));
                });
    }

    @Test
    void saysNothingAboutSpringDatasourceTypeWhenItNamesSlotpool(CapturedOutput output) {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("own-type-quiet"),
                        "spring.datasource.type=" + SlotPoolDataSource.class.getName())
                .run(ctx -> {
                    assertThat(ctx).hasSingleBean(SlotPoolDataSource.class);
                    assertThat(output.getOut()).doesNotContain("slotpool is not the DataSource");
                });
    }

    @Test
    void staysWhenSpringDatasourceTypeNamesSlotpool() {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("own-type"),
                        "spring.datasource.type=" + SlotPoolDataSource.class.getName())
                .run(ctx -> assertThat(ctx).hasSingleBean(SlotPoolDataSource.class));
    }

    @Test
    void bindsEveryKindOfProperty() {
        String east = stubUrl("east");
        String west = stubUrl("west");
        runner.withPropertyValues(
                "spring.datasource.url=" + stubUrl("unused-default"),
                "spring.datasource.username=app",
                "spring.datasource.password=shared-secret",
                "slotpool.name=orders",
                "slotpool.min-size=1",
                "slotpool.max-size=7",
                "slotpool.initial-size=2",
                "slotpool.borrow-timeout=5s",
                "slotpool.turn-duration=0",
                "slotpool.creator-threads=3",
                "slotpool.creation-backoff-max=2s",
                "slotpool.inactive-timeout=1m",
                "slotpool.max-lifetime=20m",
                "slotpool.abandoned-timeout=40s",
                "slotpool.time-to-live=10m",
                "slotpool.keepalive-interval=30s",
                "slotpool.validate-after-idle=250ms",
                "slotpool.connect-timeout=3s",
                "slotpool.validation-timeout=2s",
                "slotpool.validation-query=SELECT 1",
                "slotpool.housekeeping-period=1s",
                "slotpool.shutdown-timeout=3s",
                "slotpool.down-grace-period=4s",
                "slotpool.down-after-failures=5",
                "slotpool.rebalance-step=3",
                "slotpool.statement-cache-size=25",
                "slotpool.leak-tracing=true",
                "slotpool.connection-properties.applicationName=orders-app",
                "slotpool.oracle.default-row-prefetch=50",
                "slotpool.origins[0].name=east",
                "slotpool.origins[0].url=" + east,
                "slotpool.origins[0].instance=orcl1",
                "slotpool.origins[0].host=db1",
                "slotpool.origins[0].service=sales",
                "slotpool.origins[0].database=salesdb",
                "slotpool.origins[0].weight=60",
                "slotpool.origins[0].max-connections=5",
                "slotpool.origins[1].name=west",
                "slotpool.origins[1].url=" + west,
                "slotpool.origins[1].username=west-user",
                "slotpool.origins[1].password=west-secret",
                "slotpool.origins[1].weight=40",
                "slotpool.origins[1].connection-properties.applicationName=west-app")
                .run(ctx -> {
                    PoolConfig c = ctx.getBean(SlotPoolDataSource.class).config();
                    assertThat(c.name()).isEqualTo("orders");
                    assertThat(c.minSize()).isEqualTo(1);
                    assertThat(c.maxSize()).isEqualTo(7);
                    assertThat(c.initialSize()).isEqualTo(2);
                    assertThat(c.borrowTimeout()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(c.turnDuration()).isZero();
                    assertThat(c.creatorThreads()).isEqualTo(3);
                    assertThat(c.creationBackoffMax()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(c.inactiveTimeout()).isEqualTo(Duration.ofMinutes(1));
                    assertThat(c.maxLifetime()).isEqualTo(Duration.ofMinutes(20));
                    assertThat(c.abandonedTimeout()).isEqualTo(Duration.ofSeconds(40));
                    assertThat(c.timeToLive()).isEqualTo(Duration.ofMinutes(10));
                    assertThat(c.keepaliveInterval()).isEqualTo(Duration.ofSeconds(30));
                    assertThat(c.validateAfterIdle()).isEqualTo(Duration.ofMillis(250));
                    assertThat(c.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(c.validationTimeout()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(c.validationQuery()).isEqualTo("SELECT 1");
                    assertThat(c.housekeepingPeriod()).isEqualTo(Duration.ofSeconds(1));
                    assertThat(c.shutdownTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(c.downGracePeriod()).isEqualTo(Duration.ofSeconds(4));
                    assertThat(c.downAfterFailures()).isEqualTo(5);
                    assertThat(c.rebalanceStep()).isEqualTo(3);
                    assertThat(c.statementCacheSize()).isEqualTo(25);
                    assertThat(c.leakTracing()).isTrue();
                    List<OriginConfig> origins = c.origins();
                    assertThat(origins).extracting(OriginConfig::name).containsExactly("east", "west");
                    OriginConfig e = origins.get(0);
                    assertThat(e.url()).isEqualTo(east);
                    assertThat(e.instance()).isEqualTo("orcl1");
                    assertThat(e.host()).isEqualTo("db1");
                    assertThat(e.service()).isEqualTo("sales");
                    assertThat(e.database()).isEqualTo("salesdb");
                    assertThat(e.weight()).isEqualTo(60);
                    assertThat(e.maxConnections()).isEqualTo(5);
                    assertThat(e.username()).as("shared credentials").isEqualTo("app");
                    assertThat(e.password()).isEqualTo("shared-secret");
                    assertThat(e.connectionProperties()).containsEntry("defaultRowPrefetch", "50")
                            .containsEntry("applicationName", "orders-app");
                    OriginConfig w = origins.get(1);
                    assertThat(w.username()).isEqualTo("west-user");
                    assertThat(w.password()).isEqualTo("west-secret");
                    assertThat(w.weight()).isEqualTo(40);
                    assertThat(w.connectionProperties()).containsEntry("applicationName", "west-app")
                            .containsEntry("defaultRowPrefetch", "50");
                });
    }

    @Test
    void unsetPropertiesKeepTheEngineDefaults() {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("defaults")).run(ctx -> {
            PoolConfig c = ctx.getBean(SlotPoolDataSource.class).config();
            PoolConfig engine = SlotPoolDataSource.builder().url(stubUrl("defaults")).config();
            assertThat(c.name()).isEqualTo(engine.name());
            assertThat(c.minSize()).isEqualTo(engine.minSize());
            assertThat(c.maxSize()).isEqualTo(engine.maxSize());
            assertThat(c.borrowTimeout()).isEqualTo(engine.borrowTimeout());
            assertThat(c.maxLifetime()).isEqualTo(engine.maxLifetime());
            assertThat(c.origins()).extracting(OriginConfig::name).containsExactly("default");
        });
    }

    @Test
    void springDatasourceUrlIsTheDefaultOriginWhenNoOriginIsListed() {
        String url = stubUrl("single");
        runner.withPropertyValues("spring.datasource.url=" + url, "spring.datasource.username=u").run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            assertThat(pool.config().origins()).singleElement().satisfies(o -> {
                assertThat(o.name()).isEqualTo("default");
                assertThat(o.url()).isEqualTo(url);
                assertThat(o.username()).isEqualTo("u");
            });
            try (Connection c = pool.getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
        });
    }

    @Test
    void originsWithoutAUrlUseSpringDatasourceUrl() {
        String shared = stubUrl("shared-url");
        String other = stubUrl("other-url");
        runner.withPropertyValues("spring.datasource.url=" + shared,
                        "slotpool.origins[0].name=a", "slotpool.origins[1].name=b", "slotpool.origins[1].url=" + other)
                .run(ctx -> assertThat(ctx.getBean(SlotPoolDataSource.class).config().origins())
                        .extracting(OriginConfig::url).containsExactly(shared, other));
    }

    @Test
    void withNothingConfiguredTheEmbeddedDatabaseIsTheDefaultOrigin() {
        runner.run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            assertThat(pool.config().origins().get(0).url()).startsWith("jdbc:h2:mem:");
            try (Connection c = pool.getConnection()) {
                assertThat(c.getMetaData().getDatabaseProductName()).isEqualTo("H2");
            }
        });
    }

    @Test
    void connectionDetailsWinOverSpringDatasource() {
        String fromDetails = stubUrl("from-details");
        JdbcConnectionDetails details = new JdbcConnectionDetails() {
            @Override
            public String getUsername() {
                return "container-user";
            }

            @Override
            public String getPassword() {
                return "container-secret";
            }

            @Override
            public String getJdbcUrl() {
                return fromDetails;
            }
        };
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("from-properties"),
                        "spring.datasource.username=props-user")
                .withBean(JdbcConnectionDetails.class, () -> details)
                .run(ctx -> {
                    OriginConfig o = ctx.getBean(SlotPoolDataSource.class).config().origins().get(0);
                    assertThat(o.url()).isEqualTo(fromDetails);
                    assertThat(o.username()).isEqualTo("container-user");
                    assertThat(o.password()).isEqualTo("container-secret");
                });
    }

    @Test
    void customizersAndListenerBeansReachTheBuilder() {
        java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("customized"), "slotpool.max-size=4")
                .withBean(SlotPoolBuilderCustomizer.class, () -> b -> b.maxSize(6))
                .withBean(dev.slotpool.PoolListener.class, () -> new dev.slotpool.PoolListener() {
                    @Override
                    public void onStart(PoolConfig config) {
                        started.incrementAndGet();
                    }
                })
                .run(ctx -> {
                    assertThat(ctx.getBean(SlotPoolDataSource.class).config().maxSize()).isEqualTo(6);
                    assertThat(started).hasValue(1);
                });
    }

    @Test
    void theMetadataProviderReportsThePoolToBoot() {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("metadata"), "slotpool.min-size=2",
                        "slotpool.max-size=5", "slotpool.validation-query=SELECT 1")
                .run(ctx -> {
                    SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
                    DataSourcePoolMetadataProvider provider = ctx.getBean("slotPoolDataSourcePoolMetadataProvider",
                            DataSourcePoolMetadataProvider.class);
                    try (Connection c = pool.getConnection()) {
                        DataSourcePoolMetadata m = provider.getDataSourcePoolMetadata(pool);
                        assertThat(m).isNotNull();
                        assertThat(m.getMax()).isEqualTo(5);
                        assertThat(m.getMin()).isEqualTo(2);
                        assertThat(m.getActive()).isEqualTo(1);
                        assertThat(m.getValidationQuery()).isEqualTo("SELECT 1");
                        assertThat(m.getUsage()).isEqualTo(0.2f);
                    }
                    assertThat(provider.getDataSourcePoolMetadata(new SimpleDriverDataSource())).isNull();
                });
    }

    @Test
    void theDataSourceIsClosedWithTheContext() {
        StubDatabase db = StubDatabase.reset("closed-with-context");
        SlotPoolDataSource[] seen = new SlotPoolDataSource[1];
        runner.withPropertyValues("spring.datasource.url=" + db.url(), "slotpool.min-size=2").run(ctx -> {
            seen[0] = ctx.getBean(SlotPoolDataSource.class);
            try (Connection c = seen[0].getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
        });
        assertThat(seen[0].isClosed()).isTrue();
        assertThat(db.live()).isZero();
    }

    @Test
    void aBadValueFailsStartupNamingThePropertyValueAndRange() {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("bad"), "spring.datasource.password=hunter2",
                        "slotpool.min-size=-1", "slotpool.borrow-timeout=-5s", "slotpool.oracle.default-row-prefetch=0",
                        "slotpool.origins[0].name=east", "slotpool.origins[0].weight=1",
                        "slotpool.origins[1].name=west", "slotpool.origins[1].weight=-3",
                        "slotpool.origins[2].name=east")
                .run(ctx -> {
                    assertThat(ctx).hasFailed();
                    Throwable failure = ctx.getStartupFailure();
                    InvalidSlotPoolPropertiesException e = rootCause(failure, InvalidSlotPoolPropertiesException.class);
                    assertThat(e.violations()).extracting(v -> v.property()).contains(
                            "slotpool.min-size", "slotpool.borrow-timeout", "slotpool.oracle.default-row-prefetch",
                            "slotpool.origins[1].weight", "slotpool.origins[2].name");
                    FailureAnalysis analysis = new SlotPoolFailureAnalyzer().analyze(failure);
                    assertThat(analysis.getDescription())
                            .contains("Property: slotpool.min-size", "Value: -1", "Reason: must be ≥ 0")
                            .contains("Property: slotpool.origins[2].name", "duplicate origin name")
                            .doesNotContain("hunter2");
                    assertThat(analysis.getAction()).contains("section \"Spring Boot properties\"")
                            .doesNotContain("docs/");
                    assertThat(String.valueOf(failure)).doesNotContain("hunter2");
                });
    }

    @Test
    void aBadUrlIsReportedWithoutItsCredentials() {
        runner.withPropertyValues("slotpool.origins[0].name=a",
                        "slotpool.origins[0].url=postgresql://admin:topsecret@db:5432/x")
                .run(ctx -> {
                    InvalidSlotPoolPropertiesException e = rootCause(ctx.getStartupFailure(),
                            InvalidSlotPoolPropertiesException.class);
                    assertThat(e.violations()).extracting(v -> v.property()).contains("slotpool.origins[0].url");
                    assertThat(e.getMessage()).doesNotContain("topsecret");
                });
    }

    @Test
    void anUnknownKeyUnderSlotpoolFailsStartup() {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("typo"), "slotpool.max-sise=5")
                .run(ctx -> {
                    assertThat(ctx).hasFailed();
                    assertThat(ctx.getStartupFailure()).rootCause().hasMessageContaining("max-sise");
                });
    }

    private static <T extends Throwable> T rootCause(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + t);
    }
}
