package dev.slotpool.autoconfigure;

import dev.slotpool.CredentialsProvider;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolInitializationException;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.SqlExceptionOverride;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.metadata.DataSourcePoolMetadataProvider;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.sql.Connection;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The settings HikariCP users carry over bind from slotpool.*, and the hooks are picked up from single beans. */
class CarriedOverPropertiesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class));

    @Test
    void everyCarriedOverPropertyBinds() {
        runner.withPropertyValues("spring.datasource.url=" + StubDatabase.reset("carried-bind").url(),
                        "slotpool.auto-commit=false",
                        "slotpool.transaction-isolation=read-committed",
                        "slotpool.read-only=true",
                        "slotpool.catalog=sales",
                        "slotpool.schema=app",
                        "slotpool.connection-init-sql=SET ROLE app",
                        "slotpool.leak-detection-threshold=45s",
                        "slotpool.initialization-fail-timeout=3s")
                .run(ctx -> {
                    SlotPoolDataSource ds = ctx.getBean(SlotPoolDataSource.class);
                    PoolConfig c = ds.config();
                    assertThat(c.autoCommit()).isFalse();
                    assertThat(c.transactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
                    assertThat(c.readOnly()).isTrue();
                    assertThat(c.catalog()).isEqualTo("sales");
                    assertThat(c.schema()).isEqualTo("app");
                    assertThat(c.connectionInitSql()).isEqualTo("SET ROLE app");
                    assertThat(c.leakDetectionThreshold()).isEqualTo(Duration.ofSeconds(45));
                    assertThat(c.initializationFailTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(ctx.getBean("slotPoolDataSourcePoolMetadataProvider", DataSourcePoolMetadataProvider.class).getDataSourcePoolMetadata(ds)
                            .getDefaultAutoCommit()).as("Boot's pool metadata").isFalse();
                    try (Connection conn = ds.getConnection()) {
                        assertThat(conn.getAutoCommit()).isFalse();
                        assertThat(conn.getSchema()).isEqualTo("app");
                    }
                });
    }

    @Test
    void unsetAutoCommitIsReportedAsTheDriversAndAnUnsetInitializationFailTimeoutStartsWithoutWaiting() {
        runner.withPropertyValues("spring.datasource.url=" + StubDatabase.reset("carried-unset").url(),
                        "slotpool.connect-timeout=3s")
                .run(ctx -> {
                    SlotPoolDataSource ds = ctx.getBean(SlotPoolDataSource.class);
                    assertThat(ctx.getBean("slotPoolDataSourcePoolMetadataProvider", DataSourcePoolMetadataProvider.class).getDataSourcePoolMetadata(ds)
                            .getDefaultAutoCommit()).isNull();
                    // Boot's start (docs/configuration.md, "Starting when the database is slow or down")
                    assertThat(ds.config().initializationFailTimeout()).isNegative();
                });
    }

    @Test
    void singleCredentialsProviderAndExceptionOverrideBeansArePickedUp() {
        StubDatabase db = StubDatabase.reset("carried-beans");
        db.requirePassword("from-the-vault");
        CredentialsProvider credentials = origin -> new CredentialsProvider.Credentials("app", "from-the-vault");
        SqlExceptionOverride override = e -> SqlExceptionOverride.Decision.CONTINUE_WITH_BUILT_IN_RULES;
        runner.withPropertyValues("spring.datasource.url=" + db.url(), "spring.datasource.password=stale")
                .withBean(CredentialsProvider.class, () -> credentials)
                .withBean(SqlExceptionOverride.class, () -> override)
                .run(ctx -> {
                    SlotPoolDataSource ds = ctx.getBean(SlotPoolDataSource.class);
                    assertThat(ds.config().credentialsProvider()).isSameAs(credentials);
                    assertThat(ds.config().exceptionOverride()).isSameAs(override);
                    try (Connection c = ds.getConnection()) {
                        assertThat(c.isValid(1)).as("connected with the provider's password").isTrue();
                    }
                });
    }

    @Test
    void aStartWithNoReachableOriginFailsWithAReportNamingEachOrigin() {
        String east = StubDatabase.reset("carried-east").down(true).url();
        String west = StubDatabase.reset("carried-west").down(true).url();
        runner.withPropertyValues("spring.datasource.password=hunter2", "slotpool.connect-timeout=200ms",
                        "slotpool.initialization-fail-timeout=200ms", "slotpool.origins[0].name=east", "slotpool.origins[0].url=" + east,
                        "slotpool.origins[1].name=west", "slotpool.origins[1].url=" + west)
                .run(ctx -> {
                    assertThat(ctx).hasFailed();
                    Throwable failure = ctx.getStartupFailure();
                    FailureAnalysis analysis = new SlotPoolStartFailureAnalyzer().analyze(failure);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).contains("could not connect to any database")
                            .contains("origin east (" + east + "): origin 'east': could not connect: stub database "
                                    + "carried-east is down")
                            .contains("origin west (" + west + ")")
                            .doesNotContain("hunter2");
                    assertThat(analysis.getAction()).contains("slotpool.initialization-fail-timeout=-1");
                    assertThat(analysis.getCause()).isInstanceOf(PoolInitializationException.class);
                });
    }

    @Test
    void aNegativeInitializationFailTimeoutStartsWithoutAConnection() {
        StubDatabase db = StubDatabase.reset("carried-background").down(true);
        runner.withPropertyValues("spring.datasource.url=" + db.url(), "slotpool.initialization-fail-timeout=-1")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    db.down(false);
                    try (Connection c = ctx.getBean(SlotPoolDataSource.class).getConnection()) {
                        assertThat(c.isValid(1)).isTrue();
                    }
                });
    }
}
