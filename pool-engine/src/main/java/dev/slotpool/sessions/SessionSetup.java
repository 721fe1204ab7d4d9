package dev.slotpool.sessions;

import dev.slotpool.PoolConfig;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Prepares each new connection before it is lent, on the thread that opened it (S6): the configured auto-commit,
 * isolation, read-only, catalog and schema, then the connection init SQL. The state the connection has afterwards
 * is what {@link dev.slotpool.jdbc.ConnectionDefaults} reads, so return-time hygiene restores the configured
 * values (docs/architecture.md, "Creation").
 */
public final class SessionSetup {

    private final PoolConfig config;
    /** Whether anything is configured: a pool that sets nothing costs a new connection no call. */
    private final boolean any;

    public SessionSetup(PoolConfig config) {
        this.config = config;
        this.any = config.autoCommit() != null || config.transactionIsolation() != null || config.readOnly() != null
                || config.catalog() != null || config.schema() != null || config.connectionInitSql() != null;
    }

    /**
     * Applies the settings and runs the init SQL; an error is rethrown, so the creator closes the connection and
     * counts a failed connect. An init SQL error keeps its SQLState and vendor code and names the step.
     */
    public void apply(Connection c) throws SQLException {
        if (!any) {
            return;
        }
        // Auto-commit last: the other settings and the init SQL then run in the driver's mode, and whatever of
        // them is transactional is committed below, so the first holder's rollback cannot undo it (PostgreSQL's
        // SET search_path).
        if (config.transactionIsolation() != null) {
            c.setTransactionIsolation(config.transactionIsolation());
        }
        if (config.readOnly() != null) {
            c.setReadOnly(config.readOnly());
        }
        if (config.catalog() != null) {
            c.setCatalog(config.catalog());
        }
        if (config.schema() != null) {
            c.setSchema(config.schema());
        }
        String sql = config.connectionInitSql();
        if (sql != null) {
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            } catch (SQLException e) {
                throw new SQLException("connectionInitSql failed: " + e.getMessage(), e.getSQLState(),
                        e.getErrorCode(), e);
            }
        }
        if (config.autoCommit() != null) {
            c.setAutoCommit(config.autoCommit());
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }
}
