package dev.slotpool.build;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

/**
 * The dependencies between the packages of compiled classes as jdeps reads them (every class a class file names,
 * generic signatures included), and the cycles among them.
 */
public final class DependencyGraph {

    private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)");

    private DependencyGraph() {
    }

    /** What jdeps prints for {@code classes} at the given verbosity, every dependency kept. */
    private static String jdeps(String verbosity, Path classes) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(out), verbosity, "-filter:none",
                "-cp", classes.toString(), classes.toString());
        if (rc != 0) {
            throw new IllegalStateException("jdeps failed (" + rc + "): " + out);
        }
        return out.toString();
    }

    /**
     * Package to the packages it names, for every package under {@code prefix} in {@code classes} (a directory of
     * class files); only edges between such packages are kept, a package's edge to itself is dropped.
     */
    public static Map<String, Set<String>> packages(Path classes, String prefix) {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String line : jdeps("-verbose:package", classes).split("\n")) {
            Matcher m = EDGE.matcher(line);
            if (m.find() && under(m.group(1), prefix)) {
                Set<String> to = graph.computeIfAbsent(m.group(1), k -> new TreeSet<>());
                if (under(m.group(2), prefix) && !m.group(1).equals(m.group(2))) {
                    to.add(m.group(2));
                }
            }
        }
        return graph;
    }

    /**
     * Top-level class to the top-level classes it names (nested classes and lambdas counted as their top-level
     * class), for every class under {@code prefix} in {@code classes}; a class's edge to itself is dropped.
     */
    public static Map<String, Set<String>> classes(Path classes, String prefix) {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String line : jdeps("-verbose", classes).split("\n")) {
            Matcher m = EDGE.matcher(line);
            if (m.find() && under(m.group(1), prefix)) {
                String from = topLevel(m.group(1));
                String to = topLevel(m.group(2));
                Set<String> edges = graph.computeIfAbsent(from, k -> new TreeSet<>());
                if (under(to, prefix) && !from.equals(to)) {
                    edges.add(to);
                }
            }
        }
        return graph;
    }

    private static String topLevel(String className) {
        int nested = className.indexOf('$');
        return nested < 0 ? className : className.substring(0, nested);
    }

    private static boolean under(String pkg, String prefix) {
        return pkg.equals(prefix) || pkg.startsWith(prefix + ".");
    }

    /** The strongly connected components of more than one node (Tarjan), each sorted: the cycles. */
    public static List<List<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<List<String>> found = new ArrayList<>();
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, found);
            }
        }
        return found;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, List<List<String>> found) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, found);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (stack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                component.sort(null);
                found.add(component);
            }
        }
    }
}
