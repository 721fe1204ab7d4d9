package dev.slotpool;

import java.util.List;

/**
 * What the API needs of the engine, which implements it (as Agroal's API module finds its pool): the API names no
 * package of the engine and finds this through {@link java.util.ServiceLoader}, declared by the module's
 * {@code provides} and, on the class path, by {@code META-INF/services/dev.slotpool.SlotPoolEngine}
 * (docs/architecture.md, "Layers"). Applications use {@link SlotPoolDataSource}; this is not for them.
 */
public interface SlotPoolEngine {

    /**
     * Starts a pool with these settings and returns once it runs, without waiting for a first connection: it fills
     * in the background.
     *
     * @param config the validated settings
     * @return the running pool
     */
    SlotPool start(PoolConfig config);

    /**
     * Starts a pool and waits for a first connection as {@link PoolConfig#initializationFailTimeout()} says.
     *
     * @param config the validated settings
     * @return the running pool
     * @throws PoolInitializationException when no origin gave a first connection in time (the pool is closed)
     */
    SlotPool startAndAwaitFirstConnection(PoolConfig config);

    /** {@return the interface set of each JDK proxy class the engine creates} ({@link NativeImageProxies}) */
    List<List<Class<?>>> proxyInterfaceSets();
}
