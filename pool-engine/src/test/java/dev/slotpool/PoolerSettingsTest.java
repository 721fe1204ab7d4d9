package dev.slotpool;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * What an origin's pooler does to its settings (docs/poolers.md): the driver made safe where the user set nothing,
 * a value the user set kept when safe and refused, named, when not; settings that cannot be made safe refused.
 */
class PoolerSettingsTest {

    private static final String PG = "jdbc:postgresql://127.0.0.1:6432/app";

    private static SlotPoolBuilder pg() {
        return SlotPoolDataSource.builder().url(PG);
    }

    private static Map<String, String> props(PoolConfig c) {
        return c.origins().get(0).connectionProperties();
    }

    private static InvalidPoolConfigException refused(SlotPoolBuilder b) {
        InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, b::config);
        assertThat(e).as("refused at startup").isNotNull();
        return e;
    }

    @Test
    void aTransactionPoolerTurnsOffPgjdbcsServerSideStatements() {
        PoolConfig c = pg().pooler(Pooler.TRANSACTION).config();
        assertThat(props(c)).containsEntry("prepareThreshold", "0");
        assertThat(c.origins().get(0).pooler()).isEqualTo(Pooler.TRANSACTION);
    }

    @Test
    void withoutAPoolerOrBehindASessionPoolerTheDriverKeepsItsDefaults() {
        assertThat(props(pg().config())).doesNotContainKey("prepareThreshold");
        assertThat(props(pg().pooler(Pooler.SESSION).config())).doesNotContainKey("prepareThreshold");
        assertThat(props(pg().pooler(Pooler.TRANSACTION_WITH_PREPARED_STATEMENTS).config()))
                .doesNotContainKey("prepareThreshold");
    }

    @Test
    void aSafeValueTheUserSetIsKept() {
        assertThat(props(pg().pooler(Pooler.TRANSACTION).connectionProperty("prepareThreshold", "0").config()))
                .containsEntry("prepareThreshold", "0");
        PoolConfig simple = pg().pooler(Pooler.TRANSACTION).connectionProperty("preferQueryMode", "simple").config();
        assertThat(props(simple)).doesNotContainKey("prepareThreshold");
    }

    @Test
    void anUnsafeThresholdIsRefusedWhereTheUserSetIt() {
        InvalidPoolConfigException e = refused(pg().pooler(Pooler.TRANSACTION)
                .connectionProperty("prepareThreshold", "5"));
        assertThat(e.violations()).singleElement().satisfies(v -> {
            assertThat(v.property()).isEqualTo("connectionProperties.prepareThreshold");
            assertThat(v.value()).isEqualTo("5");
            assertThat(v.problem()).contains("must be 0 behind a transaction pooler")
                    .contains("TRANSACTION_WITH_PREPARED_STATEMENTS");
        });
        InvalidPoolConfigException inUrl = refused(SlotPoolDataSource.builder().url(PG + "?prepareThreshold=-1")
                .pooler(Pooler.TRANSACTION));
        assertThat(inUrl.violations()).singleElement().satisfies(v -> {
            assertThat(v.property()).isEqualTo("url");
            assertThat(v.value()).isEqualTo("prepareThreshold=-1");
        });
    }

    @Test
    void perOriginThePoolsSettingIsTheDefaultAndTheOriginsWins() {
        PoolConfig c = pg().pooler(Pooler.TRANSACTION)
                .origin(OriginConfig.named("bouncer-a"))
                .origin(OriginConfig.named("direct").pooler(Pooler.NONE))
                .config();
        assertThat(c.origins().get(0).pooler()).isEqualTo(Pooler.TRANSACTION);
        assertThat(c.origins().get(0).connectionProperties()).containsEntry("prepareThreshold", "0");
        assertThat(c.origins().get(1).pooler()).isEqualTo(Pooler.NONE);
        assertThat(c.origins().get(1).connectionProperties()).doesNotContainKey("prepareThreshold");

        InvalidPoolConfigException e = refused(pg().origin(OriginConfig.named("east").pooler(Pooler.TRANSACTION)
                .connectionProperties(Map.of("prepareThreshold", "3"))));
        assertThat(e.violations()).extracting(ConfigViolation::property)
                .containsExactly("origins[east].connectionProperties.prepareThreshold");
    }

    @Test
    void sessionStateSetOncePerConnectionIsRefusedBehindATransactionPooler() {
        InvalidPoolConfigException e = refused(pg().pooler(Pooler.TRANSACTION).schema("app")
                .transactionIsolation("SERIALIZABLE").connectionInitSql("SET statement_timeout = 1000")
                .connectionProperty("readOnlyMode", "always")
                .origin(OriginConfig.named("a")).origin(OriginConfig.named("b")));
        assertThat(e.violations()).extracting(ConfigViolation::property).containsExactlyInAnyOrder(
                "schema", "transactionIsolation", "connectionInitSql",
                "origins[a].connectionProperties.readOnlyMode", "origins[b].connectionProperties.readOnlyMode");
        assertThat(e.getMessage()).doesNotContain("statement_timeout"); // the init SQL is not echoed
        // read-only stays allowed: pgjdbc applies it at BEGIN (readOnlyMode=transaction, its default).
        assertThat(pg().pooler(Pooler.TRANSACTION).readOnly(true).config()).isNotNull();
    }

    @Test
    void aTransactionPoolerNeedsPgjdbc() {
        InvalidPoolConfigException e = refused(SlotPoolDataSource.builder().url("jdbc:h2:mem:x")
                .pooler(Pooler.TRANSACTION));
        assertThat(e.violations()).extracting(ConfigViolation::property).containsExactly("pooler");
    }

    @Test
    void aPoolerAdminUrlMustNameTheConsolesHostAndUserAndIsNeverShown() {
        assertThat(pg().origin(OriginConfig.named("a").poolerAdminUrl("postgresql://127.0.0.1:6432/pgbouncer?user=stats"))
                .config().origins().get(0).poolerAdminUrl()).isNotNull();
        InvalidPoolConfigException e = refused(pg().origin(OriginConfig.named("a")
                .poolerAdminUrl("postgresql://127.0.0.1:6432/pgbouncer?password=Pw-9x")));
        assertThat(e.violations()).extracting(ConfigViolation::property).containsExactly("origins[a].poolerAdminUrl");
        assertThat(e.getMessage()).doesNotContain("Pw-9x");
    }

    @Test
    void aPoolerAdminUrlsSslmodeIsCheckedAtStartup() {
        assertThat(pg().origin(OriginConfig.named("a")
                .poolerAdminUrl("postgresql://127.0.0.1:6432/pgbouncer?user=stats&sslmode=verify-full")).config())
                .isNotNull();
        InvalidPoolConfigException e = refused(pg().origin(OriginConfig.named("a")
                .poolerAdminUrl("postgresql://127.0.0.1:6432/pgbouncer?user=stats&password=Pw-9x&sslmode=prefer")));
        assertThat(e.violations()).extracting(ConfigViolation::property).containsExactly("origins[a].poolerAdminUrl");
        assertThat(e.getMessage()).contains("sslmode must be disable, require or verify-full").doesNotContain("Pw-9x");
    }

    @Test
    void drcpNeedsAPooledServerAndGivesTheDriverAConnectionClassAndPurityUnlessSet() {
        String pooled = "jdbc:oracle:thin:@//db:1521/SALES:POOLED";
        PoolConfig c = SlotPoolDataSource.builder().name("orders").url(pooled).pooler(Pooler.DRCP).config();
        assertThat(props(c)).containsEntry("oracle.jdbc.DRCPConnectionClass", "orders")
                .containsEntry("oracle.jdbc.DRCPConnectionPurity", "SELF");
        PoolConfig set = SlotPoolDataSource.builder().name("orders").url("jdbc:oracle:thin:@(DESCRIPTION=(ADDRESS="
                        + "(PROTOCOL=tcp)(HOST=db)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=SALES)(SERVER=POOLED)))")
                .pooler(Pooler.DRCP).connectionProperty("oracle.jdbc.DRCPConnectionClass", "shop")
                .connectionProperty("oracle.jdbc.DRCPConnectionPurity", "NEW").config();
        assertThat(props(set)).containsEntry("oracle.jdbc.DRCPConnectionClass", "shop")
                .containsEntry("oracle.jdbc.DRCPConnectionPurity", "NEW");

        InvalidPoolConfigException dedicated = refused(SlotPoolDataSource.builder()
                .url("jdbc:oracle:thin:@//db:1521/SALES").pooler(Pooler.DRCP));
        assertThat(dedicated.violations()).extracting(ConfigViolation::property).containsExactly("url");
        InvalidPoolConfigException purity = refused(SlotPoolDataSource.builder().url(pooled).pooler(Pooler.DRCP)
                .connectionProperty("oracle.jdbc.DRCPConnectionPurity", "DEFAULT"));
        assertThat(purity.violations()).extracting(ConfigViolation::property)
                .containsExactly("connectionProperties.oracle.jdbc.DRCPConnectionPurity");
        InvalidPoolConfigException notOracle = refused(pg().pooler(Pooler.DRCP));
        assertThat(notOracle.violations()).extracting(ConfigViolation::property).containsExactly("pooler");
    }
}
