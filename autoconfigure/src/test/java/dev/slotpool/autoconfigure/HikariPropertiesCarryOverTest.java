package dev.slotpool.autoconfigure;

import dev.slotpool.PoolConfig;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spring.datasource.hikari.*} keys with an exact slotpool equivalent configure the auto-configured pool, in
 * HikariCP's meaning (milliseconds, 0 = no limit for connection-timeout); a {@code slotpool.*} twin wins; one INFO
 * line names what was read; the rest keep the WARN.
 */
@ExtendWith(OutputCaptureExtension.class)
class HikariPropertiesCarryOverTest {

    private static final String INFO = "spring.datasource.hikari.* keys read";
    private static final String WARNING = "spring.datasource.hikari.* keys have no effect";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class));

    private static String stubUrl(String name) {
        return StubDatabase.reset(name).url();
    }

    private static PoolConfig config(org.springframework.context.ApplicationContext ctx) {
        return ctx.getBean(SlotPoolDataSource.class).config();
    }

    @Test
    void autoCommitFalseGivesConnectionsWithAutoCommitOffAndARollbackUndoesTheInsert() {
        runner.withPropertyValues("spring.datasource.url=jdbc:h2:mem:hikari-auto-commit;DB_CLOSE_DELAY=-1",
                        "spring.datasource.hikari.auto-commit=false", "slotpool.min-size=0")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
                    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                        assertThat(c.getAutoCommit()).isFalse();
                        s.execute("create table t (id int)");
                        c.commit();
                        s.execute("insert into t values (1)");
                        c.rollback();
                    }
                    try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                         ResultSet rs = s.executeQuery("select count(*) from t")) {
                        assertThat(c.getAutoCommit()).isFalse();
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getInt(1)).isZero();
                    }
                });
    }

    @Test
    void everyKeyWithAnExactEquivalentIsReadInHikarisUnits(CapturedOutput output) {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("hikari-all"),
                        "spring.datasource.hikari.maximum-pool-size=7",
                        "spring.datasource.hikari.connectionTimeout=4000",
                        "spring.datasource.hikari.idle-timeout=120000",
                        "spring.datasource.hikari.max-lifetime=900000",
                        "spring.datasource.hikari.keepalive-time=60000",
                        "spring.datasource.hikari.validation-timeout=3000",
                        "spring.datasource.hikari.leak-detection-threshold=20000",
                        "spring.datasource.hikari.initialization-fail-timeout=-1",
                        "spring.datasource.hikari.connection-init-sql=select 1",
                        "spring.datasource.hikari.connection-test-query=select 2",
                        "spring.datasource.hikari.transaction-isolation=TRANSACTION_READ_COMMITTED",
                        "spring.datasource.hikari.read-only=true",
                        "spring.datasource.hikari.catalog=cat",
                        "spring.datasource.hikari.schema=app",
                        "spring.datasource.hikari.pool-name=from-hikari",
                        "spring.datasource.hikari.data-source-properties.loginTimeout=9",
                        "spring.datasource.hikari.auto-commit=false",
                        "slotpool.min-size=0")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    PoolConfig c = config(ctx);
                    assertThat(c.maxSize()).isEqualTo(7);
                    assertThat(c.borrowTimeout()).isEqualTo(Duration.ofSeconds(4));
                    assertThat(c.inactiveTimeout()).isEqualTo(Duration.ofMinutes(2));
                    assertThat(c.maxLifetime()).isEqualTo(Duration.ofMinutes(15));
                    assertThat(c.keepaliveInterval()).isEqualTo(Duration.ofMinutes(1));
                    assertThat(c.validationTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(c.leakDetectionThreshold()).isEqualTo(Duration.ofSeconds(20));
                    assertThat(c.initializationFailTimeout()).isNegative();
                    assertThat(c.connectionInitSql()).isEqualTo("select 1");
                    assertThat(c.validationQuery()).isEqualTo("select 2");
                    assertThat(c.transactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
                    assertThat(c.readOnly()).isTrue();
                    assertThat(c.catalog()).isEqualTo("cat");
                    assertThat(c.schema()).isEqualTo("app");
                    assertThat(c.name()).isEqualTo("from-hikari");
                    assertThat(c.connectionProperties()).containsEntry("loginTimeout", "9");
                    assertThat(c.autoCommit()).isFalse();
                    assertThat(output.getOut().lines().filter(l -> l.contains(INFO))).singleElement()
                            .satisfies(line -> assertThat(line).contains("INFO")
                                    .contains("maximum-pool-size → slotpool.max-size")
                                    .contains("connection-timeout → slotpool.borrow-timeout")
                                    .contains("data-source-properties → slotpool.connection-properties")
                                    .contains("auto-commit → slotpool.auto-commit"));
                    assertThat(output).doesNotContain(WARNING);
                });
    }

    @Test
    void aSlotpoolKeyWinsOverItsHikariTwinPerKey(CapturedOutput output) {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("hikari-twin"), "slotpool.min-size=0",
                        "spring.datasource.hikari.maximum-pool-size=7", "slotpool.max-size=5",
                        "spring.datasource.hikari.auto-commit=false", "slotpool.auto-commit=true",
                        "spring.datasource.hikari.data-source-properties.a=hikari",
                        "spring.datasource.hikari.data-source-properties.b=hikari",
                        "slotpool.connection-properties.a=slotpool")
                .run(ctx -> {
                    PoolConfig c = config(ctx);
                    assertThat(c.maxSize()).isEqualTo(5);
                    assertThat(c.autoCommit()).isTrue();
                    assertThat(c.connectionProperties()).containsEntry("a", "slotpool").containsEntry("b", "hikari");
                    assertThat(output.getOut().lines().filter(l -> l.contains(INFO))).singleElement()
                            .satisfies(line -> assertThat(line)
                                    .contains("maximum-pool-size (slotpool.max-size is set and wins)")
                                    .contains("auto-commit (slotpool.auto-commit is set and wins)"));
                });
    }

    @Test
    void poolNameWinsOverSpringDatasourceNameAsForHikari() {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("hikari-name"), "slotpool.min-size=0",
                        "spring.datasource.name=from-boot", "spring.datasource.hikari.pool-name=from-hikari")
                .run(ctx -> assertThat(config(ctx).name()).isEqualTo("from-hikari"));
    }

    @Test
    void connectionTimeoutZeroWaitsWithoutLimitAsInHikari() {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("hikari-timeout-0"), "slotpool.min-size=0",
                        "spring.datasource.hikari.connection-timeout=0")
                .run(ctx -> assertThat(config(ctx).borrowTimeout()).isEqualTo(Duration.ofMillis(Integer.MAX_VALUE)));
    }

    @Test
    void aNumericIsolationLevelIsReadAsHikariReadsIt() {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("hikari-isolation"), "slotpool.min-size=0",
                        "spring.datasource.hikari.transaction-isolation=8")
                .run(ctx -> assertThat(config(ctx).transactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE));
    }

    @Test
    void minimumIdleIsReadAsTheFloorHikariKeepsOpen(CapturedOutput output) {
        // A fixed-size pool (minimum-idle ≥ maximum-pool-size) and no pre-filled pool (0) mean the same in both.
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("hikari-fixed"),
                        "spring.datasource.hikari.maximum-pool-size=3", "spring.datasource.hikari.minimum-idle=5")
                .run(ctx -> assertThat(config(ctx)).satisfies(c -> {
                    assertThat(c.minSize()).isEqualTo(3);
                    assertThat(c.maxSize()).isEqualTo(3);
                }));
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("hikari-idle-0"),
                        "spring.datasource.hikari.minimum-idle=0")
                .run(ctx -> assertThat(config(ctx).minSize()).isZero());
        // 0 < minimum-idle < maximum-pool-size: HikariCP holds at least that many open at rest, up to the maximum.
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("hikari-idle-2"),
                        "spring.datasource.hikari.maximum-pool-size=6", "spring.datasource.hikari.minimum-idle=2")
                .run(ctx -> {
                    assertThat(config(ctx)).satisfies(c -> {
                        assertThat(c.minSize()).isEqualTo(2);
                        assertThat(c.maxSize()).isEqualTo(6);
                    });
                    assertThat(output.getOut().lines().filter(l -> l.contains(WARNING))).isEmpty();
                });
    }

    @Test
    void aSlotpoolMaxSizeAboveMinimumIdleKeepsMinimumIdleAsTheFloor(CapturedOutput output) {
        // A fixed pool of 7 on HikariCP with slotpool.max-size=9 next to it: HikariCP with these numbers keeps at
        // least 7 open; the pool must not fall to the engine's default min-size.
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("hikari-floor"), "slotpool.max-size=9",
                        "spring.datasource.hikari.maximum-pool-size=7", "spring.datasource.hikari.minimum-idle=7")
                .run(ctx -> {
                    assertThat(config(ctx)).satisfies(c -> {
                        assertThat(c.minSize()).isEqualTo(7);
                        assertThat(c.maxSize()).isEqualTo(9);
                    });
                    assertThat(output.getOut().lines().filter(l -> l.contains(WARNING))).singleElement()
                            .satisfies(l -> assertThat(l).contains("maximum-pool-size")
                                    .doesNotContain("minimum-idle"));
                });
    }

    @Test
    void aSlotpoolMinSizeWinsOverMinimumIdle() {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("hikari-min-wins"), "slotpool.min-size=1",
                        "spring.datasource.hikari.maximum-pool-size=6", "spring.datasource.hikari.minimum-idle=2")
                .run(ctx -> assertThat(config(ctx).minSize()).isEqualTo(1));
    }

    @Test
    void aBadHikariValueIsReportedUnderTheKeyThatWasWritten() {
        runner.withPropertyValues("spring.datasource.url=" + stubUrl("hikari-bad"), "slotpool.min-size=0",
                        "spring.datasource.hikari.maximum-pool-size=0")
                .run(ctx -> {
                    assertThat(ctx).hasFailed();
                    assertThat(ctx.getStartupFailure()).rootCause()
                            .isInstanceOf(InvalidSlotPoolPropertiesException.class)
                            .hasMessageContaining("spring.datasource.hikari.maximum-pool-size");
                });
    }

    @Test
    void aPoolOfTheApplicationsOwnReadsNoHikariKey(CapturedOutput output) {
        runner.withPropertyValues("spring.datasource.hikari.maximum-pool-size=7")
                .withBean("own", SlotPoolDataSource.class, () -> SlotPoolDataSource.builder().name("own")
                        .url(stubUrl("hikari-own")).minSize(0).maxSize(4).build())
                .run(ctx -> {
                    assertThat(config(ctx).maxSize()).isEqualTo(4);
                    assertThat(output).doesNotContain(INFO);
                    assertThat(output.getOut().lines().filter(l -> l.contains(WARNING))).singleElement()
                            .satisfies(l -> assertThat(l).contains("maximum-pool-size → slotpool.max-size"));
                });
    }

    @Test
    void hikariKeysAreNoBusinessOfSlotpoolWhenTheApplicationHasItsOwnDataSource() {
        runner.withPropertyValues("spring.datasource.hikari.maximum-pool-size=not-a-number")
                .withBean("own", DataSource.class, SimpleDriverDataSource::new)
                .run(ctx -> assertThat(ctx).hasNotFailed());
    }

    @Test
    void keysAreReadInEveryRelaxedForm() {
        runner.withSystemProperties("spring.datasource.hikari.maximumPoolSize=8")
                .withPropertyValues("spring.datasource.url=" + stubUrl("hikari-relaxed"), "slotpool.min-size=0")
                .run(ctx -> assertThat(config(ctx).maxSize()).isEqualTo(8));
    }
}
