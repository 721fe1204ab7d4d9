package dev.slotpool.autoconfigure.endpoint;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.PoolAccessPolicy;
import dev.slotpool.autoconfigure.PoolSettings;
import dev.slotpool.autoconfigure.SlotPools;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

import javax.sql.DataSource;
import java.util.Map;
import java.util.Set;

/**
 * The {@code pool} Actuator endpoint over every slotpool ({@link SlotPools}), when Actuator is present and the
 * endpoint is exposed: {@link PoolOperationsEndpoint} for any exposure (JMX, web), its web extension
 * {@link PoolEndpoint} when exposed over the web.
 */
@AutoConfiguration(after = SlotPoolAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, SlotPoolDataSource.class})
@ConditionalOnBean(SlotPoolDataSource.class)
@ConditionalOnAvailableEndpoint(PoolOperationsEndpoint.class)
public class PoolEndpointAutoConfiguration {

    /** {@code management.endpoint.pool.show-values} and {@code .roles}, as Boot's env and configprops have them. */
    static final String SHOW_VALUES = "management.endpoint.pool.show-values";
    static final String ROLES = "management.endpoint.pool.roles";

    @Bean
    @ConditionalOnMissingBean
    PoolOperationsEndpoint poolOperationsEndpoint(Map<String, DataSource> dataSources) {
        return new PoolOperationsEndpoint(SlotPools.of(dataSources));
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(endpoint = PoolOperationsEndpoint.class, exposure = EndpointExposure.WEB)
    PoolEndpoint poolEndpoint(Map<String, DataSource> dataSources, Environment environment,
                              ObjectProvider<SanitizingFunction> sanitizingFunctions, ResourceLoader resourceLoader,
                              ObjectProvider<PoolSettings> settings) {
        Binder binder = Binder.get(environment);
        return new PoolEndpoint(SlotPools.of(dataSources),
                PoolAccessPolicy.of(environment, resourceLoader.getClassLoader()),
                binder.bind(SHOW_VALUES, Show.class).orElse(Show.NEVER),
                binder.bind(ROLES, Bindable.setOf(String.class)).orElse(Set.of()),
                new Sanitizer(sanitizingFunctions.orderedStream().toList()),
                settings.getIfAvailable(PoolSettings::new)); // none where slotpool.enabled=false: every pool is the app's
    }
}
