package dev.slotpool;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/configuration.md has a row for every builder setting and no row for a setting that does not exist. */
class ConfigurationDocTest {

    private static final Pattern ROW = Pattern.compile("^\\| `([a-zA-Z]+)(?:\\([^`]*\\))?`", Pattern.MULTILINE);

    private static String section(String doc, String heading) {
        int start = doc.indexOf("## " + heading);
        assertThat(start).as("section '%s' in configuration.md", heading).isNotNegative();
        int end = doc.indexOf("\n## ", start + 3);
        return end < 0 ? doc.substring(start) : doc.substring(start, end);
    }

    private static Set<String> documented(String section) {
        Set<String> names = new TreeSet<>();
        Matcher m = ROW.matcher(section);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static Set<String> setters(Class<?> type, Set<String> excluded) {
        return Arrays.stream(type.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()))
                .filter(m -> m.getReturnType() == type && m.getParameterCount() >= 1)
                .map(Method::getName).filter(n -> !excluded.contains(n))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void everyPoolSettingHasExactlyOneDocumentedRow() throws Exception {
        String doc = Files.readString(Path.of("../docs/configuration.md"));
        assertThat(documented(section(doc, "Pool"))).isEqualTo(setters(SlotPoolBuilder.class, Set.of()));
    }

    @Test
    void everyOriginSettingIsDocumented() throws Exception {
        String doc = Files.readString(Path.of("../docs/configuration.md"));
        Set<String> rows = new TreeSet<>();
        for (String cell : documentedCells(section(doc, "Origin"))) {
            rows.addAll(Arrays.asList(cell.split("`, `")));
        }
        // discovered(...) derives a discovered origin's config at run time; it is not a setting.
        Set<String> expected = setters(OriginConfig.class, Set.of("discovered"));
        expected.add("name");
        assertThat(rows).isEqualTo(expected);
    }

    /** First cells of an origin table row may list several settings: {@code | `a`, `b` |}. */
    private static Set<String> documentedCells(String section) {
        Set<String> cells = new TreeSet<>();
        Matcher m = Pattern.compile("^\\| `([^|]+)` \\|", Pattern.MULTILINE).matcher(section);
        while (m.find()) {
            cells.add(m.group(1));
        }
        return cells;
    }
}
