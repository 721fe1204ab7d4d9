package dev.slotpool.autoconfigure.endpoint;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPools;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import javax.sql.DataSource;
import java.util.Map;

/** The {@code pool} Actuator endpoint over every slotpool ({@link SlotPools}), when Actuator is present and the endpoint is exposed. */
@AutoConfiguration(after = SlotPoolAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, SlotPoolDataSource.class})
@ConditionalOnBean(SlotPoolDataSource.class)
@ConditionalOnAvailableEndpoint(PoolEndpoint.class)
public class PoolEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    PoolEndpoint poolEndpoint(Map<String, DataSource> dataSources) {
        return new PoolEndpoint(SlotPools.of(dataSources));
    }
}
