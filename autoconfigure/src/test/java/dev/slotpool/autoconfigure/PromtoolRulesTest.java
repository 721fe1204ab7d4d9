package dev.slotpool.autoconfigure;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped alert rules pass their unit tests, {@code promtool test rules} on
 * docs/prometheus/slotpool-alerts.test.yml (Debian's {@code prometheus} package). Skipped where promtool is not
 * installed, unless {@value #REQUIRE_ENV}{@code =1} is set ({@code .ci/run} sets it): then it fails.
 */
class PromtoolRulesTest {

    static final String REQUIRE_ENV = "SLOTPOOL_REQUIRE_PROMTOOL";

    private static Path promtool() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : (path + File.pathSeparator + "/usr/bin").split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "promtool");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    @Test
    void theAlertRulesPassPromtoolsUnitTests() throws Exception {
        Path promtool = promtool();
        if (promtool == null) {
            assertThat(System.getenv(REQUIRE_ENV)).as("promtool is required (%s=1) but not installed", REQUIRE_ENV)
                    .isNotEqualTo("1");
            Assumptions.abort("promtool is not installed (Debian's prometheus package)");
        }
        Path dir = AlertRulesDocTest.RULES.getParent();
        Process run = new ProcessBuilder(promtool.toString(), "test", "rules", "slotpool-alerts.test.yml")
                .directory(dir.toFile()).redirectErrorStream(true).start();
        assertThat(run.waitFor(120, TimeUnit.SECONDS)).as("promtool within 120 s").isTrue();
        String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(run.exitValue()).as(out).isZero();
        assertThat(out).contains("SUCCESS");
    }
}
