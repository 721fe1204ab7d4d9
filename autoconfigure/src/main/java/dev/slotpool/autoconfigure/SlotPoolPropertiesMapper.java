package dev.slotpool.autoconfigure;

import dev.slotpool.ConfigViolation;
import dev.slotpool.InvalidPoolConfigException;
import dev.slotpool.OriginConfig;
import dev.slotpool.Setting;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.PropertyMapper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Copies what is set in {@link SlotPoolProperties} (and the default connection) onto a {@link SlotPoolBuilder}, row
 * by row of the engine's {@link Setting} table, and translates the engine's violations back into the property names
 * a user wrote. The engine decides defaults and ranges; this class only maps.
 */
public final class SlotPoolPropertiesMapper {

    /** Oracle's driver property for the number of rows fetched per round trip (docs/oracle.md). */
    static final String ORACLE_ROW_PREFETCH = "defaultRowPrefetch";

    private static final String CONNECTION_PROPERTY = "connectionProperties.";
    private static final Pattern ORIGIN_PROPERTY = Pattern.compile("origins\\[([^]]*)]\\.(\\w+)");

    /** A {@link Duration#toString()} in an engine message: {@code PT0.1S}, {@code PT-5S}, {@code PT10M}. */
    private static final Pattern ISO_DURATION = Pattern.compile("\\bPT(?:-?[0-9.]+[HMS])+");

    /**
     * The default connection: from {@code spring.datasource.*} or a {@code JdbcConnectionDetails} bean.
     *
     * @param source the property prefix (or bean description) the values came from, used in error reports
     */
    public record DefaultConnection(String url, String username, String password, String driverClassName,
                                    String source) {

        @Override
        public String toString() {
            return "DefaultConnection[source=" + source + "]";
        }
    }

    private SlotPoolPropertiesMapper() {
    }

    /** A builder with every property that is set; nothing is validated yet. */
    public static SlotPoolBuilder toBuilder(SlotPoolProperties p, DefaultConnection connection) {
        SlotPoolBuilder b = SlotPoolDataSource.builder();
        PropertyMapper map = PropertyMapper.get();
        map.from(connection.url()).to(b::url);
        map.from(connection.username()).to(b::username);
        map.from(connection.password()).to(b::password);
        map.from(connection.driverClassName()).to(b::driverClassName);
        for (Setting<?> setting : Setting.all()) {
            Object value = written(p, setting);
            if (value != null) {
                set(b, setting, value);
            }
        }
        map.from(p.getOracle().getDefaultRowPrefetch()).as(String::valueOf)
                .to(v -> b.connectionProperty(ORACLE_ROW_PREFETCH, v));
        p.getConnectionProperties().forEach(b::connectionProperty);
        for (SlotPoolProperties.Origin o : p.getOrigins()) {
            OriginConfig origin = OriginConfig.named(o.getName()).url(o.getUrl()).username(o.getUsername())
                    .password(o.getPassword()).service(o.getService()).database(o.getDatabase())
                    .instance(o.getInstance()).host(o.getHost()).connectionProperties(o.getConnectionProperties());
            if (o.getWeight() != null) {
                origin = origin.weight(o.getWeight());
            }
            if (o.getMaxConnections() != null) {
                origin = origin.maxConnections(o.getMaxConnections());
            }
            if (o.getOriginQuery() != null) {
                origin = origin.originQuery(o.getOriginQuery());
            }
            if (o.getPooler() != null) {
                origin = origin.pooler(o.getPooler());
            }
            if (o.getPoolerAdminUrl() != null) {
                origin = origin.poolerAdminUrl(o.getPoolerAdminUrl());
            }
            b.origin(origin);
        }
        return b;
    }

    /**
     * What {@code slotpool.*} sets for a row of the table, or null: the properties bean's property of the setting's
     * name ({@code SlotPoolPropertiesTableTest} holds the bean to the table).
     */
    static Object written(SlotPoolProperties p, Setting<?> setting) {
        return setting.source() == Setting.Source.SLOTPOOL
                ? new BeanWrapperImpl(p).getPropertyValue(setting.name()) : null;
    }

    private static <T> void set(SlotPoolBuilder b, Setting<T> setting, Object value) {
        b.set(setting, setting.cast(value));
    }

    /**
     * Validates the builder (the engine's checks plus the glue's own for Oracle settings) and starts the pool: the
     * engine's checks run once, in {@link SlotPoolBuilder#build()}.
     *
     * @throws InvalidSlotPoolPropertiesException naming every bad property as the user wrote it
     */
    static SlotPoolDataSource build(SlotPoolBuilder builder, SlotPoolProperties p, DefaultConnection connection,
                                    Function<String, String> writtenAs) {
        List<ConfigViolation> problems = oracleProblems(p);
        if (!problems.isEmpty()) {
            validate(builder, p, connection, writtenAs); // reports the Oracle problems with the engine's
        }
        try {
            return builder.build();
        } catch (InvalidPoolConfigException e) {
            throw new InvalidSlotPoolPropertiesException(translated(e, p, connection, writtenAs));
        }
    }

    private static List<ConfigViolation> oracleProblems(SlotPoolProperties p) {
        List<ConfigViolation> problems = new ArrayList<>();
        Integer prefetch = p.getOracle().getDefaultRowPrefetch();
        if (prefetch != null && prefetch < 1) {
            problems.add(new ConfigViolation("slotpool.oracle.default-row-prefetch", String.valueOf(prefetch),
                    "must be ≥ 1"));
        }
        return problems;
    }

    private static List<ConfigViolation> translated(InvalidPoolConfigException e, SlotPoolProperties p,
                                                    DefaultConnection connection, Function<String, String> writtenAs) {
        List<ConfigViolation> problems = new ArrayList<>();
        for (ConfigViolation v : e.violations()) {
            String property = writtenAs.apply(v.property());
            problems.add(new ConfigViolation(property != null ? property : propertyName(v, p, connection),
                    written(v.value()), written(v.problem())));
        }
        return problems;
    }

    /**
     * Validates the builder (the engine's checks plus the glue's own for Oracle settings).
     *
     * @throws InvalidSlotPoolPropertiesException naming every bad property as the user wrote it
     */
    public static void validate(SlotPoolBuilder builder, SlotPoolProperties p, DefaultConnection connection) {
        validate(builder, p, connection, setting -> null);
    }

    /**
     * As {@link #validate(SlotPoolBuilder, SlotPoolProperties, DefaultConnection)}, naming a setting by the property
     * {@code writtenAs} gives for it (such as a {@code spring.datasource.hikari.*} key) where it gives one.
     */
    static void validate(SlotPoolBuilder builder, SlotPoolProperties p, DefaultConnection connection,
                         Function<String, String> writtenAs) {
        List<ConfigViolation> problems = oracleProblems(p);
        try {
            builder.config();
            if (problems.isEmpty()) {
                return;
            }
        } catch (InvalidPoolConfigException e) {
            problems.addAll(translated(e, p, connection, writtenAs));
        }
        throw new InvalidSlotPoolPropertiesException(problems);
    }

    /** The property a user wrote for an engine setting: {@code minSize} → {@code slotpool.min-size}. */
    static String propertyName(ConfigViolation v, SlotPoolProperties p, DefaultConnection connection) {
        String setting = v.property();
        switch (setting) {
            case "url", "username", "password" -> {
                return connection.source() + "." + setting;
            }
            case "driverClassName" -> {
                return connection.source() + ".driver-class-name";
            }
            default -> {
            }
        }
        int key = setting.indexOf(CONNECTION_PROPERTY);
        if (key >= 0) {
            // A driver property keeps its own spelling: slotpool.connection-properties.prepareThreshold.
            ConfigViolation map = new ConfigViolation(setting.substring(0, key) + "connectionProperties", v.value(),
                    v.problem());
            return propertyName(map, p, connection) + "." + setting.substring(key + CONNECTION_PROPERTY.length());
        }
        Matcher m = ORIGIN_PROPERTY.matcher(setting);
        if (m.matches()) {
            return "slotpool.origins[" + originIndex(m.group(1), v, p.getOrigins()) + "]." + kebab(m.group(2));
        }
        return "slotpool." + kebab(setting);
    }

    /** The engine names an origin by its name, or by its index when it has none. */
    private static String originIndex(String key, ConfigViolation v, List<SlotPoolProperties.Origin> origins) {
        if (key.equals("*") || key.chars().allMatch(Character::isDigit)) {
            return key;
        }
        int found = -1;
        for (int i = 0; i < origins.size(); i++) {
            if (key.equals(origins.get(i).getName())) {
                found = i;
                if (!v.problem().startsWith("duplicate")) {
                    break; // a duplicate is reported on the later origin, anything else on the first
                }
            }
        }
        return found < 0 ? key : String.valueOf(found);
    }

    /**
     * The engine's durations as a property writes them ({@code PT0.1S} → {@code 100ms}, {@code PT10M} →
     * {@code 10m}), so the report shows the value the user typed and a range in the same syntax.
     */
    static String written(String text) {
        return ISO_DURATION.matcher(text).replaceAll(m -> Matcher.quoteReplacement(
                written(Duration.parse(m.group()))));
    }

    /** The largest unit that holds the duration exactly, in Boot's simple duration syntax. */
    static String written(Duration d) {
        if (d.getNano() == 0) {
            long s = d.getSeconds();
            return s % 3600 == 0 && s != 0 ? s / 3600 + "h" : s % 60 == 0 && s != 0 ? s / 60 + "m" : s + "s";
        }
        if (d.getNano() % 1_000_000 == 0) {
            return d.toMillis() + "ms";
        }
        return d.getNano() % 1_000 == 0 ? d.toNanos() / 1_000 + "us" : d.toNanos() + "ns";
    }

    static String kebab(String camel) {
        StringBuilder sb = new StringBuilder(camel.length() + 4);
        for (char c : camel.toCharArray()) {
            if (Character.isUpperCase(c)) {
                sb.append('-').append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
