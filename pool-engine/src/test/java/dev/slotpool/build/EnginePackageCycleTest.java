package dev.slotpool.build;

import dev.slotpool.PoolConfig;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's packages depend on each other without a cycle, and the API package {@code dev.slotpool} names no
 * other package of the engine: the API is the bottom layer, which the engine implements and the API finds through
 * {@code ServiceLoader} (docs/architecture.md, "Layers"). Every package under {@code dev.slotpool} in the engine's
 * compiled classes is checked, whatever its name, so a new package is covered without a list to keep.
 */
class EnginePackageCycleTest {

    private static final String ENGINE = "dev.slotpool";

    @Test
    void theEnginePackagesHaveNoDependencyCycle() throws Exception {
        Map<String, Set<String>> graph = graph();
        assertThat(graph.keySet()).as("jdeps read every package of the engine's classes").isEqualTo(packages());
        assertThat(graph).as("the graph has the engine's layers").containsKeys(ENGINE, ENGINE + ".pool",
                ENGINE + ".table", ENGINE + ".jdbc");
        assertThat(graph.get(ENGINE + ".pool")).as("the graph has edges").contains(ENGINE, ENGINE + ".table");
        assertThat(DependencyGraph.cycles(graph)).as("packages that depend on each other, directly or in a ring")
                .isEmpty();
    }

    @Test
    void theApiNamesNoEnginePackage() throws Exception {
        assertThat(graph().get(ENGINE)).as("engine packages the API package names").isEmpty();
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

    private static Map<String, Set<String>> graph() throws Exception {
        return DependencyGraph.packages(classes(), ENGINE);
    }

    /** Every package with a class file in the engine's compiled classes. */
    private static Set<String> packages() throws Exception {
        Path classes = classes();
        try (Stream<Path> files = Files.walk(classes)) {
            return files.filter(p -> p.toString().endsWith(".class")
                            && !p.getFileName().toString().equals("module-info.class"))
                    .map(p -> classes.relativize(p.getParent()).toString()
                            .replace(classes.getFileSystem().getSeparator(), "."))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static Path classes() throws Exception {
        return Path.of(PoolConfig.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
