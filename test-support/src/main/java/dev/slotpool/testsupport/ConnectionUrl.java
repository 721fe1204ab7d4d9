package dev.slotpool.testsupport;

import java.sql.SQLException;

/**
 * A parsed {@code jdbc:stub:<database>[?key=value&...]} URL.
 *
 * <p>Settings given in the URL override the database's runtime settings for the connections opened through
 * that URL, so a benchmark can describe its whole setup in the one string it hands to any pool. Recognised
 * parameters: {@code connectDelayMs}, {@code queryDelayMs} or {@code queryDelayMicros} (fractional values
 * allowed), {@code failRate} (0..1), and {@code user}/{@code password} (password ignored: the stub does not
 * authenticate). Parameter values never appear in messages except for the numeric settings.
 *
 * @param database          the database name
 * @param user              the user given in the URL, or null
 * @param connectDelayNanos the connect delay, or {@link #UNSET} to use the database's setting
 * @param queryDelayNanos   the query delay, or {@link #UNSET} to use the database's setting
 * @param failRate          the probability that a connect fails, or NaN to use the database's setting
 */
record ConnectionUrl(String database, String user, long connectDelayNanos, long queryDelayNanos,
                     double failRate) {

    static final String PREFIX = "jdbc:stub:";
    static final long UNSET = -1;

    /** Whether the URL is meant for the stub driver. */
    static boolean accepts(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    /** Parses a stub URL; rejects unknown or repeated parameters so a typo cannot silently change a benchmark. */
    static ConnectionUrl parse(String url) throws SQLException {
        if (!accepts(url)) {
            throw StubErrors.invalidArgument("not a stub URL: expected " + PREFIX + "<database>");
        }
        String rest = url.substring(PREFIX.length());
        int query = rest.indexOf('?');
        String database = query < 0 ? rest : rest.substring(0, query);
        if (database.isEmpty()) {
            throw StubErrors.invalidArgument("missing database name: expected " + PREFIX + "<database>");
        }
        String user = null;
        long connectDelay = UNSET;
        long queryDelay = UNSET;
        double failRate = Double.NaN;
        String[] pairs = query < 0 ? new String[0] : rest.substring(query + 1).split("&");
        for (String pair : pairs) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            switch (key) {
                case "user" -> user = value;
                case "password" -> {
                    // accepted for URL compatibility with real drivers; never stored
                }
                case "connectDelayMs" -> connectDelay = once("connect delay", connectDelay, nanos(key, value, 1e6));
                case "queryDelayMs" -> queryDelay = once("query delay", queryDelay, nanos(key, value, 1e6));
                case "queryDelayMicros" -> queryDelay = once("query delay", queryDelay, nanos(key, value, 1e3));
                case "failRate" -> failRate = probability(key, value, failRate);
                default -> throw StubErrors.invalidArgument("unknown stub URL parameter '" + key + "'");
            }
        }
        return new ConnectionUrl(database, user, connectDelay, queryDelay, failRate);
    }

    private static long once(String setting, long previous, long value) throws SQLException {
        if (previous != UNSET) {
            throw StubErrors.invalidArgument("stub URL sets the " + setting + " twice");
        }
        return value;
    }

    private static long nanos(String key, String value, double nanosPerUnit) throws SQLException {
        return Math.round(number(key, value) * nanosPerUnit);
    }

    private static double probability(String key, String value, double previous) throws SQLException {
        if (!Double.isNaN(previous)) {
            throw StubErrors.invalidArgument("stub URL sets " + key + " twice");
        }
        double p = number(key, value);
        if (p > 1) {
            throw StubErrors.invalidArgument("stub URL parameter '" + key + "' must be within [0, 1]: " + value);
        }
        return p;
    }

    private static double number(String key, String value) throws SQLException {
        double d;
        try {
            d = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new SQLException("stub URL parameter '" + key + "' is not a number: " + value, "22023", e);
        }
        if (!Double.isFinite(d) || d < 0) {
            throw StubErrors.invalidArgument("stub URL parameter '" + key + "' must be finite and >= 0: " + value);
        }
        return d;
    }
}
