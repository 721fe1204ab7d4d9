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
 * @param holdability          the result set holdability, or 0 where the driver does not say
 * @param requestBoundaries    whether the driver takes {@code beginRequest}/{@code endRequest} (JDBC 4.3), called
 *                             around each borrow so drivers that reset session state on them (Oracle, SQL Server)
 *                             do
 */
public record ConnectionDefaults(boolean autoCommit, int transactionIsolation, boolean readOnly,
                                 String catalog, String schema, int networkTimeoutMillis, int holdability,
                                 boolean requestBoundaries) {

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
        int holdability;
        try {
            holdability = c.getHoldability();
        } catch (SQLException | AbstractMethodError | UnsupportedOperationException e) {
            holdability = 0;
        }
        boolean boundaries;
        try {
            c.beginRequest();
            c.endRequest();
            boundaries = true;
        } catch (SQLException | AbstractMethodError | UnsupportedOperationException e) {
            boundaries = false; // an old driver: never asked again, so no borrow pays for the exception
        }
        return new ConnectionDefaults(c.getAutoCommit(), c.getTransactionIsolation(), c.isReadOnly(),
                catalog, schema, networkTimeout, holdability, boundaries);
    }
}
