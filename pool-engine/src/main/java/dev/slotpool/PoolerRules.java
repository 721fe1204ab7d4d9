package dev.slotpool;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What an origin's {@link Pooler} asks of the driver and of the pool's session settings (docs/poolers.md): the
 * connection properties that make the driver safe behind it, added where the user set none, and a violation for
 * each setting that cannot be made safe, named as the user wrote it. Part of {@link SettingsCheck}.
 */
final class PoolerRules {

    static final String PREPARE_THRESHOLD = "prepareThreshold";
    static final String PREFER_QUERY_MODE = "preferQueryMode";
    static final String READ_ONLY_MODE = "readOnlyMode";
    static final String DRCP_CONNECTION_CLASS = "oracle.jdbc.DRCPConnectionClass";
    static final String DRCP_PURITY = "oracle.jdbc.DRCPConnectionPurity";

    private PoolerRules() {
    }

    /** A pooler admin console URL: {@code postgresql://host[:port]/...?user=name[&password=...]}. */
    static void adminUrl(String label, String url, List<ConfigViolation> v) {
        if (url == null) {
            return;
        }
        String u = url.startsWith("jdbc:") ? url.substring(5) : url;
        boolean ok;
        try {
            URI uri = URI.create(u);
            ok = "postgresql".equals(uri.getScheme()) && uri.getHost() != null && uri.getRawQuery() != null
                    && ("&" + uri.getRawQuery()).contains("&user=");
        } catch (IllegalArgumentException e) {
            ok = false;
        }
        if (!ok) {
            v.add(new ConfigViolation(label + ".poolerAdminUrl", JdbcUrls.redact(url),
                    "must be postgresql://host:port/pgbouncer?user=name (PgBouncer's admin console)"));
            return;
        }
        String query = "&" + URI.create(u).getRawQuery() + "&";
        for (String mode : new String[] {"disable", "require", "verify-full"}) {
            query = query.replace("&sslmode=" + mode + "&", "&");
        }
        if (query.contains("&sslmode=")) {
            v.add(new ConfigViolation(label + ".poolerAdminUrl", JdbcUrls.redact(url),
                    "sslmode must be disable, require or verify-full (PgBouncerAdmin's SslMode)"));
        }
    }

    /**
     * Checks one origin's pooler against its URL, its merged connection properties and the pool's session
     * settings; adds to {@code props} what the driver needs.
     *
     * @param label the origin's property prefix ({@code origins[east]}), or null for the pool's own URL
     */
    static void apply(String label, Pooler pooler, String url, Map<String, String> props, Settings s,
                      List<ConfigViolation> v) {
        if (pooler == null || pooler == Pooler.NONE || pooler == Pooler.SESSION || url == null) {
            return;
        }
        String prefix = label == null ? "" : label + ".";
        String poolerProperty = label == null ? "pooler" : label + ".pooler";
        if (pooler == Pooler.DRCP) {
            drcp(prefix, poolerProperty, url, props, s, v);
            return;
        }
        if (!url.startsWith("jdbc:postgresql:")) {
            v.add(new ConfigViolation(poolerProperty, pooler.name(), "a transaction pooler is supported with "
                    + "pgjdbc (jdbc:postgresql: URLs) only: the pool cannot make another driver's session state and "
                    + "prepared statements safe behind it"));
            return;
        }
        sessionState(pooler, s, v);
        String readOnlyMode = setting(url, props, READ_ONLY_MODE);
        if ("always".equalsIgnoreCase(readOnlyMode)) {
            v.add(violation(prefix, url, READ_ONLY_MODE, readOnlyMode, "must not be 'always' behind "
                    + "a transaction pooler (pooler=" + pooler + "): it sets read-only for the server session, which "
                    + "other clients then share; leave it at 'transaction' (pgjdbc's default: read-only at BEGIN)"));
        }
        if (pooler == Pooler.TRANSACTION_WITH_PREPARED_STATEMENTS
                || "simple".equalsIgnoreCase(setting(url, props, PREFER_QUERY_MODE))) {
            return; // the pooler keeps named statements per client, or the driver never names one
        }
        String threshold = setting(url, props, PREPARE_THRESHOLD);
        if (threshold == null) {
            props.put(PREPARE_THRESHOLD, "0");
        } else if (!"0".equals(threshold.trim())) {
            v.add(violation(prefix, url, PREPARE_THRESHOLD, threshold, "must be 0 behind a "
                    + "transaction pooler (pooler=TRANSACTION): pgjdbc's server-side named statements live in one "
                    + "server session and the next transaction may run on another; use "
                    + "pooler=TRANSACTION_WITH_PREPARED_STATEMENTS if the pooler keeps protocol-level prepared "
                    + "statements (PgBouncer 1.21+ with max_prepared_statements > 0), or leave it unset"));
        }
    }

    /** Settings the pool applies once per connection with plain SET: they would stay on one server session
     * and reach other clients, while this client's next transactions run without them. */
    private static void sessionState(Pooler pooler, Settings s, List<ConfigViolation> v) {
        String schema = s.get(Setting.SCHEMA);
        String isolation = s.get(Setting.TRANSACTION_ISOLATION);
        String why = " behind a transaction pooler (pooler=" + pooler + "): the pool sets it once per connection "
                + "with SET, which stays on one server session and reaches other clients while this pool's next "
                + "transactions may run elsewhere; set it on the database role instead (ALTER ROLE ... SET ";
        if (schema != null) {
            addOnce(v, new ConfigViolation("schema", schema, "cannot be used" + why + "search_path = ...)"));
        }
        if (isolation != null) {
            addOnce(v, new ConfigViolation("transactionIsolation", isolation, "cannot be used" + why
                    + "default_transaction_isolation = ...), or per transaction with SET TRANSACTION"));
        }
        if (s.get(Setting.CONNECTION_INIT_SQL) != null) {
            addOnce(v, new ConfigViolation("connectionInitSql", "(set)", "cannot be used" + why + "...)"));
        }
    }

    /** A pool-wide setting is reported once, however many origins sit behind a transaction pooler. */
    private static void addOnce(List<ConfigViolation> v, ConfigViolation violation) {
        if (v.stream().noneMatch(x -> x.property().equals(violation.property()))) {
            v.add(violation);
        }
    }

    private static void drcp(String prefix, String poolerProperty, String url, Map<String, String> props,
                             Settings s, List<ConfigViolation> v) {
        String upper = url.toUpperCase(Locale.ROOT).replace(" ", "");
        if (!url.startsWith("jdbc:oracle:")) {
            v.add(new ConfigViolation(poolerProperty, "DRCP", "needs an Oracle URL (jdbc:oracle:...)"));
        } else if (!upper.contains("(SERVER=POOLED)") && !upper.endsWith(":POOLED")) {
            v.add(new ConfigViolation(prefix + "url", JdbcUrls.redact(url), "must ask for a pooled server with "
                    + "pooler=DRCP: (SERVER=POOLED) in the connect descriptor, or :POOLED after the service name"));
        } else {
            // As UCP: the pool's name as the connection class, so every instance of the app shares the class's
            // pooled sessions, and purity SELF (a session of the class may be reused, its state reset by the
            // return's hygiene); NEW asks DRCP for a fresh session at each attach.
            props.putIfAbsent(DRCP_CONNECTION_CLASS, s.get(Setting.NAME));
            String purity = props.putIfAbsent(DRCP_PURITY, "SELF");
            if (purity != null && !purity.trim().equalsIgnoreCase("SELF") && !purity.trim().equalsIgnoreCase("NEW")) {
                v.add(new ConfigViolation(prefix + "connectionProperties." + DRCP_PURITY, purity,
                        "must be SELF or NEW (DRCP session purity)"));
            }
        }
    }

    /** A driver setting from the URL (which wins in pgjdbc) or else the connection properties; null if unset. */
    private static String setting(String url, Map<String, String> props, String key) {
        String fromUrl = urlParameter(url, key);
        return fromUrl != null ? fromUrl : props.get(key);
    }

    /** A driver setting's violation, named where the user set it: the URL's parameter, or the connection
     * property ({@code connectionProperties.<key>}). */
    private static ConfigViolation violation(String prefix, String url, String key, String value, String problem) {
        if (urlParameter(url, key) != null) {
            return new ConfigViolation(prefix + "url", key + "=" + value, key + " " + problem);
        }
        return new ConfigViolation(prefix + "connectionProperties." + key, value, problem);
    }

    private static String urlParameter(String url, String key) {
        int q = url.indexOf('?');
        if (q < 0) {
            return null;
        }
        for (String pair : url.substring(q + 1).split("&")) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            if (k.equals(key)) {
                return eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }
}
