package dev.slotpool.autoconfigure.crac;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.autoconfigure.SlotPools;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnCheckpointRestore;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import javax.sql.DataSource;
import java.util.Map;

/**
 * Checkpoint and restore for every slotpool ({@link SlotPoolCheckpointRestoreLifecycle}), only when the JVM's
 * checkpoint support ({@code org.crac}) is on the class path, as Boot registers HikariCP's.
 */
@AutoConfiguration(after = SlotPoolAutoConfiguration.class)
@ConditionalOnCheckpointRestore
@ConditionalOnClass(SlotPoolDataSource.class)
@ConditionalOnBean(SlotPoolDataSource.class)
public class SlotPoolCheckpointRestoreAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    SlotPoolCheckpointRestoreLifecycle slotPoolCheckpointRestoreLifecycle(Map<String, DataSource> dataSources,
                                                                          ConfigurableApplicationContext context) {
        return new SlotPoolCheckpointRestoreLifecycle(SlotPools.of(dataSources), context);
    }
}
