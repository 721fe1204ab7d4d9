package dev.slotpool.testsupport;

import java.sql.CallableStatement;

/**
 * A callable statement, so pools can prepare, execute, cache and close calls; it behaves as a
 * {@link StubPreparedStatement} and rejects the procedure-only methods (see
 * {@link CallableStatementUnsupported}).
 */
public final class StubCallableStatement extends StubPreparedStatement
        implements CallableStatement, CallableStatementUnsupported {

    StubCallableStatement(StubConnection connection, int holdability, String sql) {
        super(connection, holdability, sql);
    }
}
