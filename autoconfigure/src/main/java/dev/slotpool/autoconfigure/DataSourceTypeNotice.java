package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.env.Environment;

/**
 * Says at startup, in one INFO line, that slotpool backed off because {@code spring.datasource.type} names another
 * DataSource ({@link SlotPoolAutoConfiguration.DataSourceTypeCondition}), so an app that expected slotpool learns
 * why {@code /actuator/pool} is missing.
 */
final class DataSourceTypeNotice implements SmartInitializingSingleton {

    static final String PROPERTY = "spring.datasource.type";

    private static final Log log = LogFactory.getLog(DataSourceTypeNotice.class);

    private final Environment environment;

    DataSourceTypeNotice(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void afterSingletonsInstantiated() {
        String other = SlotPoolAutoConfiguration.otherDataSourceType(environment);
        if (other != null) {
            log.info("slotpool is not the DataSource: " + PROPERTY + " names " + other + " (remove it, or set it to "
                    + SlotPoolDataSource.class.getName() + ", to pool with slotpool)");
        }
    }
}
