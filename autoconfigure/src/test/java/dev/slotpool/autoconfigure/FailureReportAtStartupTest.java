package dev.slotpool.autoconfigure;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A real SpringApplication start with bad values prints Boot's failure report from our analyzer. */
@ExtendWith(OutputCaptureExtension.class)
class FailureReportAtStartupTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }

    @Test
    void startupFailsWithAReportNamingEachBadProperty(CapturedOutput output) {
        SpringApplication app = new SpringApplication(App.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        assertThatThrownBy(() -> app.run(
                "--spring.datasource.url=" + StubDatabase.reset("startup-report").url(),
                "--spring.datasource.password=report-secret",
                "--slotpool.max-size=0",
                "--slotpool.validation-timeout=100ms"))
                .hasStackTraceContaining("InvalidSlotPoolPropertiesException");
        assertThat(output.getOut() + output.getErr())
                .contains("APPLICATION FAILED TO START")
                .contains("Property: slotpool.max-size", "Value: 0", "Reason: must be between 1 and 100000")
                .contains("Property: slotpool.validation-timeout", "Value: 100ms", "Reason: must be between 1s and 10m")
                .contains("Configuration reference, section \"Spring Boot properties\"")
                .doesNotContain("report-secret");
    }

    @Test
    void startupWithNoReachableDatabaseFailsWithAReportNamingEachOrigin(CapturedOutput output) {
        SpringApplication app = new SpringApplication(App.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        String url = StubDatabase.reset("startup-unreachable").down(true).url();
        assertThatThrownBy(() -> app.run(
                "--spring.datasource.url=" + url,
                "--spring.datasource.password=report-secret",
                "--slotpool.connect-timeout=200ms", "--slotpool.initialization-fail-timeout=200ms"))
                .hasStackTraceContaining("PoolInitializationException");
        assertThat(output.getOut() + output.getErr())
                .contains("APPLICATION FAILED TO START")
                .contains("The connection pool (slotpool) could not connect to any database")
                .contains("origin default (" + url + "): origin 'default': could not connect: stub database "
                        + "startup-unreachable is down")
                .contains("slotpool.initialization-fail-timeout=-1")
                .doesNotContain("report-secret");
    }
}
