package dev.slotpool.autoconfigure.web;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.autoconfigure.SlotPoolProperties;
import jakarta.servlet.Filter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

import java.util.ArrayList;
import java.util.List;

/**
 * Without Spring Security, guards the pool's actions at both HTTP doors, the console ({@code slotpool.console.path},
 * when enabled) and the pool endpoint on the application's port ({@code management.endpoints.web.base-path}
 * {@code /pool}), against DNS rebinding ({@link TrustedHosts}). With Spring Security the application's chain
 * decides (docs/console.md, Security model, says what it must do).
 */
@AutoConfiguration(after = SlotPoolAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({Filter.class, FilterRegistrationBean.class, SlotPoolDataSource.class})
@ConditionalOnMissingClass("org.springframework.security.core.Authentication")
@ConditionalOnBean(SlotPoolDataSource.class)
@EnableConfigurationProperties(SlotPoolProperties.class)
public class ActionHostAutoConfiguration {

    @Bean
    FilterRegistrationBean<ActionHostFilter> slotPoolActionHostFilter(SlotPoolProperties properties,
                                                                      Environment environment) {
        List<String> paths = new ArrayList<>();
        if (environment.getProperty("slotpool.console.enabled", Boolean.class, false)) {
            paths.add(properties.getConsole().getPath() + "/*");
        }
        String base = environment.getProperty("management.endpoints.web.base-path", "/actuator");
        String pool = (base.endsWith("/") ? base : base + "/")
                + environment.getProperty("management.endpoints.web.path-mapping.pool", "pool");
        paths.add(pool);
        paths.add(pool + "/*");
        FilterRegistrationBean<ActionHostFilter> registration = new FilterRegistrationBean<>(
                new ActionHostFilter(new TrustedHosts(properties.getAllowedHosts())));
        registration.setUrlPatterns(paths);
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }
}
