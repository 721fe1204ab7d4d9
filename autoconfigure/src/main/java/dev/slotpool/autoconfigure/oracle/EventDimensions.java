package dev.slotpool.autoconfigure.oracle;

import dev.slotpool.OriginSnapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The origin dimensions a FAN event names (blank counts as not named). An origin matches when every named
 * dimension equals the origin's configured one, ignoring case; an origin with no value for a named dimension
 * does not match.
 *
 * @param service  FAN's service name, or null
 * @param database FAN's database unique name ({@code db_unique_name}), or null
 * @param instance FAN's instance name, or null
 * @param host     FAN's host (node) name, or null
 */
record EventDimensions(String service, String database, String instance, String host) {

    EventDimensions {
        service = named(service);
        database = named(database);
        instance = named(instance);
        host = named(host);
    }

    private static String named(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** True when the event names no dimension at all (it would otherwise match every origin). */
    boolean isEmpty() {
        return service == null && database == null && instance == null && host == null;
    }

    boolean matches(OriginSnapshot origin) {
        return same(service, origin.service()) && same(database, origin.database())
                && same(instance, origin.instance()) && same(host, origin.host());
    }

    private static boolean same(String named, String configured) {
        return named == null || (configured != null && named.equalsIgnoreCase(configured.strip()));
    }

    /** A key for grouping advisories of one service of one database. */
    String serviceKey() {
        return lower(service) + "/" + lower(database);
    }

    static String lower(String value) {
        return value == null ? "" : value.toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>(4);
        if (service != null) {
            parts.add("service=" + service);
        }
        if (database != null) {
            parts.add("database=" + database);
        }
        if (instance != null) {
            parts.add("instance=" + instance);
        }
        if (host != null) {
            parts.add("host=" + host);
        }
        return String.join(" ", parts);
    }
}
