package dev.slotpool.jdbc;

import java.util.List;

/**
 * The JDK dynamic proxies the engine creates, for a GraalVM native image's metadata (published as
 * {@link dev.slotpool.NativeImageProxies}): one interface set per proxy class. Read from the code that creates them,
 * so a new proxy is covered without a second list to keep.
 */
public final class DynamicProxies {

    private DynamicProxies() {
    }

    /** The interface set of each proxy class the engine creates: the closed sentinels. */
    public static List<List<Class<?>>> interfaceSets() {
        return ClosedSentinel.interfaceSets();
    }
}
