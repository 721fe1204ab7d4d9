package dev.slotpool.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * A JDBC driver for {@code jdbc:stub:<database>[?key=value&...]} URLs that talks to an in-memory
 * {@link StubDatabase} instead of a server, so pool tests and benchmarks measure the pool, not the network.
 *
 * <p>URL parameters (see {@link StubDatabase} for the runtime equivalents, which they override for
 * connections opened through the URL): {@code connectDelayMs}, {@code queryDelayMs} or
 * {@code queryDelayMicros} (fractional values allowed), {@code failRate} (0..1), and {@code user} and
 * {@code password}. Unknown or repeated parameters are rejected with SQLState 22023. The {@code user}
 * property wins over a {@code user} URL parameter; the {@code password} property is checked only against
 * {@link StubDatabase#requirePassword(String)}, never stored or shown.
 *
 * <p>Registers itself with {@link DriverManager} when loaded; {@code META-INF/services/java.sql.Driver}
 * makes {@code DriverManager} load it.
 */
public final class StubDriver extends TestDriver {

    static {
        try {
            DriverManager.registerDriver(new StubDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** For {@link java.util.ServiceLoader} and pools configured with a driver class name. */
    public StubDriver() {
        super(ConnectionUrl.PREFIX);
    }

    /** Returns null for URLs of other drivers, as {@link DriverManager} requires. */
    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (url == null) {
            throw StubErrors.invalidArgument("url is null");
        }
        if (!ConnectionUrl.accepts(url)) {
            return null;
        }
        return open(url, info == null ? null : info.getProperty("user"),
                info == null ? null : info.getProperty("password"));
    }

    /** Opens a connection for a stub URL; shared with {@link StubDataSource}. */
    static StubConnection open(String url, String user, String password) throws SQLException {
        ConnectionUrl parsed = ConnectionUrl.parse(url);
        return StubDatabase.named(parsed.database()).open(parsed, user != null ? user : parsed.user(), password);
    }

    @Override
    public boolean acceptsURL(String url) throws SQLException {
        if (url == null) {
            throw StubErrors.invalidArgument("url is null");
        }
        return ConnectionUrl.accepts(url);
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw StubErrors.unsupported();
    }
}
