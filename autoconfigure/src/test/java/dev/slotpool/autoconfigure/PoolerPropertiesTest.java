package dev.slotpool.autoconfigure;

import dev.slotpool.PoolConfig;
import dev.slotpool.Pooler;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code slotpool.pooler} and {@code slotpool.origins[n].pooler} reach the engine; its refusals name the
 * properties as the user wrote them (docs/poolers.md). */
class PoolerPropertiesTest {

    /** A PgBouncer address nothing listens on: the Boot app starts without waiting for it. */
    private static final String BOUNCER = "jdbc:postgresql://127.0.0.1:1/app";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class));

    @Test
    void thePoolsPoolerAppliesToOriginsThatNameNone() {
        runner.withPropertyValues("spring.datasource.url=" + BOUNCER, "slotpool.pooler=transaction",
                        "slotpool.origins[0].name=bouncer-a",
                        "slotpool.origins[1].name=direct", "slotpool.origins[1].pooler=none")
                .run(ctx -> {
                    PoolConfig c = ctx.getBean(SlotPoolDataSource.class).config();
                    assertThat(c.origins().get(0).pooler()).isEqualTo(Pooler.TRANSACTION);
                    assertThat(c.origins().get(0).connectionProperties()).containsEntry("prepareThreshold", "0");
                    assertThat(c.origins().get(1).pooler()).isEqualTo(Pooler.NONE);
                    assertThat(c.origins().get(1).connectionProperties()).doesNotContainKey("prepareThreshold");
                });
    }

    @Test
    void anUnsafeCombinationFailsStartupNamingTheProperties() {
        runner.withPropertyValues("spring.datasource.url=" + BOUNCER, "slotpool.pooler=transaction",
                        "slotpool.schema=app", "slotpool.connection-properties.prepareThreshold=5")
                .run(ctx -> {
                    assertThat(ctx).hasFailed();
                    Throwable t = ctx.getStartupFailure();
                    while (t != null && !(t instanceof InvalidSlotPoolPropertiesException)) {
                        t = t.getCause();
                    }
                    assertThat(t).isNotNull();
                    assertThat(((InvalidSlotPoolPropertiesException) t).violations()).extracting(v -> v.property())
                            .containsExactlyInAnyOrder("slotpool.schema",
                                    "slotpool.connection-properties.prepareThreshold");
                });
    }
}
