package dev.slotpool.autoconfigure.metrics;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Registers {@link SlotPoolMetrics} as a listener of the auto-configured pool (the pool's bean picks up
 * {@code PoolListener} beans) and attaches it to the pool once built. Only with Micrometer and a registry.
 */
@AutoConfiguration(after = {MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
        SlotPoolAutoConfiguration.class})
@ConditionalOnClass({MeterRegistry.class, SlotPoolDataSource.class})
@ConditionalOnBean({MeterRegistry.class, SlotPoolDataSource.class})
public class SlotPoolMetricsAutoConfiguration {

    @Bean
    SlotPoolMetrics slotPoolMetrics(MeterRegistry registry) {
        return new SlotPoolMetrics(registry);
    }

    /** Bound by Boot once the registry is ready: gives the gauges the pool's snapshots. */
    @Bean
    MeterBinder slotPoolMetricsBinder(SlotPoolMetrics metrics, SlotPoolDataSource pool) {
        return registry -> metrics.attach(pool::snapshot);
    }
}
