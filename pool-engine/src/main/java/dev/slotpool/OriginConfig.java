package dev.slotpool;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One origin of a pool: a database service, instance, host or database the pool keeps connections to
 * (docs/architecture.md, "Origins"). Immutable; every setter returns a copy.
 *
 * <pre>{@code OriginConfig.named("east").url("jdbc:...").instance("orcl1").host("db1").weight(60)}</pre>
 *
 * Unset values fall back to the pool's: {@code url}, {@code username}, {@code password} and connection
 * properties (merged, the origin's winning).
 */
public final class OriginConfig {

    /** The origins' weights add up to at most this, so every sum of weights and share stays exact in an int. */
    public static final int MAX_TOTAL_WEIGHT = 1_000_000;

    /** An origin's name: a path segment of the console's and the endpoint's URLs, and a metric tag. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._:-]{0,99}");

    private String name;
    private String url;
    private String username;
    private String password;
    private String service;
    private String database;
    private String instance;
    private String host;
    private int weight = 1;
    private int maxConnections;
    private Map<String, String> connectionProperties = Map.of();
    private String originQuery;
    private Pooler pooler;
    private String poolerAdminUrl;

    private OriginConfig(String name) {
        this.name = name;
    }

    /** An origin with the given name, weight 1, no cap, and everything else taken from the pool. */
    public static OriginConfig named(String name) {
        return new OriginConfig(name);
    }

    /** JDBC URL of this origin; null uses the pool's URL. */
    public OriginConfig url(String url) {
        return copy(c -> c.url = url);
    }

    /** User name for this origin; null uses the pool's. */
    public OriginConfig username(String username) {
        return copy(c -> c.username = username);
    }

    /** Password for this origin; null uses the pool's. Never printed. */
    public OriginConfig password(String password) {
        return copy(c -> c.password = password);
    }

    /** The service dimension (e.g. an Oracle service name). */
    public OriginConfig service(String service) {
        return copy(c -> c.service = service);
    }

    /** The database dimension. */
    public OriginConfig database(String database) {
        return copy(c -> c.database = database);
    }

    /** The instance dimension (e.g. an Oracle RAC instance). */
    public OriginConfig instance(String instance) {
        return copy(c -> c.instance = instance);
    }

    /** The host dimension. */
    public OriginConfig host(String host) {
        return copy(c -> c.host = host);
    }

    /** Relative share of connections and borrows; 0 keeps the origin configured but unused. Default 1. */
    public OriginConfig weight(int weight) {
        return copy(c -> c.weight = weight);
    }

    /** Most connections (live and being created) this origin may hold; 0 = only the pool's maxSize. */
    public OriginConfig maxConnections(int maxConnections) {
        return copy(c -> c.maxConnections = maxConnections);
    }

    /** Driver properties for this origin, merged over the pool's. */
    public OriginConfig connectionProperties(Map<String, String> properties) {
        Map<String, String> copy = Map.copyOf(Objects.requireNonNull(properties, "properties"));
        return copy(c -> c.connectionProperties = copy);
    }

    /**
     * Discovery: a query run on every new connection of this origin, whose one row says which server the
     * connection landed on (for a URL that reaches several, such as a PostgreSQL multi-host URL or an Oracle
     * SCAN address). The first column names the discovered origin; columns labelled {@code service},
     * {@code database}, {@code instance} or {@code host} fill its dimensions. Each name seen becomes an origin
     * of the pool, with this origin's weight and settings; this origin's weight and cap then apply to the
     * group. Default none.
     */
    public OriginConfig originQuery(String sql) {
        return copy(c -> c.originQuery = sql);
    }

    /** What sits in front of this origin's database (docs/poolers.md); null uses the pool's. */
    public OriginConfig pooler(Pooler pooler) {
        return copy(c -> c.pooler = pooler);
    }

    /**
     * The pooler's admin console for this origin ({@code postgresql://host:6432/pgbouncer?user=stats}, with
     * {@code &password=...} for a password or md5 login): its {@code SHOW POOLS} view of the origin's database is
     * read every {@code housekeepingPeriod} into {@link OriginSnapshot#pooler()}. Default none.
     */
    public OriginConfig poolerAdminUrl(String url) {
        return copy(c -> c.poolerAdminUrl = url);
    }

    /** Instances are immutable once returned: every setter changes a fresh copy before anyone sees it. */
    private OriginConfig copy(java.util.function.Consumer<OriginConfig> change) {
        OriginConfig c = new OriginConfig(name);
        c.url = url;
        c.username = username;
        c.password = password;
        c.service = service;
        c.database = database;
        c.instance = instance;
        c.host = host;
        c.weight = weight;
        c.maxConnections = maxConnections;
        c.connectionProperties = connectionProperties;
        c.originQuery = originQuery;
        c.pooler = pooler;
        c.poolerAdminUrl = poolerAdminUrl;
        change.accept(c);
        return c;
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

    /**
     * Why {@code name} cannot name an origin, or null when it can: it must be 1 to 100 letters, digits, {@code .},
     * {@code _}, {@code :} or {@code -}, start with a letter, digit or {@code _}, and hold no {@code ..}, so it is one
     * path segment of every URL that names it ({@code /} or {@code ..} would point an action at another path).
     */
    public static String nameProblem(String name) {
        if (name == null || name.isBlank()) {
            return "must not be blank";
        }
        if (!NAME.matcher(name).matches() || name.contains("..")) {
            return "must be 1 to 100 letters, digits, '.', '_', ':' or '-', start with a letter, digit or '_', and "
                    + "hold no '..' (it is a path segment of the console's and the endpoint's URLs)";
        }
        return null;
    }

    public int maxConnections() {
        return maxConnections;
    }

    public Map<String, String> connectionProperties() {
        return connectionProperties;
    }

    public String originQuery() {
        return originQuery;
    }

    /** The pooler's admin console URL; never print it unredacted (it may hold a password). */
    public String poolerAdminUrl() {
        return poolerAdminUrl;
    }

    /** What sits in front of the database; null (before the pool resolves it) means the pool's. */
    public Pooler pooler() {
        return pooler;
    }

    /** A copy for an origin found by this origin's discovery query: its name and dimensions, no query. */
    public OriginConfig discovered(String name, String service, String database, String instance, String host) {
        return copy(c -> {
            c.name = name;
            c.originQuery = null;
            c.service = service != null ? service : this.service;
            c.database = database != null ? database : this.database;
            c.instance = instance != null ? instance : this.instance;
            c.host = host != null ? host : this.host;
        });
    }

    /** Names the origin and its dimensions; never the password or URL credentials. */
    @Override
    public String toString() {
        return "OriginConfig[" + name + ", url=" + JdbcUrls.redact(url) + ", service=" + service + ", database="
                + database + ", instance=" + instance + ", host=" + host + ", weight=" + weight
                + (pooler == null || pooler == Pooler.NONE ? "" : ", pooler=" + pooler) + "]";
    }
}
