package dev.slotpool.autoconfigure.metrics;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.autoconfigure.SlotPools;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import javax.sql.DataSource;
import java.util.Map;

/**
 * Registers {@link SlotPoolMetrics} as a listener of the auto-configured pool (the pool's bean picks up
 * {@code PoolListener} beans) and attaches it to the pool once built; every other slotpool of the application
 * ({@link SlotPools}: an application's own pool beans, wrapped or not) gets its snapshot meters, tagged with its
 * key. Only with Micrometer and a registry.
 */
@AutoConfiguration(after = {MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
        SlotPoolAutoConfiguration.class})
@ConditionalOnClass({MeterRegistry.class, SlotPoolDataSource.class})
@ConditionalOnBean({MeterRegistry.class, SlotPoolDataSource.class})
public class SlotPoolMetricsAutoConfiguration {

    static final String HIKARICP = "slotpool.metrics.hikaricp";

    /** The borrow timer's percentiles: Boot's distribution properties when set for it, else p50, p95, p99. */
    @Bean
    static MeterFilter slotPoolBorrowWaitDistribution(Environment environment) {
        return new BorrowWaitDistribution(environment);
    }

    @Bean
    SlotPoolMetrics slotPoolMetrics(MeterRegistry registry, Environment environment) {
        return new SlotPoolMetrics(registry, hikaricp(environment));
    }

    /** {@code slotpool.metrics.hikaricp}: HikariCP's meter names too, for dashboards written for it. */
    static boolean hikaricp(Environment environment) {
        return environment.getProperty(HIKARICP, Boolean.class, false);
    }

    /** Bound by Boot once the registry is ready: gives the gauges each pool's snapshots. */
    @Bean
    MeterBinder slotPoolMetricsBinder(SlotPoolMetrics metrics, Map<String, DataSource> dataSources,
                                      Environment environment) {
        boolean hikaricp = hikaricp(environment);
        return registry -> SlotPools.of(dataSources).all().forEach((key, pool) -> {
            if (pool.config().listeners().contains(metrics)) {
                metrics.attach(pool::snapshot);
                metrics.attachLimits(pool::limits);
            } else {
                SlotPoolMetrics.fromSnapshots(registry, key, pool, hikaricp);
            }
        });
    }
}
