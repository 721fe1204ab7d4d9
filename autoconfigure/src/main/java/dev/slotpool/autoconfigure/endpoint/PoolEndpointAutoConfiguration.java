package dev.slotpool.autoconfigure.endpoint;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPools;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import javax.sql.DataSource;
import java.util.Map;

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

    @Bean
    @ConditionalOnMissingBean
    PoolOperationsEndpoint poolOperationsEndpoint(Map<String, DataSource> dataSources) {
        return new PoolOperationsEndpoint(SlotPools.of(dataSources));
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(endpoint = PoolOperationsEndpoint.class, exposure = EndpointExposure.WEB)
    PoolEndpoint poolEndpoint(Map<String, DataSource> dataSources) {
        return new PoolEndpoint(SlotPools.of(dataSources));
    }
}
