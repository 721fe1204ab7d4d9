package dev.slotpool.pool;

import dev.slotpool.build.DependencyGraph;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The classes of {@code dev.slotpool.pool} and its packages {@code origin} and {@code ground} depend on each other
 * without a cycle, and the packages only downwards: pool → origin → ground (docs/architecture.md, "Map" and "The
 * origin wing"): each collaborator is given what it needs, and calls back up only through an interface it
 * declares. The graph is jdeps' (every class a class file names, generic signatures included), nested classes and
 * lambdas counted as their top-level class.
 */
class PoolDependencyCycleTest {

    private static final Pattern EDGE =
            Pattern.compile("^\\s+dev\\.slotpool\\.pool\\.((?:[a-z]\\w*\\.)?[A-Z]\\w*)\\S*\\s+->\\s+"
                    + "dev\\.slotpool\\.pool\\.((?:[a-z]\\w*\\.)?[A-Z]\\w*)");

    /** Each package and the packages it may name: calls go down only. */
    private static final Map<String, Set<String>> BELOW = Map.of(
            "pool", Set.of("origin", "ground"),
            "origin", Set.of("ground"),
            "ground", Set.of());

    @Test
    void thePoolPackageHasNoDependencyCycle() throws Exception {
        Map<String, Set<String>> graph = graph();
        assertThat(graph).as("jdeps found the pool packages' classes").containsKeys("ConnectionPool", "Creator",
                "origin.FailureDetector", "ground.Capacity", "ground.Closing", "ground.Origin",
                "ground.PooledConnection");
        assertThat(graph.get("ConnectionPool")).as("the graph has edges").contains("Creator", "ground.Capacity");
        List<List<String>> cycles = DependencyGraph.cycles(graph);
        assertThat(cycles).as("classes that depend on each other, directly or in a ring").isEmpty();
    }

    @Test
    void noCollaboratorHoldsThePool() throws Exception {
        Map<String, Set<String>> graph = graph();
        List<String> dependents = new ArrayList<>();
        graph.forEach((from, to) -> {
            if (to.contains("ConnectionPool")) {
                dependents.add(from);
            }
        });
        assertThat(dependents).isEmpty();
    }

    @Test
    void thePackagesDependOnlyDownwards() throws Exception {
        List<String> upwards = new ArrayList<>();
        graph().forEach((from, to) -> to.forEach(t -> {
            String a = packageOf(from);
            String b = packageOf(t);
            if (!a.equals(b) && !BELOW.get(a).contains(b)) {
                upwards.add(from + " -> " + t);
            }
        }));
        assertThat(upwards).as("classes that name a class of a package above their own").isEmpty();
    }

    /** "pool" for a class of dev.slotpool.pool, else its subpackage's name. */
    private static String packageOf(String node) {
        int dot = node.indexOf('.');
        return dot < 0 ? "pool" : node.substring(0, dot);
    }

    /** The finder really finds a ring: two classes that name each other. */
    @Test
    void aRingIsFound() {
        Map<String, Set<String>> graph = new TreeMap<>();
        graph.put("A", Set.of("B"));
        graph.put("B", Set.of("C"));
        graph.put("C", Set.of("A"));
        graph.put("D", Set.of("A"));
        assertThat(DependencyGraph.cycles(graph)).containsExactly(List.of("A", "B", "C"));
    }

    private static Map<String, Set<String>> graph() throws Exception {
        Path classes = Path.of(ConnectionPool.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:class", "-filter:none",
                "-cp", classes.toString(), classes.toString());
        assertThat(rc).as("jdeps: %s", out).isZero();
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String line : out.toString().split("\n")) {
            Matcher m = EDGE.matcher(line);
            if (m.find()) {
                String from = m.group(1);
                String to = m.group(2);
                graph.computeIfAbsent(from, k -> new TreeSet<>());
                if (!from.equals(to)) {
                    graph.get(from).add(to);
                }
            }
        }
        return graph;
    }
}
