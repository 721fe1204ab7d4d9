package dev.slotpool.jdbc;

import java.sql.CallableStatement;

/**
 * The proxy of a {@link CallableStatement}: the prepared statement's proxy plus the out parameters, which
 * delegate alike ({@link CallableStatementDelegation}, generated: {@code live}, no activity recorded).
 *
 * <p>Not thread-safe, on purpose: used by the holder's thread only.
 */
final class ProxyCallableStatement extends CallableStatementDelegation {

    ProxyCallableStatement(ProxyConnection connection, CallableStatement delegate) {
        super(connection, delegate, null);
    }

    /** A proxy of a statement from the connection's cache; {@code cached} is its entry there. */
    ProxyCallableStatement(ProxyConnection connection, CallableStatement delegate, CachedStatement cached) {
        super(connection, delegate, cached);
    }
}
