package dev.slotpool.build;

import dev.slotpool.PoolConfig;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's layers (docs/architecture.md, "Layers"), read from its compiled classes: the public API types
 * (configs, snapshots, enums, listener and callback interfaces) name nothing above them; the slot table and the
 * JDBC proxies never name the pool; nothing below names the DataSource or its builder; and no two layers or
 * packages name each other, directly or in a ring. {@code dev.slotpool} holds two layers, the API and, above the
 * pool, the DataSource that holds it ({@link #DATA_SOURCE}); every other package is a layer of its own. Every
 * package under {@code dev.slotpool} is checked, whatever its name, so a new package is covered without a list
 * to keep.
 */
class EnginePackageCycleTest {

    private static final String ENGINE = "dev.slotpool";
    private static final String API = "dev.slotpool (API)";
    private static final String DATA_SOURCE_LAYER = "dev.slotpool (DataSource)";

    /** The classes of {@code dev.slotpool} above the pool: they build and hold it. */
    private static final Set<String> DATA_SOURCE = Set.of("dev.slotpool.SlotPoolDataSource",
            "dev.slotpool.SlotPoolReadDataSource", "dev.slotpool.SlotPoolBuilder", "dev.slotpool.NativeImageProxies",
            "dev.slotpool.DataSourceLifecycle");

    @Test
    void theLayersHaveNoDependencyCycle() throws Exception {
        Map<String, Set<String>> layers = layers(classes());
        assertThat(layers.keySet()).as("jdeps read every package of the engine's classes")
                .containsAll(packages().stream().filter(p -> !p.equals(ENGINE)).toList())
                .contains(API, DATA_SOURCE_LAYER);
        assertThat(layers.get(ENGINE + ".pool")).as("the graph has edges").contains(API, ENGINE + ".table");
        assertThat(DependencyGraph.cycles(layers)).as("layers that name each other, directly or in a ring")
                .isEmpty();
    }

    @Test
    void theApiNamesNothingAboveIt() throws Exception {
        List<String> up = new ArrayList<>();
        classes().forEach((from, to) -> {
            if (layer(from).equals(API)) {
                for (String t : to) {
                    if (!layer(t).equals(API)) {
                        up.add(from + " -> " + t);
                    }
                }
            }
        });
        assertThat(up).as("API classes that name a class above the API").isEmpty();
    }

    @Test
    void theTableAndTheProxiesNeverNameThePool() throws Exception {
        List<String> up = new ArrayList<>();
        classes().forEach((from, to) -> {
            String fromLayer = layer(from);
            if (fromLayer.equals(ENGINE + ".table") || fromLayer.equals(ENGINE + ".jdbc")) {
                for (String t : to) {
                    String toLayer = layer(t);
                    if (!toLayer.equals(API) && !toLayer.equals(fromLayer) && !toLayer.equals(ENGINE + ".table")) {
                        up.add(from + " -> " + t);
                    }
                }
            }
        });
        assertThat(up).as("table and proxy classes that name the pool or the DataSource").isEmpty();
    }

    @Test
    void nothingBelowNamesTheDataSource() throws Exception {
        List<String> up = new ArrayList<>();
        classes().forEach((from, to) -> {
            if (!layer(from).equals(DATA_SOURCE_LAYER)) {
                for (String t : to) {
                    if (DATA_SOURCE.contains(t)) {
                        up.add(from + " -> " + t);
                    }
                }
            }
        });
        assertThat(up).as("classes below the DataSource that name it or its builder").isEmpty();
    }

    /** The pool's feature packages, each above the ones before it (docs/architecture.md, "Map"). */
    private static final List<String> FEATURES = List.of("kernel", "sizing", "origins", "sessions", "slots", "failover",
            "supply", "snapshots", "lending", "pool");

    @Test
    void theFeaturesNameOnlyFeaturesBelowThem() throws Exception {
        List<String> up = new ArrayList<>();
        classes().forEach((from, to) -> {
            int level = FEATURES.indexOf(feature(from));
            for (String t : to) {
                int below = FEATURES.indexOf(feature(t));
                if (level >= 0 && below > level) {
                    up.add(from + " -> " + t);
                }
            }
        });
        assertThat(FEATURES).allSatisfy(f -> assertThat(packages()).contains(ENGINE + "." + f));
        assertThat(up).as("feature classes that name a class of a feature above their own").isEmpty();
    }

    @Test
    void theFeatureClassesHaveNoDependencyCycle() throws Exception {
        Map<String, Set<String>> features = new TreeMap<>();
        classes().forEach((from, to) -> {
            if (FEATURES.contains(feature(from))) {
                features.put(from, to.stream().filter(t -> FEATURES.contains(feature(t)))
                        .collect(Collectors.toCollection(TreeSet::new)));
            }
        });
        assertThat(features).as("jdeps found the features' classes").containsKeys("dev.slotpool.pool.ConnectionPool",
                "dev.slotpool.failover.Failover", "dev.slotpool.slots.Closing");
        assertThat(DependencyGraph.cycles(features)).as("classes that name each other, directly or in a ring")
                .isEmpty();
    }

    /** Each collaborator is given what it needs and tells the pool what happened through its Signals: none holds
     * the pool. */
    @Test
    void noCollaboratorHoldsThePool() throws Exception {
        List<String> holders = new ArrayList<>();
        classes().forEach((from, to) -> {
            if (to.contains("dev.slotpool.pool.ConnectionPool") && !layer(from).equals(DATA_SOURCE_LAYER)) {
                holders.add(from);
            }
        });
        assertThat(holders).isEmpty();
    }

    /** The feature of an engine class: its package's last name. */
    private static String feature(String className) {
        String pkg = className.substring(0, className.lastIndexOf('.'));
        return pkg.startsWith(ENGINE + ".") ? pkg.substring(ENGINE.length() + 1) : "";
    }

    /** The finder really finds a ring, and a pair that names each other. */
    @Test
    void aRingIsFound() {
        Map<String, Set<String>> graph = new TreeMap<>();
        graph.put("a", Set.of("a.b"));
        graph.put("a.b", Set.of("a.c"));
        graph.put("a.c", Set.of("a"));
        graph.put("a.d", Set.of("a", "a.e"));
        graph.put("a.e", Set.of("a.d"));
        assertThat(DependencyGraph.cycles(graph)).containsExactlyInAnyOrder(List.of("a", "a.b", "a.c"),
                List.of("a.d", "a.e"));
    }

    /** Layer to the layers it names. */
    private static Map<String, Set<String>> layers(Map<String, Set<String>> classes) {
        Map<String, Set<String>> layers = new TreeMap<>();
        classes.forEach((from, to) -> {
            Set<String> edges = layers.computeIfAbsent(layer(from), k -> new TreeSet<>());
            for (String t : to) {
                if (!layer(t).equals(layer(from))) {
                    edges.add(layer(t));
                }
            }
        });
        return layers;
    }

    private static String layer(String className) {
        String pkg = className.substring(0, className.lastIndexOf('.'));
        if (!pkg.equals(ENGINE)) {
            return pkg;
        }
        return DATA_SOURCE.contains(className) ? DATA_SOURCE_LAYER : API;
    }

    private static Map<String, Set<String>> classes() throws Exception {
        Map<String, Set<String>> graph = DependencyGraph.classes(classesDir(), ENGINE);
        graph.remove("module-info");
        return graph;
    }

    /** Every package with a class file in the engine's compiled classes. */
    private static Set<String> packages() throws Exception {
        Path classes = classesDir();
        try (Stream<Path> files = Files.walk(classes)) {
            return files.filter(p -> p.toString().endsWith(".class")
                            && !p.getFileName().toString().equals("module-info.class"))
                    .map(p -> classes.relativize(p.getParent()).toString()
                            .replace(classes.getFileSystem().getSeparator(), "."))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static Path classesDir() throws Exception {
        return Path.of(PoolConfig.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
