package dev.slotpool;

import dev.slotpool.engine.Engine;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API finds the engine through {@code ServiceLoader} (docs/architecture.md, "Layers"), both ways an application
 * can load it: on the class path through {@code META-INF/services}, and as the named module {@code dev.slotpool}
 * through its {@code uses} and {@code provides}. The two registrations name the same provider.
 */
class EngineLookupTest {

    private static final String SERVICES = "META-INF/services/" + SlotPoolEngine.class.getName();

    @Test
    void theClassPathFindsTheEngine() {
        assertThat(Engines.engine()).isInstanceOf(Engine.class);
        assertThat(NativeImageProxies.interfaceSets()).as("the engine answers through the API").isNotEmpty();
    }

    @Test
    void theModuleProvidesWhatTheClassPathLists() throws Exception {
        ModuleDescriptor module = ModuleFinder.of(classes()).find("dev.slotpool").orElseThrow().descriptor();
        assertThat(module.uses()).contains(SlotPoolEngine.class.getName());
        assertThat(module.provides()).singleElement().satisfies(p -> {
            assertThat(p.service()).isEqualTo(SlotPoolEngine.class.getName());
            assertThat(p.providers()).isEqualTo(servicesFile());
        });
    }

    /** The engine's classes as a module of their own layer: the API's look-up there goes by uses/provides. */
    @Test
    void theNamedModuleFindsTheEngine() throws Exception {
        ModuleFinder finder = ModuleFinder.of(classes());
        ModuleLayer boot = ModuleLayer.boot();
        Configuration config = boot.configuration().resolve(finder, ModuleFinder.of(), Set.of("dev.slotpool"));
        ModuleLayer layer = boot.defineModulesWithOneLoader(config, ClassLoader.getPlatformClassLoader());
        Class<?> proxies = layer.findLoader("dev.slotpool").loadClass(NativeImageProxies.class.getName());
        assertThat(proxies.getModule().getName()).isEqualTo("dev.slotpool");
        Object sets = proxies.getMethod("interfaceSets").invoke(null);
        assertThat((List<?>) sets).as("proxy interface sets, found through the module's engine").isNotEmpty();
    }

    private static List<String> servicesFile() throws Exception {
        try (InputStream in = EngineLookupTest.class.getClassLoader().getResourceAsStream(SERVICES)) {
            assertThat(in).as(SERVICES).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        }
    }

    private static Path classes() throws Exception {
        return Path.of(PoolConfig.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
