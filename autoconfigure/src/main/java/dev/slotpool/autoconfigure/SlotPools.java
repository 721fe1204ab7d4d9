package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import org.springframework.boot.jdbc.DataSourceUnwrapper;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every slotpool of the application by its key, for the meters' {@code pool} tag, the health entries, the
 * endpoint and the console (docs/operations.md, Several pools). A pool is found in each {@link DataSource} bean,
 * through {@code unwrap} when a wrapper (a tracing proxy) stands in front of it ({@link DataSourceUnwrapper}). Its
 * key is its name ({@code slotpool.name}, {@code SlotPoolBuilder.name}); pools that share a name (two left at the
 * default {@code slotpool}) are keyed by their bean names instead, so no two pools share a key.
 */
public final class SlotPools {

    private final Map<String, SlotPoolDataSource> pools;

    private SlotPools(Map<String, SlotPoolDataSource> pools) {
        this.pools = Collections.unmodifiableMap(pools);
    }

    /** The pools behind the given DataSource beans (bean name to bean), in the map's order. */
    public static SlotPools of(Map<String, ? extends DataSource> dataSources) {
        Map<String, SlotPoolDataSource> byBean = new LinkedHashMap<>();
        Map<String, Integer> names = new HashMap<>();
        dataSources.forEach((bean, dataSource) -> {
            SlotPoolDataSource pool = unwrap(dataSource);
            if (pool != null && !byBean.containsValue(pool)) {
                byBean.put(bean, pool);
                names.merge(pool.getPoolName(), 1, Integer::sum);
            }
        });
        Map<String, SlotPoolDataSource> byKey = new LinkedHashMap<>();
        byBean.forEach((bean, pool) -> {
            String name = pool.getPoolName();
            String key = names.get(name) == 1 ? name : bean;
            if (byKey.putIfAbsent(key, pool) != null) {
                throw new IllegalStateException("two slotpool DataSources are both keyed '" + key
                        + "' (a pool's name or, for pools sharing a name, its bean name): give each pool its own "
                        + "name (slotpool.name or SlotPoolBuilder.name)");
            }
        });
        return new SlotPools(byKey);
    }

    /**
     * The pool behind a DataSource, or null: the DataSource itself, what its JDBC {@code unwrap} yields (a wrapper
     * that delegates {@code isWrapperFor}/{@code unwrap}; Boot's {@link DataSourceUnwrapper} asks those only for
     * an interface, and the pool is a class), else what {@link DataSourceUnwrapper} finds (Spring's delegating
     * DataSources, AOP proxies).
     */
    public static SlotPoolDataSource unwrap(DataSource dataSource) {
        if (dataSource instanceof SlotPoolDataSource pool) {
            return pool;
        }
        try {
            if (dataSource.isWrapperFor(SlotPoolDataSource.class)) {
                return dataSource.unwrap(SlotPoolDataSource.class);
            }
        } catch (SQLException | RuntimeException notAWrapper) {
            // A wrapper whose unwrap fails is looked into the way Boot looks into DataSources, below.
        }
        return DataSourceUnwrapper.unwrap(dataSource, SlotPoolDataSource.class);
    }

    /** Key to pool, in bean order. */
    public Map<String, SlotPoolDataSource> all() {
        return pools;
    }

    public List<String> keys() {
        return List.copyOf(pools.keySet());
    }

    public Optional<SlotPoolDataSource> get(String key) {
        return Optional.ofNullable(pools.get(key));
    }

    /** The only pool, when there is exactly one. */
    public Optional<SlotPoolDataSource> single() {
        return pools.size() == 1 ? Optional.of(pools.values().iterator().next()) : Optional.empty();
    }

    public int size() {
        return pools.size();
    }
}
