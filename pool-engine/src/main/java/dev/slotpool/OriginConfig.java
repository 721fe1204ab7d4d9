package dev.slotpool;

import java.util.Map;
import java.util.Objects;

/**
 * One origin of a pool: a database service, instance, host or database the pool keeps connections to
 * (design §2.4). Immutable; every setter returns a copy.
 *
 * <pre>{@code OriginConfig.named("east").url("jdbc:...").instance("orcl1").host("db1").weight(60)}</pre>
 *
 * Unset values fall back to the pool's: {@code url}, {@code username}, {@code password} and connection
 * properties (merged, the origin's winning).
 */
public final class OriginConfig {

    private final String name;
    private final String url;
    private final String username;
    private final String password;
    private final String service;
    private final String database;
    private final String instance;
    private final String host;
    private final int weight;
    private final int maxConnections;
    private final Map<String, String> connectionProperties;

    private OriginConfig(String name, String url, String username, String password, String service,
                         String database, String instance, String host, int weight, int maxConnections,
                         Map<String, String> connectionProperties) {
        this.name = name;
        this.url = url;
        this.username = username;
        this.password = password;
        this.service = service;
        this.database = database;
        this.instance = instance;
        this.host = host;
        this.weight = weight;
        this.maxConnections = maxConnections;
        this.connectionProperties = Map.copyOf(connectionProperties);
    }

    /** An origin with the given name, weight 1, no cap, and everything else taken from the pool. */
    public static OriginConfig named(String name) {
        return new OriginConfig(name, null, null, null, null, null, null, null, 1, 0, Map.of());
    }

    /** JDBC URL of this origin; null uses the pool's URL. */
    public OriginConfig url(String url) {
        return new OriginConfig(name, url, username, password, service, database, instance, host, weight,
                maxConnections, connectionProperties);
    }

    /** User name for this origin; null uses the pool's. */
    public OriginConfig username(String username) {
        return new OriginConfig(name, url, username, password, service, database, instance, host, weight,
                maxConnections, connectionProperties);
    }

    /** Password for this origin; null uses the pool's. Never printed. */
    public OriginConfig password(String password) {
        return new OriginConfig(name, url, username, password, service, database, instance, host, weight,
                maxConnections, connectionProperties);
    }

    /** The service dimension (e.g. an Oracle service name). */
    public OriginConfig service(String service) {
        return new OriginConfig(name, url, username, password, service, database, instance, host, weight,
                maxConnections, connectionProperties);
    }

    /** The database dimension. */
    public OriginConfig database(String database) {
        return new OriginConfig(name, url, username, password, service, database, instance, host, weight,
                maxConnections, connectionProperties);
    }

    /** The instance dimension (e.g. an Oracle RAC instance). */
    public OriginConfig instance(String instance) {
        return new OriginConfig(name, url, username, password, service, database, instance, host, weight,
                maxConnections, connectionProperties);
    }

    /** The host dimension. */
    public OriginConfig host(String host) {
        return new OriginConfig(name, url, username, password, service, database, instance, host, weight,
                maxConnections, connectionProperties);
    }

    /** Relative share of connections and borrows; 0 keeps the origin configured but unused. Default 1. */
    public OriginConfig weight(int weight) {
        return new OriginConfig(name, url, username, password, service, database, instance, host, weight,
                maxConnections, connectionProperties);
    }

    /** Most connections (live and being created) this origin may hold; 0 = only the pool's maxSize. */
    public OriginConfig maxConnections(int maxConnections) {
        return new OriginConfig(name, url, username, password, service, database, instance, host, weight,
                maxConnections, connectionProperties);
    }

    /** Driver properties for this origin, merged over the pool's. */
    public OriginConfig connectionProperties(Map<String, String> properties) {
        return new OriginConfig(name, url, username, password, service, database, instance, host, weight,
                maxConnections, Objects.requireNonNull(properties, "properties"));
    }

    public String name() {
        return name;
    }

    public String url() {
        return url;
    }

    public String username() {
        return username;
    }

    /** The password; callers must never print it. */
    public String password() {
        return password;
    }

    public String service() {
        return service;
    }

    public String database() {
        return database;
    }

    public String instance() {
        return instance;
    }

    public String host() {
        return host;
    }

    public int weight() {
        return weight;
    }

    public int maxConnections() {
        return maxConnections;
    }

    public Map<String, String> connectionProperties() {
        return connectionProperties;
    }

    /** Names the origin and its dimensions; never the password or URL credentials. */
    @Override
    public String toString() {
        return "OriginConfig[" + name + ", url=" + JdbcUrls.redact(url) + ", service=" + service + ", database="
                + database + ", instance=" + instance + ", host=" + host + ", weight=" + weight + "]";
    }
}
