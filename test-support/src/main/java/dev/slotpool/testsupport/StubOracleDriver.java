package dev.slotpool.testsupport;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The stub driver under an Oracle thin URL, {@code jdbc:oracle:thin:@//stub/<database>[:POOLED]}, so a pool whose
 * settings ask for an Oracle URL (an origin behind DRCP) can be tested against a {@link StubDatabase}. Its
 * connections are {@link StubConnection}s, with the {@link DrcpConnection} surface. Not registered with
 * {@code DriverManager} (it would answer Oracle URLs a real driver should get): a pool loads it by class name
 * ({@code driverClassName}). Keeps the driver properties of each database's last connect, without the password,
 * for tests of what a pool gave the driver.
 */
public final class StubOracleDriver extends TestDriver {

    static final String PREFIX = "jdbc:oracle:thin:@//stub/";
    private static final String POOLED = ":POOLED";
    private static final ConcurrentMap<String, Map<String, String>> LAST_PROPERTIES = new ConcurrentHashMap<>();

    public StubOracleDriver() {
        super(PREFIX);
    }

    /** The URL of a stub database behind DRCP (a pooled server asked for with {@code :POOLED}). */
    public static String pooledUrl(String database) {
        return PREFIX + database + POOLED;
    }

    /** The driver properties of the last connect to {@code database}, password left out; empty if none. */
    public static Map<String, String> lastProperties(String database) {
        return LAST_PROPERTIES.getOrDefault(database, Map.of());
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        String database = url.substring(PREFIX.length());
        if (database.endsWith(POOLED)) {
            database = database.substring(0, database.length() - POOLED.length());
        }
        Map<String, String> seen = new TreeMap<>();
        if (info != null) {
            for (String key : info.stringPropertyNames()) {
                if (!key.equals("password")) {
                    seen.put(key, info.getProperty(key));
                }
            }
        }
        LAST_PROPERTIES.put(database, Map.copyOf(seen));
        return StubDriver.open(ConnectionUrl.PREFIX + database, info == null ? null : info.getProperty("user"),
                info == null ? null : info.getProperty("password"));
    }
}
