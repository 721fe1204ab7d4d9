package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy;

/**
 * The auto-configured pool (bean {@code dataSource}) behind a {@link LazyConnectionDataSourceProxy}, which borrows
 * only when a statement needs the connection: for {@code spring.datasource.connection-fetch=lazy}, as Boot's pooled
 * DataSource configuration does for HikariCP, and for {@code slotpool.reads-to-standbys=true}, with the pool's read
 * view ({@link SlotPoolDataSource#forReads()}) as the proxy's read-only DataSource. The proxy knows whether the
 * transaction is read-only by the time it borrows (the transaction manager's {@code setReadOnly(true)} comes
 * first), so {@code @Transactional(readOnly = true)} work borrows from the read view: Spring's own routing of
 * read-only transactions (docs/failover.md, "Reads to standbys"). The pool stays reachable through {@code unwrap}
 * ({@link SlotPools#unwrap}) and is still closed with the context (its destroy method is the pool's own).
 */
final class LazyConnectionFetch implements BeanPostProcessor, Ordered {

    static final String PROPERTY = "spring.datasource.connection-fetch";

    /** The bean name of the auto-configured pool, the one Boot's configuration wraps too. */
    private static final String DATA_SOURCE = "dataSource";

    /** Whether {@link #PROPERTY} is {@code lazy}. */
    private final boolean lazy;

    LazyConnectionFetch(boolean lazy) {
        this.lazy = lazy;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (!DATA_SOURCE.equals(beanName) || !(bean instanceof SlotPoolDataSource pool)) {
            return bean;
        }
        boolean reads = pool.config().readsToStandbys();
        if (!lazy && !reads) {
            return bean;
        }
        LazyConnectionDataSourceProxy proxy = new LazyConnectionDataSourceProxy(pool);
        if (reads) {
            proxy.setReadOnlyDataSource(pool.forReads());
        }
        return proxy;
    }

    /** Boot's own wrapping post-processor's order. */
    @Override
    public int getOrder() {
        return 0;
    }
}
