package dev.slotpool.autoconfigure;

import dev.slotpool.Balancing;
import dev.slotpool.Sizing;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/configuration.md's "Spring Boot properties" table and the generated configuration metadata name the same
 * properties, every one with a description; origin fields (which metadata cannot list inside a list) are checked
 * against {@link SlotPoolProperties.Origin}. Every engine setting with a fixed default carries it in the metadata
 * (the engine's own value), and enumerated values carry hints.
 */
class ConfigurationMetadataDocTest {

    private static final Path METADATA = Path.of("target/classes/META-INF/spring-configuration-metadata.json");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z][a-z0-9.\\-\\[\\]]*)` \\|", Pattern.MULTILINE);
    private static final String ORIGIN_ROW = "slotpool.origins[n].";
    private static final String ORIGIN_ENTRY = "slotpool.origins[0].";

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
            inMetadata.add(p.get("name").asString().replace(ORIGIN_ENTRY, ORIGIN_ROW));
        }
        assertThat(documented()).isEqualTo(inMetadata);
    }

    /**
     * The metadata names each origin field once, as {@code slotpool.origins[0].<field>} (the format has no name
     * for "any index"), with the field's type, so IDEs complete and check the origins' keys.
     */
    @Test
    void everyOriginFieldIsInTheMetadataWithItsType() throws Exception {
        Map<String, String> inMetadata = new TreeMap<>();
        for (JsonNode p : metadata().get("properties")) {
            String name = p.get("name").asString();
            if (name.startsWith(ORIGIN_ENTRY)) {
                inMetadata.put(name, p.get("type").asString());
            }
        }
        Map<String, String> fields = new TreeMap<>();
        for (Field f : SlotPoolProperties.Origin.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                fields.put(ORIGIN_ENTRY + SlotPoolPropertiesMapper.kebab(f.getName()),
                        f.getGenericType().getTypeName().replace(", ", ","));
            }
        }
        assertThat(fields).hasSize(14);
        assertThat(inMetadata).isEqualTo(fields);
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

    /** What {@link #engineDefault} answers for a property that is no engine setting (enabled, origins...). */
    private static final Object NO_SETTING = new Object();

    /**
     * A top-level slotpool.* property's engine default, read from an unstarted bean-style pool: null if the setting
     * has none, {@link #NO_SETTING} if the property is no engine setting.
     */
    private static Object engineDefault(String property) throws Exception {
        String camel = Arrays.stream(property.substring("slotpool.".length()).split("-"))
                .map(w -> Character.toUpperCase(w.charAt(0)) + w.substring(1)).collect(Collectors.joining());
        for (String prefix : new String[] {"get", "is"}) {
            try {
                Method getter = SlotPoolDataSource.class.getMethod(prefix + camel);
                try (SlotPoolDataSource unstarted = new SlotPoolDataSource()) {
                    return getter.invoke(unstarted);
                }
            } catch (NoSuchMethodException e) {
                // try the other prefix
            }
        }
        return NO_SETTING;
    }

    private static boolean sameValue(JsonNode metadataDefault, Object engineDefault) {
        if (engineDefault instanceof Duration d) {
            return DurationStyle.detectAndParse(metadataDefault.asString()).equals(d);
        }
        if (engineDefault instanceof Enum<?> e) {
            return metadataDefault.asString().equals(e.name().toLowerCase(Locale.ROOT));
        }
        return metadataDefault.asString().equals(String.valueOf(engineDefault));
    }

    @Test
    void everyEngineSettingWithAFixedDefaultHasItInTheMetadata() throws Exception {
        // Unset, these two take another property's value (spring.datasource.name, min-size): no fixed default.
        Set<String> derived = Set.of("slotpool.name", "slotpool.initial-size");
        int checked = 0;
        for (JsonNode p : metadata().get("properties")) {
            String name = p.get("name").asString();
            if (!name.startsWith("slotpool.") || name.indexOf('.', "slotpool.".length()) >= 0 || derived.contains(name)) {
                continue;
            }
            Object engine = engineDefault(name);
            JsonNode documented = p.get("defaultValue");
            if (engine == NO_SETTING) {
                continue;
            }
            if (engine == null || engine instanceof Map) {
                assertThat(documented).as("default of %s (the engine has none)", name).isNull();
                continue;
            }
            assertThat(documented).as("default of %s", name).isNotNull();
            assertThat(sameValue(documented, engine)).as("default of %s: metadata %s, engine %s", name, documented,
                    engine).isTrue();
            checked++;
        }
        assertThat(checked).isGreaterThan(20);
        JsonNode drain = property("slotpool.oracle.fan.drain-timeout-default").get("defaultValue");
        assertThat(DurationStyle.detectAndParse(drain.asString())).isEqualTo(PoolActions.DEFAULT_DRAIN_TIMEOUT);
    }

    private static JsonNode property(String name) throws Exception {
        for (JsonNode p : metadata().get("properties")) {
            if (p.get("name").asString().equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no property " + name);
    }

    @Test
    void enumeratedValuesHaveHintsTheEngineAccepts() throws Exception {
        Map<String, Set<String>> hints = new TreeMap<>();
        for (JsonNode h : metadata().get("hints")) {
            Set<String> values = new TreeSet<>();
            h.get("values").forEach(v -> values.add(v.get("value").asString()));
            hints.put(h.get("name").asString(), values);
        }
        assertThat(hints.get("slotpool.balancing")).isEqualTo(Arrays.stream(Balancing.values())
                .map(b -> b.name().toLowerCase(Locale.ROOT)).collect(Collectors.toCollection(TreeSet::new)));
        assertThat(hints.get("slotpool.sizing")).isEqualTo(Arrays.stream(Sizing.values())
                .map(z -> z.name().toLowerCase(Locale.ROOT)).collect(Collectors.toCollection(TreeSet::new)));
        assertThat(hints.get("slotpool.transaction-isolation")).hasSize(4);
        for (String level : hints.get("slotpool.transaction-isolation")) {
            try (SlotPoolDataSource unstarted = new SlotPoolDataSource()) {
                unstarted.setUrl("jdbc:stub:hints");
                unstarted.setTransactionIsolation(level);
                assertThat(unstarted.config().transactionIsolation()).as(level).isNotNull();
            }
        }
    }
}
