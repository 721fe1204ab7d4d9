package dev.slotpool.autoconfigure;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.lang.reflect.Field;
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

/**
 * docs/configuration.md's "Spring Boot properties" table and the generated configuration metadata name the same
 * properties, every one with a description; origin fields (which metadata cannot list inside a list) are checked
 * against {@link SlotPoolProperties.Origin}.
 */
class ConfigurationMetadataDocTest {

    private static final Path METADATA = Path.of("target/classes/META-INF/spring-configuration-metadata.json");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z][a-z0-9.\\-\\[\\]]*)` \\|", Pattern.MULTILINE);
    private static final String ORIGIN_ROW = "slotpool.origins[n].";

    private static Set<String> documented() throws Exception {
        String doc = Files.readString(Path.of("../docs/configuration.md"));
        int start = doc.indexOf("## Spring Boot properties");
        assertThat(start).as("section in configuration.md").isNotNegative();
        int end = doc.indexOf("\n## ", start + 3);
        Matcher m = ROW.matcher(end < 0 ? doc.substring(start) : doc.substring(start, end));
        Set<String> rows = new TreeSet<>();
        while (m.find()) {
            assertThat(rows.add(m.group(1))).as("one row for %s", m.group(1)).isTrue();
        }
        return rows;
    }

    private static JsonNode metadata() throws Exception {
        return JsonMapper.builder().build().readTree(Files.readString(METADATA));
    }

    @Test
    void everyPropertyInTheMetadataHasARowAndEveryRowIsInTheMetadata() throws Exception {
        Set<String> inMetadata = new TreeSet<>();
        for (JsonNode p : metadata().get("properties")) {
            inMetadata.add(p.get("name").asString());
        }
        Set<String> rows = documented().stream().filter(r -> !r.startsWith(ORIGIN_ROW))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(rows).isEqualTo(inMetadata);
    }

    @Test
    void everyPropertyOfOursHasADescription() throws Exception {
        for (JsonNode p : metadata().get("properties")) {
            String name = p.get("name").asString();
            JsonNode description = p.get("description");
            assertThat(description).as("description of %s", name).isNotNull();
            assertThat(description.asString()).as("description of %s", name).isNotBlank();
        }
    }

    @Test
    void everyOriginFieldHasARow() throws Exception {
        Set<String> fields = Arrays.stream(SlotPoolProperties.Origin.class.getDeclaredFields())
                .filter(f -> !Modifier.isStatic(f.getModifiers())).map(Field::getName)
                .map(n -> ORIGIN_ROW + SlotPoolPropertiesMapper.kebab(n))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> rows = documented().stream().filter(r -> r.startsWith(ORIGIN_ROW))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(rows).isEqualTo(fields);
    }
}
