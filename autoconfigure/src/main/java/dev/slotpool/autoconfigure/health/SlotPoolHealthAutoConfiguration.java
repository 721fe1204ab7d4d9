package dev.slotpool.autoconfigure.health;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.autoconfigure.SlotPools;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.CompositeHealthContributorConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import javax.sql.DataSource;
import java.util.Map;

/**
 * The {@code slotpool} health contributor ({@code management.health.slotpool.enabled}, on by default): the pool's
 * indicator, or with several pools a composite with one entry per pool key ({@link SlotPools}), as Boot's
 * {@code db} contributor does for several DataSources.
 */
@AutoConfiguration(after = SlotPoolAutoConfiguration.class)
@ConditionalOnClass({HealthIndicator.class, SlotPoolDataSource.class})
@ConditionalOnBean(SlotPoolDataSource.class)
@ConditionalOnEnabledHealthIndicator("slotpool")
public class SlotPoolHealthAutoConfiguration
        extends CompositeHealthContributorConfiguration<SlotPoolHealthIndicator, SlotPoolDataSource> {

    public SlotPoolHealthAutoConfiguration() {
        super(SlotPoolHealthIndicator::new);
    }

    @Bean
    @ConditionalOnMissingBean(name = "slotpoolHealthIndicator")
    HealthContributor slotpoolHealthIndicator(Map<String, DataSource> dataSources) {
        return createContributor(SlotPools.of(dataSources).all());
    }
}
