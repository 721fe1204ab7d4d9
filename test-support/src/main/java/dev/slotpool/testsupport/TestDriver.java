package dev.slotpool.testsupport;

import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The base of a test's own JDBC driver (one that throws what the test needs from {@code connect}): it accepts
 * the URLs that start with its prefix and answers the rest of {@link Driver} as a minimal driver does. A pool
 * loads it by class name, so a subclass needs a public no-argument constructor.
 */
public abstract class TestDriver implements Driver {

    private final String urlPrefix;

    protected TestDriver(String urlPrefix) {
        this.urlPrefix = urlPrefix;
    }

    @Override
    public boolean acceptsURL(String url) throws SQLException {
        return url != null && url.startsWith(urlPrefix);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        return new DriverPropertyInfo[0];
    }

    @Override
    public int getMajorVersion() {
        return 1;
    }

    @Override
    public int getMinorVersion() {
        return 0;
    }

    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return Logger.getGlobal();
    }
}
