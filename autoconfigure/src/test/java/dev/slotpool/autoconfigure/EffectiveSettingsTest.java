package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.PoolSettings.Setting;
import dev.slotpool.autoconfigure.PoolViews.PoolView;
import dev.slotpool.autoconfigure.endpoint.PoolEndpoint;
import dev.slotpool.autoconfigure.endpoint.PoolEndpointAutoConfiguration;
import dev.slotpool.autoconfigure.endpoint.SecretSanitizingAutoConfiguration;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.context.properties.ConfigurationPropertiesReportEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.context.properties.ConfigurationPropertiesReportEndpoint;
import org.springframework.boot.actuate.context.properties.ConfigurationPropertiesReportEndpoint.ConfigurationPropertiesBeanDescriptor;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configured pool's effective settings in {@code /actuator/configprops} (under {@code slotpool}, every
 * value the pool runs with) and in {@code /actuator/pool}'s {@code settings} with each value's source.
 */
class EffectiveSettingsTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class,
                    EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
                    PoolEndpointAutoConfiguration.class, ConfigurationPropertiesReportEndpointAutoConfiguration.class,
                    SecretSanitizingAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=pool,configprops",
                    "management.endpoint.configprops.show-values=always");

    /** A HikariCP user's settings, as the migration guide keeps them, with one slotpool key next to them. */
    private WebApplicationContextRunner hikariUser(String test) {
        return runner.withPropertyValues("spring.datasource.url=" + StubDatabase.reset(test).url(),
                "spring.datasource.hikari.maximum-pool-size=7", "spring.datasource.hikari.minimum-idle=7",
                "spring.datasource.hikari.connection-timeout=4000", "spring.datasource.hikari.auto-commit=false",
                "slotpool.name=orders");
    }

    private static Map<String, Object> configprops(ApplicationContext ctx, String bean) {
        Map<String, ConfigurationPropertiesBeanDescriptor> beans = ctx.getBean(ConfigurationPropertiesReportEndpoint.class)
                .configurationProperties().getContexts().values().iterator().next().getBeans();
        assertThat(beans).containsKey(bean);
        assertThat(beans.get(bean).getPrefix()).isEqualTo("slotpool");
        return beans.get(bean).getProperties();
    }

    private static Map<String, Setting> settings(ApplicationContext ctx) {
        WebEndpointResponse<Object> answer = ctx.getBean(PoolEndpoint.class).pool(null, null);
        PoolView view = (PoolView) answer.getBody();
        assertThat(view.settings()).isNotNull();
        return view.settings().stream().collect(Collectors.toMap(Setting::setting, Function.identity()));
    }

    @Test
    void configpropsShowsEveryEffectiveValueUnderSlotpool() {
        hikariUser("effective-configprops").run(ctx -> {
            assertThat(ctx).hasNotFailed();
            // The bound properties bean shows what was written under slotpool.*: the name only.
            assertThat(configprops(ctx, "slotpool-" + SlotPoolProperties.class.getName()))
                    .doesNotContainKeys("maxSize", "borrowTimeout");
            Map<String, Object> effective = configprops(ctx, "slotPoolEffectiveProperties");
            assertThat(effective).containsEntry("name", "orders").containsEntry("maxSize", 7)
                    .containsEntry("minSize", 7).containsEntry("autoCommit", false)
                    .containsEntry("creatorThreads", 2).containsKeys("borrowTimeout", "maxLifetime",
                            "keepaliveInterval", "validationTimeout", "balancing");
            assertThat(String.valueOf(effective.get("borrowTimeout"))).isIn("PT4S", "4s");
            // Injection of SlotPoolProperties still means what was written.
            assertThat(ctx.getBean(SlotPoolProperties.class).getMaxSize()).isNull();
        });
    }

    @Test
    void poolEndpointShowsEachValueWithItsSource() {
        hikariUser("effective-sources").run(ctx -> {
            Map<String, Setting> settings = settings(ctx);
            assertThat(settings.get("max-size")).isEqualTo(new Setting("max-size", 7,
                    "spring.datasource.hikari.maximum-pool-size"));
            assertThat(settings.get("min-size")).isEqualTo(new Setting("min-size", 7,
                    "spring.datasource.hikari.minimum-idle"));
            assertThat(settings.get("borrow-timeout")).isEqualTo(new Setting("borrow-timeout", "4s",
                    "spring.datasource.hikari.connection-timeout"));
            assertThat(settings.get("name")).isEqualTo(new Setting("name", "orders", "slotpool.name"));
            assertThat(settings.get("max-lifetime")).isEqualTo(new Setting("max-lifetime", "30m", "default"));
            assertThat(settings.get("initialization-fail-timeout").source()).isEqualTo(PoolSettings.BOOT_START);
            assertThat(settings.get("url").source()).isEqualTo("spring.datasource.url");
            assertThat(settings.get("origins").source()).isEqualTo("spring.datasource.url");
            assertThat(settings.values()).extracting(Setting::setting).doesNotContain("password", "username");
        });
    }

    @Test
    void aCustomizersValueShowsTheCustomizerAsItsSource() {
        hikariUser("effective-customized").withBean(SlotPoolBuilderCustomizer.class, () -> b -> b.maxSize(9))
                .run(ctx -> {
                    assertThat(ctx.getBean(SlotPoolDataSource.class).config().maxSize()).isEqualTo(9);
                    assertThat(settings(ctx).get("max-size")).isEqualTo(new Setting("max-size", 9,
                            PoolSettings.CUSTOMIZER));
                    assertThat(configprops(ctx, "slotPoolEffectiveProperties")).containsEntry("maxSize", 9);
                });
    }

    @Test
    void aCustomizersDriverPropertyAndOriginShowTheCustomizerAsTheirSource() {
        StubDatabase east = StubDatabase.reset("effective-customized-east");
        hikariUser("effective-customized-origin").withBean(SlotPoolBuilderCustomizer.class,
                        () -> b -> b.connectionProperty("applicationName", "orders")
                                .origin(dev.slotpool.OriginConfig.named("east").url(east.url())))
                .run(ctx -> {
                    Map<String, Setting> settings = settings(ctx);
                    assertThat(settings.get("connection-properties")).isEqualTo(new Setting("connection-properties",
                            List.of("applicationName"), PoolSettings.CUSTOMIZER));
                    assertThat(settings.get("origins")).isEqualTo(new Setting("origins", List.of("east"),
                            PoolSettings.CUSTOMIZER));
                    assertThat(settings.get("max-size").source()).isEqualTo("spring.datasource.hikari.maximum-pool-size");
                });
    }

    @Test
    void aPoolOfTheApplicationsOwnShowsItsValuesWithoutClaimingASource() {
        runner.withBean("own", SlotPoolDataSource.class, () -> SlotPoolDataSource.builder().name("own")
                        .url(StubDatabase.reset("effective-own").url()).minSize(0).maxSize(3).build())
                .run(ctx -> {
                    assertThat(settings(ctx).get("max-size")).isEqualTo(new Setting("max-size", 3,
                            PoolSettings.APPLICATION_POOL));
                    assertThat(ctx).doesNotHaveBean("slotPoolEffectiveProperties");
                });
    }
}
