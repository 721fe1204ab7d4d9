package dev.slotpool.autoconfigure;

import dev.slotpool.NativeImageProxies;
import dev.slotpool.autoconfigure.endpoint.PoolEndpoint;
import dev.slotpool.autoconfigure.jmx.PoolMBeans;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;
import org.springframework.core.io.UrlResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.core.io.support.SpringFactoriesLoader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Properties;

/**
 * What a GraalVM native image needs beyond what Spring's AOT finds by itself (registered in
 * {@code META-INF/spring/aot.factories}): the engine's JDK proxies ({@link NativeImageProxies}), the classes
 * this module lists in {@code META-INF/spring.factories} (instantiated by reflection), the {@code slotpool.*}
 * properties' binding, and the endpoint's view records (its operations return {@code Object}, so Actuator's own
 * hints cannot name them), the interfaces the pool MBeans are read and invoked through ({@link PoolMBeans}), and,
 * with Oracle's driver present, the public methods of its connection interface, which the engine finds and calls by
 * reflection behind DRCP (docs/oracle.md, "DRCP").
 */
public final class SlotPoolRuntimeHints implements RuntimeHintsRegistrar {

    /** Declares {@code attachServerConnection()} and {@code detachServerConnection(String)}. */
    static final String ORACLE_CONNECTION = "oracle.jdbc.OracleConnection";

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        for (List<Class<?>> interfaces : NativeImageProxies.interfaceSets()) {
            hints.proxies().registerJdkProxy(interfaces.toArray(Class<?>[]::new));
        }
        for (String factory : factories(classLoader)) {
            hints.reflection().registerType(TypeReference.of(factory), MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
        }
        BindableRuntimeHintsRegistrar.forTypes(SlotPoolProperties.class).registerHints(hints, classLoader);
        new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), endpointViews());
        for (Class<?> face : PoolMBeans.class.getDeclaredClasses()) {
            if (face.isInterface()) {
                hints.reflection().registerType(face, MemberCategory.INVOKE_PUBLIC_METHODS);
            }
        }
        hints.reflection().registerTypeIfPresent(classLoader, ORACLE_CONNECTION, MemberCategory.INVOKE_PUBLIC_METHODS);
    }

    /** The classes of this module named in {@code META-INF/spring.factories}, whatever the factory type. */
    static List<String> factories(ClassLoader classLoader) {
        List<String> names = new ArrayList<>();
        try {
            Enumeration<URL> resources = classLoader.getResources(SpringFactoriesLoader.FACTORIES_RESOURCE_LOCATION);
            while (resources.hasMoreElements()) {
                Properties factories = PropertiesLoaderUtils.loadProperties(new UrlResource(resources.nextElement()));
                for (Object value : factories.values()) {
                    for (String name : String.valueOf(value).split(",")) {
                        if (name.trim().startsWith(SlotPoolRuntimeHints.class.getPackageName() + ".")) {
                            names.add(name.trim());
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    /** Every record the endpoint answers with. */
    static Class<?>[] endpointViews() {
        List<Class<?>> views = new ArrayList<>(List.of(PoolViews.class.getDeclaredClasses()));
        views.add(PoolEndpoint.PoolsView.class);
        views.add(PoolSettings.Setting.class);
        views.add(PoolActions.Outcome.class);
        views.add(PoolActions.Problem.class);
        return views.toArray(Class<?>[]::new);
    }
}
