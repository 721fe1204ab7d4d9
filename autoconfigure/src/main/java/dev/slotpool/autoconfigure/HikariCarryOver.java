package dev.slotpool.autoconfigure;

import dev.slotpool.HikariKey;
import dev.slotpool.Setting;
import dev.slotpool.SlotPoolBuilder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The {@code spring.datasource.hikari.*} keys the auto-configured pool reads: each {@link Setting} row's carried
 * {@link Setting#hikari() HikariCP key}, and {@code data-source-properties}, in HikariCP's meaning (durations in
 * milliseconds, a {@code connection-timeout} of 0 waits without limit, an isolation level also as its number). A
 * {@code slotpool.*} key wins over its twin (per key for the driver properties). {@code minimum-idle} is read as
 * {@code min-size}, capped at the maximum size (whichever key set it): the connections HikariCP holds open at rest
 * with the same numbers, so a fixed-size pool stays fixed and one next to a larger {@code slotpool.max-size} keeps
 * its floor. {@code docs/migrating-from-hikaricp.md} has the table.
 */
final class HikariCarryOver {

    static final String PREFIX = "spring.datasource.hikari";

    private static final Log log = LogFactory.getLog(HikariCarryOver.class);

    /** HikariCP's {@code maximumPoolSize} when none is set. */
    private static final int HIKARI_DEFAULT_MAX = 10;

    private final Environment environment;
    /** HikariCP key to the engine setting it set; written once, by {@link #applyTo}. */
    private Map<String, String> read = Map.of();

    HikariCarryOver(Environment environment) {
        this.environment = environment;
    }

    /**
     * Sets on the builder each key whose {@code slotpool.*} twin is unset, and logs one INFO naming the keys read
     * and those a twin overrides (never values). Call after the {@code slotpool.*} properties are mapped.
     */
    void applyTo(SlotPoolBuilder b, SlotPoolProperties p) {
        // Bound here, not before: with another pool as the DataSource, the keys are that pool's business.
        Binder binder = Binder.get(environment);
        Map<String, String> applied = new TreeMap<>();
        Map<String, String> overridden = new TreeMap<>();
        Integer max = p.getMaxSize() != null ? p.getMaxSize()
                : binder.bind(key(Setting.MAX_SIZE), Integer.class).orElse(null);
        for (Setting<?> setting : Setting.all()) {
            HikariKey hikari = setting.hikari();
            if (hikari == null || !hikari.carried()) {
                continue;
            }
            Object bound = binder.bind(key(setting), Bindable.of(hikari.boundAs())).orElse(null);
            if (bound == null) {
                continue;
            }
            String twin = setting.property();
            if (SlotPoolPropertiesMapper.written(p, setting) != null) {
                overridden.put(hikari.key(), twin);
                continue;
            }
            Object value = hikari.toSetting().apply(bound);
            if (setting == Setting.MIN_SIZE) {
                value = minSize((Integer) value, max);
                if (max == null && (Integer) value > 0) {
                    b.maxSize(HIKARI_DEFAULT_MAX); // the fixed size HikariCP gives it
                }
            }
            set(b, setting, value);
            applied.put(hikari.key(), setting.name());
        }
        Map<String, String> dataSourceProperties = binder.bind(PREFIX + ".data-source-properties",
                Bindable.mapOf(String.class, String.class)).orElse(Map.of());
        if (!dataSourceProperties.isEmpty()) {
            // Driver properties merge per key: slotpool.connection-properties' own keys win.
            dataSourceProperties.forEach((k, v) -> {
                if (!p.getConnectionProperties().containsKey(k)) {
                    b.connectionProperty(k, v);
                }
            });
            applied.put("data-source-properties", "connectionProperties");
        }
        read = Map.copyOf(applied);
        if (!applied.isEmpty() || !overridden.isEmpty()) {
            log.info(PREFIX + ".* keys read for slotpool: " + applied.keySet().stream()
                    .map(k -> k + " → slotpool." + SlotPoolPropertiesMapper.kebab(applied.get(k)))
                    .collect(Collectors.joining(", "))
                    + overridden.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + " is set and wins)")
                    .collect(Collectors.joining(", ", applied.isEmpty() || overridden.isEmpty() ? "" : "; ", "")));
        }
    }

    private static String key(Setting<?> setting) {
        return PREFIX + "." + setting.hikari().key();
    }

    private static <T> void set(SlotPoolBuilder b, Setting<T> setting, Object value) {
        b.set(setting, setting.cast(value));
    }

    /** The HikariCP keys (kebab form) {@link #applyTo} set on the pool. */
    Set<String> readKeys() {
        return read.keySet();
    }

    /** The property a user wrote for an engine setting this carry-over set, or null. */
    String propertyOf(String setting) {
        return read.entrySet().stream().filter(e -> e.getValue().equals(setting)).map(e -> PREFIX + "." + e.getKey())
                .findFirst().orElse(null);
    }

    /** minimum-idle as min-size: HikariCP reads a negative one, or one above the maximum, as the maximum. */
    private static Integer minSize(Integer minimumIdle, Integer max) {
        if (minimumIdle == null) {
            return null;
        }
        int effectiveMax = max != null ? max : HIKARI_DEFAULT_MAX;
        return minimumIdle < 0 || minimumIdle > effectiveMax ? effectiveMax : minimumIdle;
    }
}
