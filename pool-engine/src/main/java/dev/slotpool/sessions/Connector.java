package dev.slotpool.sessions;

import dev.slotpool.CredentialsProvider;
import dev.slotpool.JdbcUrls;
import dev.slotpool.PoolConfig;
import dev.slotpool.kernel.Secrets;
import dev.slotpool.kernel.UserCode;
import dev.slotpool.origins.Origin;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

/**
 * Opens one physical connection for an origin, on a pool thread (S6): with the origin's properties, or with the
 * user and password a {@link CredentialsProvider} gives at this very connect (docs/architecture.md, "Creation").
 * A driver failure (an SQLException, or a RuntimeException or LinkageError) that echoes a provided password is
 * rethrown as an SQLException without it.
 */
public final class Connector {

    private final CredentialsProvider credentials;
    private final UserCode userCode;
    private final SessionSetup setup;

    public Connector(PoolConfig config, UserCode userCode) {
        this.credentials = config.credentialsProvider();
        this.userCode = userCode;
        this.setup = new SessionSetup(config);
    }

    /** Applies the configured session state to a connection {@link #connect} opened (see {@link SessionSetup}). */
    public void setUp(Connection c) throws SQLException {
        setup.apply(c);
    }

    public Connection connect(Origin o) throws SQLException {
        if (credentials == null) {
            return connect(o, o.connectProperties);
        }
        CredentialsProvider.Credentials given = fetch(o);
        Properties props = new Properties();
        props.putAll(o.connectProperties);
        props.remove("password");
        if (given.username() != null) {
            props.setProperty("user", given.username());
        }
        if (given.password() == null) {
            return connect(o, props);
        }
        props.setProperty("password", given.password());
        try {
            return connect(o, props);
        } catch (SQLException | RuntimeException | LinkageError e) {
            // A driver's unchecked failure may echo the password as well as an SQLException does.
            throw Secrets.scrub(e, List.of(given.password()));
        }
    }

    private static Connection connect(Origin o, Properties props) throws SQLException {
        Connection c = o.driver.connect(o.config.url(), props);
        if (c == null) {
            throw new SQLException("no driver accepted the URL of origin '" + o.name + "': "
                    + JdbcUrls.redact(o.config.url()), "08001");
        }
        return c;
    }

    private CredentialsProvider.Credentials fetch(Origin o) throws SQLException {
        CredentialsProvider.Credentials given = userCode.credentials(credentials, o.name);
        if (given == null) {
            throw new SQLException("credentials provider returned null for origin '" + o.name + "'");
        }
        return given;
    }
}
