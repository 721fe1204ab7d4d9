package dev.slotpool.jdbc;

import java.sql.PreparedStatement;

/**
 * The proxy of a {@link PreparedStatement}: {@link AbstractProxyStatement} plus the parameter setters and the
 * parameterless executions, which delegate alike ({@link PreparedStatementDelegation}, generated: setters
 * through {@code binding}, executions through {@code running}). Generic so that {@link ProxyCallableStatement}
 * inherits these methods on its callable delegate.
 *
 * <p>Not thread-safe, on purpose: used by the holder's thread only.
 *
 * @param <S> the driver's statement type
 */
class ProxyPreparedStatement<S extends PreparedStatement> extends PreparedStatementDelegation<S> {

    ProxyPreparedStatement(ProxyConnection connection, S delegate) {
        super(connection, delegate, null);
    }

    /** A proxy of a statement from the connection's cache; {@code cached} is its entry there. */
    ProxyPreparedStatement(ProxyConnection connection, S delegate, CachedStatement cached) {
        super(connection, delegate, cached);
    }
}
