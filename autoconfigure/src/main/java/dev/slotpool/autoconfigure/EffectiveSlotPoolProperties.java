package dev.slotpool.autoconfigure;

import dev.slotpool.OriginConfig;
import dev.slotpool.PoolConfig;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The auto-configured pool's effective settings in the shape of {@link SlotPoolProperties}, so
 * {@code /actuator/configprops} shows every value the pool runs with under {@code slotpool} (defaults, carried-over
 * {@code spring.datasource.hikari.*} keys and customizers' values included), as it shows HikariCP's under
 * {@code spring.datasource.hikari}. Boot binds {@code slotpool.*} onto it as onto any properties bean;
 * {@link #afterPropertiesSet} then writes the pool's own values over them (a customizer's included). Not an
 * autowire candidate: {@link SlotPoolProperties} injection keeps meaning what was written. Credentials are not
 * copied; the default connection's URL is {@code spring.datasource.url}'s entry. Where no auto-configured pool was
 * built (a test slice replaced the DataSource), it shows what Boot bound.
 */
final class EffectiveSlotPoolProperties extends SlotPoolProperties implements InitializingBean {

    /** Settings that are no {@code slotpool.*} scalar: the default connection's, and those copied apart below. */
    private static final Set<String> NOT_SCALAR = Set.of("url", "driver-class-name", "origins",
            "connection-properties");

    private final PoolSettings settings;

    EffectiveSlotPoolProperties(PoolSettings settings) {
        this.settings = settings;
    }

    @Override
    public void afterPropertiesSet() {
        PoolConfig config = settings.autoConfigured();
        if (config == null) {
            return;
        }
        Map<String, Object> values = new LinkedHashMap<>();
        PoolSettings.values(config).forEach((name, value) -> {
            if (value != null && !NOT_SCALAR.contains(name)) {
                values.put(name, value instanceof Enum<?> e ? e.name() : value.toString());
            }
        });
        config.connectionProperties().forEach((k, v) -> values.put("connection-properties[" + k + "]", v));
        List<OriginConfig> origins = config.origins();
        for (int i = 0; i < origins.size(); i++) {
            OriginConfig o = origins.get(i);
            String at = "origins[" + i + "].";
            putIfSet(values, at + "name", o.name());
            putIfSet(values, at + "url", o.url());
            putIfSet(values, at + "username", o.username());
            putIfSet(values, at + "service", o.service());
            putIfSet(values, at + "database", o.database());
            putIfSet(values, at + "instance", o.instance());
            putIfSet(values, at + "host", o.host());
            values.put(at + "weight", String.valueOf(o.weight()));
            values.put(at + "max-connections", String.valueOf(o.maxConnections()));
            putIfSet(values, at + "origin-query", o.originQuery());
            putIfSet(values, at + "pooler", o.pooler() == null ? null : o.pooler().name());
            putIfSet(values, at + "pooler-admin-url", o.poolerAdminUrl());
            o.connectionProperties().forEach((k, v) -> values.put(at + "connection-properties[" + k + "]", v));
        }
        Map<String, Object> prefixed = new LinkedHashMap<>();
        values.forEach((k, v) -> prefixed.put("slotpool." + k, v));
        new Binder(new MapConfigurationPropertySource(prefixed)).bind("slotpool", Bindable.ofInstance(this));
    }

    private static void putIfSet(Map<String, Object> values, String key, Object value) {
        if (value != null) {
            values.put(key, value);
        }
    }
}
