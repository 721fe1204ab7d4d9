package dev.slotpool.autoconfigure.oracle;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.autoconfigure.SlotPoolProperties;
import oracle.simplefan.FanManager;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The Oracle FAN adapter: with {@code slotpool.oracle.fan.enabled=true}, simplefan on the class path and one
 * slotpool DataSource, subscribes a {@link FanEventMapper} to the FAN events of the origins' services
 * (docs/oracle.md). Bad FAN settings fail startup naming the property; an unreachable ONS only logs a warning.
 */
@AutoConfiguration(after = SlotPoolAutoConfiguration.class)
@ConditionalOnClass({FanManager.class, SlotPoolDataSource.class})
@ConditionalOnBooleanProperty("slotpool.oracle.fan.enabled")
@ConditionalOnSingleCandidate(SlotPoolDataSource.class)
@EnableConfigurationProperties(SlotPoolProperties.class)
public class OracleFanAutoConfiguration {

    /** Turns events into pool operations; checks the FAN settings first, so bad ones fail startup. */
    @Bean
    @ConditionalOnMissingBean
    FanEventMapper slotPoolFanEventMapper(SlotPoolDataSource pool, SlotPoolProperties properties) {
        FanSettings settings = FanSettings.of(properties.getOracle().getFan(), pool.snapshot());
        return new FanEventMapper(pool, settings.drainTimeoutDefault());
    }

    /** Subscribes the mapper once the context has started, closes the subscriptions when it stops. */
    @Bean
    @ConditionalOnMissingBean
    FanSubscriber slotPoolFanSubscriber(SlotPoolDataSource pool, SlotPoolProperties properties,
                                        FanEventMapper mapper) {
        FanSettings settings = FanSettings.of(properties.getOracle().getFan(), pool.snapshot());
        return new FanSubscriber(FanManager::getInstance, settings, mapper);
    }
}
