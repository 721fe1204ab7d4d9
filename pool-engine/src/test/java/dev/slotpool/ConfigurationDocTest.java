package dev.slotpool;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/configuration.md has a row for every builder setting, no row for a setting that does not exist, each row of
 * the {@link Setting} table in the table's order, and each row's default is the one a fresh builder gives (and the
 * table's).
 */
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

    /** The builder's setters that are no row of the table: the structured settings, the hooks, the row setter. */
    private static final Set<String> NOT_ROWS = Set.of("connectionProperty", "origin", "credentialsProvider",
            "exceptionOverride", "labeling", "borrowObserver", "threadFactory", "listener", "ticker");

    @Test
    void everyPoolSettingHasExactlyOneDocumentedRow() throws Exception {
        String doc = Files.readString(Path.of("../docs/configuration.md"));
        assertThat(documented(section(doc, "Pool"))).isEqualTo(setters(SlotPoolBuilder.class, Set.of("set")));
    }

    /** Each builder setter of a single value is a row of the table, with the row's type, and each row has one. */
    @Test
    void everySingleValueSetterIsARowOfTheTable() throws Exception {
        Set<String> rows = Setting.all().stream().map(Setting::name).collect(Collectors.toCollection(TreeSet::new));
        Set<String> excluded = new TreeSet<>(NOT_ROWS);
        excluded.add("set");
        assertThat(setters(SlotPoolBuilder.class, excluded)).isEqualTo(rows);
        for (Setting<?> s : Setting.all()) {
            Class<?> parameter = Arrays.stream(SlotPoolBuilder.class.getMethods())
                    .filter(m -> m.getName().equals(s.name())).findFirst().orElseThrow().getParameterTypes()[0];
            Class<?> boxed = parameter == int.class ? Integer.class : parameter == boolean.class ? Boolean.class
                    : parameter;
            assertThat(boxed).as("the type of %s", s.name()).isEqualTo(s.type());
        }
    }

    /** The engine table documents the rows in the table's order, which is the order violations are reported in. */
    @Test
    void theTablesRowsAreDocumentedInTheTablesOrder() throws Exception {
        String doc = Files.readString(Path.of("../docs/configuration.md"));
        List<String> inOrder = new java.util.ArrayList<>();
        Matcher m = ROW.matcher(section(doc, "Pool"));
        Set<String> rows = Setting.all().stream().map(Setting::name).collect(Collectors.toSet());
        while (m.find()) {
            if (rows.contains(m.group(1))) {
                inOrder.add(m.group(1));
            }
        }
        assertThat(inOrder).isEqualTo(Setting.all().stream().map(Setting::name).toList());
    }

    /**
     * Each {@code slotpool.*} row has its row in the Spring Boot table, {@code | `slotpool.max-size` | `maxSize` |},
     * and each row there that names an engine setting of one value names a row of the table by its property.
     */
    @Test
    void theSpringBootTableNamesEachRowByItsProperty() throws Exception {
        String doc = Files.readString(Path.of("../docs/configuration.md"));
        Map<String, String> documented = new java.util.TreeMap<>();
        Matcher m = Pattern.compile("^\\| `(slotpool\\.[a-z-]+)` \\| `([a-zA-Z]+)` \\|", Pattern.MULTILINE)
                .matcher(section(doc, "Spring Boot properties"));
        Set<String> rows = Setting.all().stream().map(Setting::name).collect(Collectors.toSet());
        while (m.find()) {
            if (rows.contains(m.group(2))) {
                documented.put(m.group(1), m.group(2));
            }
        }
        Map<String, String> table = Setting.all().stream().filter(s -> s.source() == Setting.Source.SLOTPOOL)
                .collect(Collectors.toMap(Setting::property, Setting::name, (a, b) -> a, java.util.TreeMap::new));
        assertThat(documented).isEqualTo(table);
    }

    /** A row's fixed default is what a fresh builder's config runs with. */
    @Test
    void everyFixedDefaultOfTheTableIsTheConfigsValue() {
        PoolConfig config = SlotPoolDataSource.builder().url("jdbc:h2:mem:table-defaults").config();
        int checked = 0;
        for (Setting<?> s : Setting.all()) {
            if (s.defaultValue() != null) {
                assertThat(config.value(s)).as("default of %s", s.name()).isEqualTo(s.defaultValue());
                checked++;
            } else if (!s.defaultDerived() && s != Setting.URL) {
                assertThat(config.value(s)).as("%s has no default", s.name()).isNull();
            }
        }
        assertThat(checked).isGreaterThan(25);
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

    /** {@code | `setting` | default | ...}: the setting (without an argument list) and its default cell. */
    private static final Pattern ROW_DEFAULT = Pattern.compile("^\\| `([a-zA-Z]+)(?:\\([^`]*\\))?` \\| ([^|]+) \\|",
            Pattern.MULTILINE);
    /**
     * {@code | `slotpool.property` | `setting` | default |} of the Spring Boot table: the property's engine
     * setting and the default cell.
     */
    private static final Pattern PROPERTY_DEFAULT = Pattern.compile(
            "^\\| `slotpool\\.(origins\\[n]\\.)?[a-z.-]+` \\| `([a-zA-Z]+)` \\| ([^|]+) \\|", Pattern.MULTILINE);
    /**
     * A number with an optional unit at the start of a default cell, in the engine table's words ({@code 30 s},
     * {@code 250 µs}, {@code 0 (off)}) or Boot's duration syntax ({@code 30s}, {@code 250us}, {@code 10m}).
     */
    private static final Pattern QUANTITY = Pattern.compile("^(\\d+)(?: ?(µs|us|ms|s|min|m|h)\\b)?");
    /** How a default cell says "not set": the engine then leaves it to the driver or to another setting. */
    private static final List<String> UNSET = List.of("—", "none", "unset", "the driver's", "the pool's",
            "found by", "one origin");
    private static final Map<String, ChronoUnit> UNITS = Map.of("µs", ChronoUnit.MICROS, "us", ChronoUnit.MICROS,
            "ms", ChronoUnit.MILLIS, "s", ChronoUnit.SECONDS, "min", ChronoUnit.MINUTES, "m", ChronoUnit.MINUTES,
            "h", ChronoUnit.HOURS);

    @Test
    void everyDocumentedPoolDefaultIsTheEngineDefault() throws Exception {
        String doc = Files.readString(Path.of("../docs/configuration.md"));
        PoolConfig config = SlotPoolDataSource.builder().url("jdbc:h2:mem:doc-defaults").config();
        int checked = checkDefaults(section(doc, "Pool"), config, Set.of("url"));
        assertThat(checked).as("pool defaults checked").isGreaterThan(30);
    }

    @Test
    void everyDocumentedOriginDefaultIsTheEngineDefault() throws Exception {
        String doc = Files.readString(Path.of("../docs/configuration.md"));
        int checked = checkDefaults(section(doc, "Origin"), OriginConfig.named("doc"), Set.of("name"));
        assertThat(checked).as("origin defaults checked").isGreaterThanOrEqualTo(2);
    }

    /** The Spring Boot table: an unset property keeps the engine default, so its row must state that default. */
    /**
     * The one default the Boot glue decides: a Boot app starts its DataSource without waiting for the database, as
     * Boot starts HikariCP's (SlotPoolAutoConfiguration; its start tests check it).
     */
    private static final String BOOT_START = "`-1` in a Boot app";

    @Test
    void everyDocumentedPropertyDefaultIsTheEngineDefault() throws Exception {
        String doc = Files.readString(Path.of("../docs/configuration.md"));
        String section = section(doc, "Spring Boot properties");
        PoolConfig pool = SlotPoolDataSource.builder().url("jdbc:h2:mem:doc-defaults").config();
        OriginConfig origin = OriginConfig.named("doc");
        int checked = 0;
        Matcher m = PROPERTY_DEFAULT.matcher(section);
        while (m.find()) {
            Object config = m.group(1) == null ? pool : origin;
            Method accessor = accessor(config.getClass(), m.group(2));
            String cell = m.group(3).trim();
            if (accessor == null || cell.startsWith("`spring.") || cell.startsWith(BOOT_START)
                    || m.group(2).equals("name")) {
                continue; // no engine accessor, a default Boot's own properties give, or Boot's start
            }
            Object actual = accessor.invoke(config);
            assertThat(documentedDefault(cell, actual, config)).as("docs/configuration.md default of %s ('%s')",
                    m.group(0).trim(), cell).isEqualTo(normalized(actual));
            checked++;
        }
        assertThat(checked).as("property defaults checked").isGreaterThan(30);
    }

    /** {@code | `setting` | default | unit | range |}: the setting and its range cell. */
    private static final Pattern ROW_RANGE = Pattern.compile(
            "^\\| `([a-zA-Z]+)(?:\\([^`]*\\))?` \\| [^|]+ \\| [^|]+ \\| ([^|]+) \\|", Pattern.MULTILINE);
    /** The maximum a range cell states: {@code 1 s – 365 d}, {@code 0 – 30 d}, {@code ≤ 10 min}. */
    private static final Pattern MAXIMUM = Pattern.compile("(?:–|≤) (\\d+) (µs|ms|s|min|h|d)\\b");

    /**
     * Every Duration setting's row states its maximum, and the maximum is the engine's: the value itself builds,
     * a nanosecond more is a violation naming the setting.
     */
    @Test
    void everyDurationSettingDocumentsTheMaximumTheEngineEnforces() throws Exception {
        String doc = Files.readString(Path.of("../docs/configuration.md"));
        Map<String, String> ranges = new java.util.HashMap<>();
        Matcher row = ROW_RANGE.matcher(section(doc, "Pool"));
        while (row.find()) {
            ranges.put(row.group(1), row.group(2));
        }
        int checked = 0;
        for (Method setter : SlotPoolBuilder.class.getDeclaredMethods()) {
            if (!Modifier.isPublic(setter.getModifiers()) || setter.getParameterCount() != 1
                    || setter.getParameterTypes()[0] != Duration.class) {
                continue;
            }
            String name = setter.getName();
            assertThat(ranges).as("a row for %s", name).containsKey(name);
            Matcher max = MAXIMUM.matcher(ranges.get(name));
            assertThat(max.find()).as("the maximum of %s in '%s'", name, ranges.get(name)).isTrue();
            long n = Long.parseLong(max.group(1));
            Duration documented = max.group(2).equals("d") ? Duration.ofDays(n)
                    : Duration.of(n, UNITS.get(max.group(2)));

            SlotPoolBuilder atMax = SlotPoolDataSource.builder().url("jdbc:h2:mem:doc-max");
            if (name.equals("silenceTimeout")) {
                atMax.connectTimeout(documented); // silenceTimeout may not exceed connectTimeout
            }
            setter.invoke(atMax, documented);
            assertThat(atMax.config()).as("%s = %s builds", name, documented).isNotNull();
            SlotPoolBuilder above = SlotPoolDataSource.builder().url("jdbc:h2:mem:doc-max");
            setter.invoke(above, documented.plusNanos(1));
            InvalidPoolConfigException e = org.assertj.core.api.Assertions.catchThrowableOfType(
                    InvalidPoolConfigException.class, above::config);
            assertThat(e).as("%s above its documented maximum %s", name, documented).isNotNull();
            assertThat(e.violations()).extracting(ConfigViolation::property).containsExactly(name);
            checked++;
        }
        assertThat(checked).as("duration settings checked").isGreaterThan(15);
    }

    /**
     * Compares each row's default cell with the value of the accessor of the same name on {@code config}; rows
     * without such an accessor (a callback, a listener) are skipped. Returns how many rows were compared.
     */
    private static int checkDefaults(String section, Object config, Set<String> skipped) throws Exception {
        int checked = 0;
        Matcher m = ROW_DEFAULT.matcher(section);
        while (m.find()) {
            String setting = m.group(1);
            Method accessor = accessor(config.getClass(), setting);
            if (accessor == null || skipped.contains(setting)) {
                continue;
            }
            String cell = m.group(2).trim();
            Object actual = accessor.invoke(config);
            assertThat(documentedDefault(cell, actual, config)).as("docs/configuration.md default of %s ('%s')",
                    setting, cell).isEqualTo(normalized(actual));
            checked++;
        }
        return checked;
    }

    private static Method accessor(Class<?> type, String name) {
        try {
            Method m = type.getMethod(name);
            return m.getReturnType() == void.class ? null : m;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /**
     * The value a default cell states, in the form {@link #normalized} gives the engine's: a duration, a whole
     * number, a boolean, a backquoted word ({@code `WEIGHTS`}), another setting's value ({@code minSize},
     * {@code `connectTimeout` (2 s)}), or null for "not set".
     */
    private static Object documentedDefault(String documented, Object actual, Object config) throws Exception {
        String cell = documented.replaceFirst("^`(true|false)`", "$1");
        for (String unset : UNSET) {
            if (cell.startsWith(unset)) {
                return actual instanceof Map<?, ?> || actual instanceof List<?> ? List.of() : null;
            }
        }
        Matcher other = Pattern.compile("^`?([a-z][a-zA-Z-]+)`?(?: \\(|$)").matcher(cell);
        if (other.find() && !cell.startsWith("true") && !cell.startsWith("false")) {
            Method m = accessor(config.getClass(), camel(other.group(1)));
            if (m != null) {
                return normalized(m.invoke(config));
            }
        }
        if (cell.startsWith("true") || cell.startsWith("false")) {
            return Boolean.valueOf(cell.substring(0, cell.startsWith("true") ? 4 : 5));
        }
        Matcher q = QUANTITY.matcher(cell);
        if (q.find()) {
            long n = Long.parseLong(q.group(1));
            if (actual instanceof Duration) {
                return q.group(2) == null ? Duration.ofNanos(n) : Duration.of(n, UNITS.get(q.group(2)));
            }
            return n;
        }
        Matcher word = Pattern.compile("^`([^`]+)`").matcher(cell);
        if (word.find()) {
            return actual instanceof Enum<?> ? word.group(1).toUpperCase(Locale.ROOT) : word.group(1);
        }
        throw new AssertionError("cannot read the default '" + cell + "'");
    }

    /** {@code min-size} as the engine names it: {@code minSize}. */
    private static String camel(String kebab) {
        Matcher m = Pattern.compile("-([a-z])").matcher(kebab);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, m.group(1).toUpperCase(Locale.ROOT));
        }
        return m.appendTail(sb).toString();
    }

    /** The engine's value in the form {@link #documentedDefault} reads: whole numbers as long, names as text. */
    private static Object normalized(Object value) {
        if (value instanceof Integer i) {
            return i.longValue();
        }
        if (value instanceof Enum<?> e) {
            return e.name();
        }
        if (value instanceof Map<?, ?> map && map.isEmpty() || value instanceof List<?> list && list.isEmpty()) {
            return List.of();
        }
        if (value instanceof Ticker t) {
            return t == Ticker.SYSTEM ? "Ticker.SYSTEM" : t;
        }
        return value;
    }
}
