package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spring.datasource.hikari.*} keys left in a configuration that no pool read ({@link HikariCarryOver}) are
 * named in one startup WARN, values never.
 */
@ExtendWith(OutputCaptureExtension.class)
class HikariPropertiesWarningTest {

    private static final String WARNING = "spring.datasource.hikari.* keys have no effect";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=" + StubDatabase.reset("hikari-keys").url());

    @Test
    void namesEachKeyTheAutoConfiguredPoolDidNotReadInOneWarning(CapturedOutput output) {
        runner.withPropertyValues("spring.datasource.hikari.maximum-pool-size=20",
                        "spring.datasource.hikari.connectionTimeout=5000",
                        "spring.datasource.hikari.register-mbeans=true",
                        "spring.datasource.hikari.password=hikari-secret-value")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    assertThat(output.getOut().lines().filter(l -> l.contains(WARNING))).singleElement()
                            .satisfies(line -> assertThat(line).contains("WARN")
                                    .doesNotContain("maximum-pool-size").doesNotContain("connection-timeout")
                                    .contains("spring.datasource.hikari.register-mbeans → spring.jmx.enabled")
                                    .contains("spring.datasource.hikari.password → spring.datasource.password"));
                    assertThat(output).doesNotContain("hikari-secret-value");
                });
    }

    @Test
    void warnsOnceWithTwoSlotpoolPools(CapturedOutput output) {
        runner.withPropertyValues("spring.datasource.hikari.register-mbeans=true")
                .withBean("first", SlotPoolDataSource.class, () -> SlotPoolDataSource.builder().name("first")
                        .url(StubDatabase.reset("hikari-keys-1").url()).minSize(0).build())
                .withBean("second", SlotPoolDataSource.class, () -> SlotPoolDataSource.builder().name("second")
                        .url(StubDatabase.reset("hikari-keys-2").url()).minSize(0).build())
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    assertThat(output.getOut().lines().filter(l -> l.contains(WARNING))).singleElement()
                            .satisfies(l -> assertThat(l).contains("spring.datasource.hikari.register-mbeans → spring.jmx.enabled"));
                });
    }

    @Test
    void saysNothingWithoutHikariKeys(CapturedOutput output) {
        runner.run(ctx -> assertThat(output).doesNotContain(WARNING));
    }

    @Test
    void saysNothingWhenHikariIsThePool(CapturedOutput output) {
        runner.withPropertyValues("slotpool.enabled=false", "spring.datasource.hikari.maximum-pool-size=20")
                .run(ctx -> assertThat(output).doesNotContain(WARNING));
    }
}
