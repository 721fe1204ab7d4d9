package dev.slotpool.autoconfigure.health;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/** The {@code slotpool} health contributor ({@code management.health.slotpool.enabled}, on by default). */
@AutoConfiguration(after = SlotPoolAutoConfiguration.class)
@ConditionalOnClass({HealthIndicator.class, SlotPoolDataSource.class})
@ConditionalOnBean(SlotPoolDataSource.class)
@ConditionalOnEnabledHealthIndicator("slotpool")
public class SlotPoolHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "slotpoolHealthIndicator")
    SlotPoolHealthIndicator slotpoolHealthIndicator(SlotPoolDataSource pool) {
        return new SlotPoolHealthIndicator(pool);
    }
}
