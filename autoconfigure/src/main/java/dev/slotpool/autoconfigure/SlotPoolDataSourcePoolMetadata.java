package dev.slotpool.autoconfigure;

import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import org.springframework.boot.jdbc.metadata.AbstractDataSourcePoolMetadata;

/**
 * Boot's view of the pool's sizes ({@code jdbc.connections.active/idle/max/min}, the {@code db} health query), read
 * through the pool's bean properties and snapshots, neither of which starts a bean-style pool.
 */
final class SlotPoolDataSourcePoolMetadata extends AbstractDataSourcePoolMetadata<SlotPoolDataSource> {

    SlotPoolDataSourcePoolMetadata(SlotPoolDataSource dataSource) {
        super(dataSource);
    }

    @Override
    public Integer getActive() {
        return snapshot().borrowed();
    }

    @Override
    public Integer getIdle() {
        return snapshot().available();
    }

    @Override
    public Integer getMax() {
        return getDataSource().getMaxSize();
    }

    @Override
    public Integer getMin() {
        return getDataSource().getMinSize();
    }

    @Override
    public String getValidationQuery() {
        return getDataSource().getValidationQuery();
    }

    /** The configured auto-commit (set on each new connection, restored at return); null when it is left to the
     * driver. */
    @Override
    public Boolean getDefaultAutoCommit() {
        return getDataSource().getAutoCommit();
    }

    private PoolSnapshot snapshot() {
        return getDataSource().snapshot();
    }
}
