package dev.slotpool.testsupport;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * A {@link DataSource} over {@link StubDriver}, for pools that take a data source or instantiate a connection
 * factory class by name and configure it through bean setters (e.g. Vibur, Oracle UCP). Both the
 * {@code URL} and {@code Url} spellings of the URL property are provided because pools differ on it.
 * The password is accepted and discarded: the stub does not authenticate, so it is never stored or shown.
 */
public class StubDataSource implements DataSource {

    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("([?&]password=)[^&]*");

    private volatile String url;
    private volatile String user;
    private volatile int loginTimeoutSeconds;
    private volatile PrintWriter logWriter;

    /** For pools that instantiate the data source by class name. */
    public StubDataSource() {
    }

    /** A data source for a {@code jdbc:stub:} URL. */
    public StubDataSource(String url) {
        this.url = url;
    }

    public String getURL() {
        return url;
    }

    public void setURL(String url) {
        this.url = url;
    }

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    /** Accepted for bean-style configuration and discarded. */
    public void setPassword(String password) {
        // the stub does not authenticate; keeping the password would only risk leaking it
    }

    @Override
    public Connection getConnection() throws SQLException {
        return getConnection(user, null);
    }

    /** The password is ignored. */
    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        String target = url;
        if (target == null) {
            throw new SQLException("StubDataSource has no URL", "08001");
        }
        return StubDriver.open(target, user, null);
    }

    /** Stored and reported back; connects are not cut short. */
    @Override
    public void setLoginTimeout(int seconds) {
        loginTimeoutSeconds = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeoutSeconds;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        logWriter = out;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw StubErrors.unsupported();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper for " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    /** Shows the URL with any {@code password} parameter masked. */
    @Override
    public String toString() {
        String shown = url == null ? null : PASSWORD_PARAMETER.matcher(url).replaceAll("$1***");
        return "StubDataSource[url=" + shown + ", user=" + user + "]";
    }
}
