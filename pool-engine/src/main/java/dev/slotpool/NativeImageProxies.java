package dev.slotpool;

import dev.slotpool.jdbc.DynamicProxies;

import java.util.List;

/** The JDK dynamic proxies the pool creates, for a GraalVM native image's proxy metadata. */
public final class NativeImageProxies {

    private NativeImageProxies() {
    }

    /** {@return the interface set of each proxy class the pool creates, in the order a native image registers them} */
    public static List<List<Class<?>>> interfaceSets() {
        return DynamicProxies.interfaceSets();
    }
}
