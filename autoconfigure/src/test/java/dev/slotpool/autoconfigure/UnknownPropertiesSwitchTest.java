package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Unknown {@code slotpool.*} keys fail startup unless {@code slotpool.fail-on-unknown-properties=false}, which
 * names them in a WARN instead; known keys bind the same either way.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownPropertiesSwitchTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=" + StubDatabase.reset("unknown-keys").url(),
                    "slotpool.max-size=7", "slotpool.from-a-newer-version=on");

    @Test
    void byDefaultAnUnknownKeyFailsStartupNamingIt() {
        runner.run(ctx -> {
            assertThat(ctx).hasFailed();
            assertThat(ctx.getStartupFailure()).rootCause().isInstanceOf(UnboundConfigurationPropertiesException.class)
                    .hasMessageContaining("slotpool.from-a-newer-version");
        });
    }

    @Test
    void theSwitchSetToTrueStillFails() {
        runner.withPropertyValues("slotpool.fail-on-unknown-properties=true")
                .run(ctx -> assertThat(ctx).hasFailed());
    }

    @Test
    void theSwitchSetToFalseStartsAndWarnsNamingTheKey(CapturedOutput output) {
        runner.withPropertyValues("slotpool.fail-on-unknown-properties=false").run(ctx -> {
            assertThat(ctx).hasNotFailed();
            assertThat(ctx.getBean(SlotPoolDataSource.class).config().maxSize()).isEqualTo(7);
            assertThat(output.getOut().lines().filter(l -> l.contains("slotpool.from-a-newer-version")))
                    .singleElement().satisfies(l -> assertThat(l).contains("WARN", "ignored"));
            assertThat(output).doesNotContain("=on");
        });
    }
}
