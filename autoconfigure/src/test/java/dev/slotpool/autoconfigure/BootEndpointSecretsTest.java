package dev.slotpool.autoconfigure;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import dev.slotpool.autoconfigure.endpoint.SecretSanitizingAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.context.properties.ConfigurationPropertiesReportEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.env.EnvironmentEndpointAutoConfiguration;
import org.springframework.boot.actuate.context.properties.ConfigurationPropertiesReportEndpoint;
import org.springframework.boot.actuate.env.EnvironmentEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.json.JsonMapper;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot's {@code env} and {@code configprops} endpoints with slotpool's secrets set: a password per origin, a
 * password inside an origin's URL, a password among the driver properties and the ONS wallet's password.
 */
class BootEndpointSecretsTest {

    private static final String ORIGIN_PASSWORD = "Origin-pw-1Ab";
    private static final String URL_PASSWORD = "Url-pw-2Cd";
    private static final String DRIVER_PASSWORD = "Driver-pw-3Ef";
    private static final String WALLET_PASSWORD = "Wallet-pw-4Gh";
    private static final List<String> SECRETS = List.of(ORIGIN_PASSWORD, URL_PASSWORD, DRIVER_PASSWORD, WALLET_PASSWORD);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class,
                    EndpointAutoConfiguration.class, EnvironmentEndpointAutoConfiguration.class,
                    ConfigurationPropertiesReportEndpointAutoConfiguration.class,
                    SecretSanitizingAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=env,configprops",
                    "slotpool.origins[0].name=east",
                    "slotpool.origins[0].url=" + StubDatabase.reset("secrets-east").url() + ";password=" + URL_PASSWORD,
                    "slotpool.origins[0].password=" + ORIGIN_PASSWORD,
                    "slotpool.connection-properties.password=" + DRIVER_PASSWORD,
                    "slotpool.oracle.fan.wallet-password=" + WALLET_PASSWORD);

    private static String json(Object descriptor) {
        return JsonMapper.builder().build().writeValueAsString(descriptor);
    }

    /** Boot's default ({@code show-values=never}) masks every value of both endpoints. */
    @Test
    void bootsDefaultMasksEveryValue() {
        runner.run(ctx -> {
            String env = json(ctx.getBean(EnvironmentEndpoint.class).environment(null));
            String props = json(ctx.getBean(ConfigurationPropertiesReportEndpoint.class).configurationProperties());
            assertThat(env).contains("slotpool.origins[0].password").doesNotContain(SECRETS);
            assertThat(props).contains("\"slotpool\"").doesNotContain(SECRETS);
        });
    }

    /**
     * With {@code show-values=always} Boot shows values as they are; slotpool's sanitizing function still masks its
     * passwords and driver properties and redacts credentials in its URLs, in both endpoints, while other values
     * stay readable.
     */
    @Test
    void withShowValuesAlwaysSlotpoolsSecretsStayMasked() {
        runner.withPropertyValues("management.endpoint.env.show-values=always",
                        "management.endpoint.configprops.show-values=always")
                .run(ctx -> {
                    String env = json(ctx.getBean(EnvironmentEndpoint.class).environment(null));
                    String props = json(ctx.getBean(ConfigurationPropertiesReportEndpoint.class).configurationProperties());
                    for (String out : List.of(env, props)) {
                        assertThat(out).doesNotContain(SECRETS).contains("password=***", "secrets-east");
                    }
                    assertThat(env).contains("\"slotpool.origins[0].name\":{\"value\":\"east\"");
                });
    }
}
