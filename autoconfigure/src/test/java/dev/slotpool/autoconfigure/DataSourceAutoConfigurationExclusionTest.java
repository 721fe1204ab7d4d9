package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Excluding Boot's {@link DataSourceAutoConfiguration} removes slotpool's DataSource as it removes HikariCP, in
 * each of the three forms: the annotation's {@code exclude}, its {@code excludeName}, and
 * {@code spring.autoconfigure.exclude}. HikariCP is on this module's test class path, so "no DataSource bean"
 * also shows Boot's own pool stayed out.
 */
class DataSourceAutoConfigurationExclusionTest {

    private static final String DATA_SOURCE_AUTO_CONFIGURATION =
            "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration";

    /** The runner registers AutoConfigurations.of(...) directly, so exclusions go through an import selector. */
    private final ApplicationContextRunner runner = new ApplicationContextRunner();

    @ImportAutoConfiguration({SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class})
    static class Both {
    }

    @ImportAutoConfiguration(classes = {SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class},
            exclude = DataSourceAutoConfiguration.class)
    static class BothExcludingDataSource {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration(exclude = DataSourceAutoConfiguration.class)
    static class AppExcludingByClass {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration(excludeName = DATA_SOURCE_AUTO_CONFIGURATION)
    static class AppExcludingByName {
    }

    private static String url(String name) {
        return "spring.datasource.url=" + StubDatabase.reset(name).url();
    }

    @Test
    void runnerWithoutExclusionHasSlotpool() {
        runner.withUserConfiguration(Both.class).withPropertyValues(url("exclusion-none"))
                .run(ctx -> assertThat(ctx.getBean(DataSource.class)).isInstanceOf(SlotPoolDataSource.class));
    }

    @Test
    void runnerWithAnnotationExcludeHasNoDataSource() {
        runner.withUserConfiguration(BothExcludingDataSource.class).withPropertyValues(url("exclusion-annotation"))
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    assertThat(ctx).doesNotHaveBean(DataSource.class);
                });
    }

    @Test
    void runnerWithExcludePropertyHasNoDataSource() {
        runner.withUserConfiguration(Both.class)
                .withPropertyValues(url("exclusion-property"), "spring.autoconfigure.exclude=" + DATA_SOURCE_AUTO_CONFIGURATION)
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    assertThat(ctx).doesNotHaveBean(DataSource.class);
                });
    }

    @Test
    void applicationWithoutExclusionHasSlotpool() {
        try (ConfigurableApplicationContext ctx = start(App.class, url("app-none"))) {
            assertThat(ctx.getBean(DataSource.class)).isInstanceOf(SlotPoolDataSource.class);
        }
    }

    @Test
    void applicationExcludingByClassHasNoDataSource() {
        try (ConfigurableApplicationContext ctx = start(AppExcludingByClass.class, url("app-class"))) {
            assertThat(ctx.getBeanNamesForType(DataSource.class)).isEmpty();
        }
    }

    @Test
    void applicationExcludingByNameHasNoDataSource() {
        try (ConfigurableApplicationContext ctx = start(AppExcludingByName.class, url("app-name"))) {
            assertThat(ctx.getBeanNamesForType(DataSource.class)).isEmpty();
        }
    }

    @Test
    void applicationExcludingByPropertyHasNoDataSource() {
        try (ConfigurableApplicationContext ctx = start(App.class, url("app-property"),
                "spring.autoconfigure.exclude=" + DATA_SOURCE_AUTO_CONFIGURATION)) {
            assertThat(ctx.getBeanNamesForType(DataSource.class)).isEmpty();
        }
    }

    private static ConfigurableApplicationContext start(Class<?> app, String... properties) {
        return new SpringApplicationBuilder(app).web(WebApplicationType.NONE)
                .properties(properties).properties("spring.main.banner-mode=off").run();
    }
}
