package dev.slotpool;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;

/**
 * What a {@link SlotPoolBuilder} collected: a value for each {@link Setting} row that was set (null included: a
 * setting set to null is refused by its rule, not taken for unset), the driver properties, the origins, and the
 * user's hooks. {@link SettingsCheck} checks it and {@link PoolConfig} is made from it.
 */
final class Settings {

    private final Map<Setting<?>, Object> written;
    final Map<String, String> connectionProperties;
    final List<OriginConfig> origins;
    final List<PoolListener> listeners;
    CredentialsProvider credentialsProvider;
    SqlExceptionOverride exceptionOverride;
    LabelingCallback labeling;
    BorrowObserver borrowObserver;
    ThreadFactory threadFactory;
    Ticker ticker = Ticker.SYSTEM;

    Settings() {
        written = new HashMap<>();
        connectionProperties = new LinkedHashMap<>();
        origins = new ArrayList<>();
        listeners = new ArrayList<>();
    }

    /** A copy that later changes to this one do not reach. */
    private Settings(Settings from) {
        written = new HashMap<>(from.written);
        connectionProperties = new LinkedHashMap<>(from.connectionProperties);
        origins = new ArrayList<>(from.origins);
        listeners = new ArrayList<>(from.listeners);
        credentialsProvider = from.credentialsProvider;
        exceptionOverride = from.exceptionOverride;
        labeling = from.labeling;
        borrowObserver = from.borrowObserver;
        threadFactory = from.threadFactory;
        ticker = from.ticker;
    }

    Settings copy() {
        return new Settings(this);
    }

    <T> void set(Setting<T> setting, T value) {
        written.put(setting, value);
    }

    /** The value set, or null when unset. */
    <T> T raw(Setting<T> setting) {
        return setting.cast(written.get(setting));
    }

    /** The value set, else the fixed default (null for a default read from other settings): what a rule checks. */
    <T> T written(Setting<T> setting) {
        return written.containsKey(setting) ? raw(setting) : setting.defaultValue();
    }

    /** The value the pool runs with: the one set, else the default (a derived one read from the others). */
    <T> T get(Setting<T> setting) {
        T value = raw(setting);
        if (value != null || (written.containsKey(setting) && !setting.defaultDerived())) {
            return value;
        }
        return setting.defaultIn(this);
    }
}
