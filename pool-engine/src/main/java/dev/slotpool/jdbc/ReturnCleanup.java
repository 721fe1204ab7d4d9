package dev.slotpool.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.concurrent.Executor;

import static dev.slotpool.jdbc.SessionSettings.AUTO_COMMIT;
import static dev.slotpool.jdbc.SessionSettings.CATALOG;
import static dev.slotpool.jdbc.SessionSettings.CLIENT_INFO;
import static dev.slotpool.jdbc.SessionSettings.DRIVER_IN_HAND;
import static dev.slotpool.jdbc.SessionSettings.HOLDABILITY;
import static dev.slotpool.jdbc.SessionSettings.ISOLATION;
import static dev.slotpool.jdbc.SessionSettings.NETWORK_TIMEOUT;
import static dev.slotpool.jdbc.SessionSettings.READ_ONLY;
import static dev.slotpool.jdbc.SessionSettings.SCHEMA;
import static dev.slotpool.jdbc.SessionSettings.TYPE_MAP;
import static dev.slotpool.jdbc.SessionSettings.WARNINGS;

/**
 * The return's clean-up of a {@link ProxyConnection}, run by its {@code close()} before the lease is given back:
 * the statements the holder left open, the transaction it left unfinished, and the settings it changed (only
 * those, from the dirty bits {@link SessionSettings} keeps, so a clean return costs no round trip).
 *
 * <p>Static methods on the proxy's own fields, so a borrow allocates nothing more than its proxy.
 */
final class ReturnCleanup {

    /** What the return restores after the holder had the driver's objects: every setting it has a default for
     * (the isolation level only where the session is the holder's alone: behind a transaction pooler it is
     * never set for the session). */
    private static final int EVERY_SETTING = AUTO_COMMIT | ISOLATION | READ_ONLY | CATALOG | SCHEMA
            | NETWORK_TIMEOUT | HOLDABILITY | WARNINGS;

    /** For restoring the network timeout: drivers want an executor, but there is nothing to hand off at return. */
    private static final Executor INLINE = Runnable::run;

    private ReturnCleanup() {
    }

    static void closeOpenStatements(ProxyConnection p) {
        ArrayList<AbstractProxyStatement<?>> statements = p.openStatements;
        if (statements == null) {
            return;
        }
        // Not emptied here: detach() in close()'s finally swaps every statement, even if a driver throws midway.
        // A cached statement left open goes back to the cache as if its holder had closed it: release() makes it
        // as fresh as at a holder's close (and closes it when it cannot), and closing it would only make the
        // connection's next holder prepare it again.
        for (int i = 0; i < statements.size(); i++) {
            AbstractProxyStatement<?> statement = statements.get(i);
            CachedStatement cached = statement.cached();
            Statement physical = statement.detach();
            if (!p.evicted) {
                try {
                    if (cached != null) {
                        StatementMaking.release(p, cached);
                    } else {
                        physical.close();
                    }
                } catch (SQLException e) {
                    // The holder is gone and the statement with it; only a dead connection matters.
                    p.failed(e);
                }
            }
        }
    }

    /** Roll back unfinished work, then undo the holder's settings, auto-commit first, and end the JDBC 4.3
     * request. With the driver's objects in the holder's hands, whether a transaction is open is asked of the
     * driver, and every setting is restored. */
    static void restoreDefaults(ProxyConnection p) throws SQLException {
        Connection c = p.delegate;
        ConnectionLease lease = p.lease();
        if ((p.dirty & DRIVER_IN_HAND) != 0) {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
            p.dirty |= lease.sessionSharedPerTransaction() ? EVERY_SETTING & ~ISOLATION : EVERY_SETTING;
        } else if (p.transactionMaybeOpen) {
            c.rollback();
        }
        if (p.dirty != 0) {
            restoreChanged(p, c);
            if (!lease.defaults().autoCommit() && (p.dirty & ~(AUTO_COMMIT | WARNINGS)) != 0) {
                // With auto-commit off a setter may run its SQL inside a transaction it opens (pgjdbc's
                // setSchema): committed, so the setting sticks and the next holder finds no transaction open.
                c.commit();
            }
        }
        if (lease.defaults().requestBoundaries()) {
            c.endRequest();
        }
    }

    /** Puts back only what the holder changed: a clean return costs no call for it. */
    private static void restoreChanged(ProxyConnection p, Connection c) throws SQLException {
        ConnectionDefaults defaults = p.lease().defaults();
        int dirty = p.dirty;
        // After the rollback: switching auto-commit on would otherwise commit the holder's work.
        if ((dirty & AUTO_COMMIT) != 0) {
            c.setAutoCommit(defaults.autoCommit());
        }
        if ((dirty & ISOLATION) != 0) {
            c.setTransactionIsolation(defaults.transactionIsolation());
        }
        if ((dirty & READ_ONLY) != 0) {
            c.setReadOnly(defaults.readOnly());
        }
        // A null default means the driver has no catalog or schema: there is nothing to go back to.
        if ((dirty & CATALOG) != 0 && defaults.catalog() != null) {
            c.setCatalog(defaults.catalog());
        }
        if ((dirty & SCHEMA) != 0 && defaults.schema() != null) {
            c.setSchema(defaults.schema());
        }
        if ((dirty & NETWORK_TIMEOUT) != 0) {
            c.setNetworkTimeout(INLINE, defaults.networkTimeoutMillis());
        }
        if ((dirty & HOLDABILITY) != 0 && defaults.holdability() != 0) {
            c.setHoldability(defaults.holdability());
        }
        if ((dirty & TYPE_MAP) != 0 && p.typeMapBefore != null) {
            c.setTypeMap(p.typeMapBefore);
        }
        if ((dirty & CLIENT_INFO) != 0 && p.clientInfoBefore != null) {
            c.setClientInfo(p.clientInfoBefore); // replaces the whole set: names the holder added are cleared
        }
        if ((dirty & WARNINGS) != 0) {
            c.clearWarnings();
        }
    }
}
