package dev.slotpool.engine;

import dev.slotpool.PoolConfig;
import dev.slotpool.SlotPool;
import dev.slotpool.SlotPoolEngine;
import dev.slotpool.jdbc.DynamicProxies;
import dev.slotpool.pool.ConnectionPool;

import java.util.List;

/**
 * The engine as the API finds it ({@link SlotPoolEngine}, through {@code ServiceLoader}): registered by the module's
 * {@code provides} and by {@code META-INF/services/dev.slotpool.SlotPoolEngine} on the class path. This package is
 * the engine's top: it starts a {@link ConnectionPool} and gives the API its face, so no class of the pool names
 * the API's DataSource and none but these name the pool from above (docs/architecture.md, "Layers").
 */
public final class Engine implements SlotPoolEngine {

    /** For {@code ServiceLoader}. */
    public Engine() {
    }

    @Override
    public SlotPool start(PoolConfig config) {
        return new StartedPool(new ConnectionPool(config), config);
    }

    @Override
    public SlotPool startAndAwaitFirstConnection(PoolConfig config) {
        ConnectionPool pool = new ConnectionPool(config);
        pool.awaitFirstConnection();
        return new StartedPool(pool, config);
    }

    @Override
    public List<List<Class<?>>> proxyInterfaceSets() {
        return DynamicProxies.interfaceSets();
    }
}
