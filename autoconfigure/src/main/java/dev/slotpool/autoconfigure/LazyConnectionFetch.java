package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy;

/**
 * {@code spring.datasource.connection-fetch=lazy}: the auto-configured pool (bean {@code dataSource}) is exposed
 * behind a {@link LazyConnectionDataSourceProxy}, which borrows only when a statement needs the connection, as
 * Boot's pooled DataSource configuration does for HikariCP. The pool stays reachable through {@code unwrap}
 * ({@link SlotPools#unwrap}) and is still closed with the context (its destroy method is the pool's own).
 */
final class LazyConnectionFetch implements BeanPostProcessor, Ordered {

    static final String PROPERTY = "spring.datasource.connection-fetch";

    /** The bean name of the auto-configured pool, the one Boot's configuration wraps too. */
    private static final String DATA_SOURCE = "dataSource";

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (DATA_SOURCE.equals(beanName) && bean instanceof SlotPoolDataSource pool) {
            return new LazyConnectionDataSourceProxy(pool);
        }
        return bean;
    }

    /** Boot's own wrapping post-processor's order. */
    @Override
    public int getOrder() {
        return 0;
    }
}
