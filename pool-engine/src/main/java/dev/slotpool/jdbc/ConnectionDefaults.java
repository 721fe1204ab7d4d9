package dev.slotpool.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The state a connection had when the pool created it: what return-time hygiene restores.
 *
 * @param autoCommit           auto-commit mode
 * @param transactionIsolation one of the {@code Connection.TRANSACTION_*} constants
 * @param readOnly             read-only mode
 * @param catalog              the catalog, or {@code null} where the driver has none
 * @param schema               the schema, or {@code null} where the driver has none
 * @param networkTimeoutMillis the network timeout in milliseconds (0 = none)
 */
public record ConnectionDefaults(boolean autoCommit, int transactionIsolation, boolean readOnly,
                                 String catalog, String schema, int networkTimeoutMillis) {

    /** Reads the defaults of a freshly opened connection; optional features the driver lacks read as null/0. */
    public static ConnectionDefaults readFrom(Connection c) throws SQLException {
        String catalog;
        try {
            catalog = c.getCatalog();
        } catch (SQLException | UnsupportedOperationException e) {
            catalog = null;
        }
        String schema;
        try {
            schema = c.getSchema();
        } catch (SQLException | AbstractMethodError | UnsupportedOperationException e) {
            schema = null;
        }
        int networkTimeout;
        try {
            networkTimeout = c.getNetworkTimeout();
        } catch (SQLException | AbstractMethodError | UnsupportedOperationException e) {
            networkTimeout = 0;
        }
        return new ConnectionDefaults(c.getAutoCommit(), c.getTransactionIsolation(), c.isReadOnly(),
                catalog, schema, networkTimeout);
    }
}
