package dev.slotpool.autoconfigure;

import dev.slotpool.Setting;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.beans.PropertyDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's {@link Setting} table drives the starter: each {@code slotpool.*} row is a property of the thin
 * {@link SlotPoolProperties} bean with the row's name and type and every bean property but the starter's own is a
 * row; the configuration metadata describes each row with the row's description and default; the HikariCP warning
 * names each row's HikariCP key with the row's property.
 */
class SlotPoolPropertiesTableTest {

    /** The bean's properties that are no engine setting of one value: the starter's own and the structured ones. */
    private static final Set<String> NOT_ROWS = Set.of("enabled", "failOnUnknownProperties", "connectionProperties",
            "origins", "oracle", "console", "metrics", "operatorRoles", "allowedHosts");

    private static final Path METADATA = Path.of("target/classes/META-INF/spring-configuration-metadata.json");

    private static Map<String, Class<?>> beanProperties() {
        return Arrays.stream(BeanUtils.getPropertyDescriptors(SlotPoolProperties.class))
                .filter(p -> !p.getName().equals("class") && !NOT_ROWS.contains(p.getName()))
                .collect(Collectors.toMap(PropertyDescriptor::getName, PropertyDescriptor::getPropertyType,
                        (a, b) -> a, TreeMap::new));
    }

    private static List<Setting<?>> slotpoolRows() {
        return Setting.all().stream().filter(s -> s.source() == Setting.Source.SLOTPOOL).toList();
    }

    @Test
    void eachBeanPropertyIsARowOfTheTableAndEachRowABeanProperty() {
        Map<String, Class<?>> rows = new TreeMap<>();
        slotpoolRows().forEach(s -> rows.put(s.name(), s.type()));
        assertThat(rows).hasSizeGreaterThan(35);
        assertThat(beanProperties()).isEqualTo(rows);
        for (Setting<?> s : slotpoolRows()) {
            assertThat(s.property()).isEqualTo("slotpool." + SlotPoolPropertiesMapper.kebab(s.name()));
        }
    }

    @Test
    void theMapperCopiesEveryRowTheBeanSets() {
        SlotPoolProperties p = new SlotPoolProperties();
        p.setMaxSize(17);
        p.setSilenceTimeout(Duration.ofMillis(700));
        p.setSchema("app");
        p.setPooler(dev.slotpool.Pooler.SESSION);
        var b = SlotPoolPropertiesMapper.toBuilder(p,
                new SlotPoolPropertiesMapper.DefaultConnection("jdbc:stub:table", null, null, null, "spring.datasource"));
        assertThat(b.value(Setting.MAX_SIZE)).isEqualTo(17);
        assertThat(b.value(Setting.SILENCE_TIMEOUT)).isEqualTo(Duration.ofMillis(700));
        assertThat(b.value(Setting.SCHEMA)).isEqualTo("app");
        assertThat(b.value(Setting.POOLER)).isEqualTo(dev.slotpool.Pooler.SESSION);
        assertThat(b.value(Setting.MIN_SIZE)).as("unset stays unset: the engine's default applies").isNull();
        assertThat(b.value(Setting.URL)).isEqualTo("jdbc:stub:table");
    }

    /**
     * What the metadata says of a row: its description, its type, and its fixed default in Boot's syntax (none
     * for {@code name}, whose unset value is Boot's {@code spring.datasource.name}).
     */
    private static Map<String, Object> expected(Setting<?> s) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("type", s.type().getName());
        e.put("description", s.description());
        Object d = s == Setting.NAME ? null : s.defaultValue();
        e.put("defaultValue", d instanceof Duration duration ? SlotPoolPropertiesMapper.written(duration)
                : d instanceof Enum<?> en ? en.name().toLowerCase(Locale.ROOT).replace('_', '-')
                : d == null ? null : d.toString());
        return e;
    }

    @Test
    void theMetadataDescribesEachRowAsTheTableDoes() throws Exception {
        JsonNode metadata = JsonMapper.builder().build().readTree(Files.readString(METADATA));
        Map<String, Map<String, Object>> inMetadata = new TreeMap<>();
        for (JsonNode p : metadata.get("properties")) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("type", p.get("type").asString());
            e.put("description", p.has("description") ? p.get("description").asString() : null);
            e.put("defaultValue", p.has("defaultValue") ? p.get("defaultValue").asString() : null);
            inMetadata.put(p.get("name").asString(), e);
        }
        for (Setting<?> s : slotpoolRows()) {
            assertThat(inMetadata.get(s.property())).as("metadata of %s", s.property()).isEqualTo(expected(s));
        }
    }

    /** A value of each type HikariCP's setters take, as a property source holds it, and what it binds to. */
    private static final Map<Class<?>, Object[]> HIKARI_VALUES = Map.of(Integer.class, new Object[] {"3", 3},
            Long.class, new Object[] {"3000", 3000L}, Boolean.class, new Object[] {"true", true},
            String.class, new Object[] {"2", "2"});

    @Test
    void eachCarriedHikariKeySetsItsRow() {
        int checked = 0;
        for (Setting<?> s : Setting.all()) {
            if (s.hikari() == null || !s.hikari().carried()) {
                continue;
            }
            Object[] value = HIKARI_VALUES.get(s.hikari().boundAs());
            String key = HikariCarryOver.PREFIX + "." + s.hikari().key();
            HikariCarryOver carryOver = new HikariCarryOver(new org.springframework.mock.env.MockEnvironment()
                    .withProperty(key, (String) value[0]));
            var b = dev.slotpool.SlotPoolDataSource.builder();
            carryOver.applyTo(b, new SlotPoolProperties());
            assertThat(b.value(s)).as("%s from %s", s.name(), key).isEqualTo(s.hikari().toSetting().apply(value[1]));
            assertThat(carryOver.propertyOf(s.name())).isEqualTo(key);
            checked++;
        }
        assertThat(checked).isGreaterThan(15);
    }

    @Test
    void theHikariWarningNamesEachRowsKeyWithTheRowsProperty() {
        int checked = 0;
        for (Setting<?> s : Setting.all()) {
            if (s.hikari() == null) {
                continue;
            }
            org.springframework.mock.env.MockEnvironment env = new org.springframework.mock.env.MockEnvironment()
                    .withProperty(HikariCarryOver.PREFIX + "." + s.hikari().key(), "1");
            assertThat(HikariPropertiesWarning.hikariKeys(env))
                    .containsExactly(Map.entry(HikariCarryOver.PREFIX + "." + s.hikari().key(), s.property()));
            checked++;
        }
        assertThat(checked).isGreaterThan(15);
    }
}
