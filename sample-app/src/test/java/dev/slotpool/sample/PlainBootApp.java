package dev.slotpool.sample;

import dev.slotpool.SlotPoolDataSource;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.DefaultResourceLoader;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain Boot app without Spring Security, as an application that never added it: this module's Spring Security
 * classes are hidden from its class loader, so neither Boot's security auto-configuration nor slotpool's policy
 * sees them. Three H2 origins of its own ({@code plain-<name>-east}, ...), the console on with
 * {@code actions-enabled=true} and the pool endpoint unrestricted, {@code env} and {@code configprops} exposed with
 * {@code show-values=always} (the settings an attacker would hope for). No {@code application.yml}: only the
 * properties given here. Tomcat's send buffer is small, so a reader that does not read stalls a write quickly.
 */
final class PlainBootApp implements AutoCloseable {

    /** The databases' password; no answer may contain it. */
    static final String DB_PASSWORD = "Plain-db-pw-7Qx";

    private final ConfigurableApplicationContext context;

    private PlainBootApp(ConfigurableApplicationContext context) {
        this.context = context;
    }

    static PlainBootApp start(String name, String... more) {
        return startWithEnvironment(name, null, more);
    }

    /** As {@link #start}, with {@code variables} first among the environment's sources (as the OS's would be). */
    static PlainBootApp startWithEnvironment(String name, PropertySource<?> variables, String... more) {
        List<String> p = new ArrayList<>(List.of("spring.config.name=plain-boot-app-none", "server.port=0",
                "spring.main.banner-mode=off", "spring.application.name=" + name,
                "server.forward-headers-strategy=native",
                "spring.datasource.username=sa", "spring.datasource.password=" + DB_PASSWORD,
                "slotpool.name=" + name, "slotpool.min-size=30", "slotpool.max-size=30",
                "slotpool.housekeeping-period=200ms",
                "slotpool.console.enabled=true", "slotpool.console.actions-enabled=true",
                "management.endpoints.web.exposure.include=pool,env,configprops",
                "management.endpoint.pool.access=unrestricted",
                "management.endpoint.env.show-values=always", "management.endpoint.configprops.show-values=always"));
        String[] origins = {"east", "west", "north"};
        for (int i = 0; i < origins.length; i++) {
            p.add("slotpool.origins[" + i + "].name=" + origins[i]);
            p.add("slotpool.origins[" + i + "].url=jdbc:h2:mem:plain-" + name + "-" + origins[i] + ";DB_CLOSE_DELAY=-1"
                    + ";IGNORE_UNKNOWN_SETTINGS=TRUE");
            p.add("slotpool.origins[" + i + "].weight=" + (50 - 15 * i));
        }
        p.addAll(List.of(more));
        ConfigurableApplicationContext context = new SpringApplicationBuilder(Config.class)
                .resourceLoader(new DefaultResourceLoader(new FilteredClassLoader("org.springframework.security")))
                .properties(p.toArray(String[]::new))
                .initializers(ctx -> {
                    if (variables != null) {
                        ctx.getEnvironment().getPropertySources().addFirst(variables);
                    }
                })
                .run();
        return new PlainBootApp(context);
    }

    int port() {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    RawHttp http() {
        return new RawHttp(port());
    }

    SlotPoolDataSource pool() {
        return context.getBean(SlotPoolDataSource.class);
    }

    ConfigurableApplicationContext context() {
        return context;
    }

    @Override
    public void close() {
        context.close();
    }

    /** A test configuration, so the sample app's component scan (and @SpringBootTest's search) passes it by. */
    @TestConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class Config {

        /** An 8 KB send buffer: a write to a reader that does not read blocks after a snapshot or two. */
        @Bean
        WebServerFactoryCustomizer<TomcatServletWebServerFactory> smallSendBuffer() {
            return factory -> factory.addConnectorCustomizers(c -> c.setProperty("socket.txBufSize", "8192"));
        }
    }
}
