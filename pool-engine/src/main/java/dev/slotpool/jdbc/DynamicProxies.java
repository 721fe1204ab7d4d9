package dev.slotpool.jdbc;

import java.util.List;
import java.util.stream.Stream;

/**
 * The JDK dynamic proxies the engine creates, for a GraalVM native image's metadata (published as
 * {@link dev.slotpool.NativeImageProxies}, which asks the engine for them: {@code engine.Engine}): one interface set
 * per proxy class. Read from the code that creates
 * them, so a new proxy is covered without a second list to keep.
 */
public final class DynamicProxies {

    private DynamicProxies() {
    }

    /** The interface set of each proxy class the engine creates (the closed sentinels, then the metadata proxy). */
    public static List<List<Class<?>>> interfaceSets() {
        return Stream.concat(ClosedSentinel.interfaceSets().stream(), Stream.of(ProxyDatabaseMetaData.INTERFACES))
                .distinct().toList();
    }
}
