package dev.slotpool.testsupport;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;

/** The stub's standard exceptions, so every class reports the same condition with the same SQLState. */
final class StubErrors {

    private StubErrors() {
    }

    /** Any call on a closed or aborted connection. */
    static SQLException connectionClosed() {
        return new SQLException("connection is closed", "08003");
    }

    /** Any call on a killed or broken connection: the SQLState pools treat as fatal. */
    static SQLException connectionReset() {
        return new SQLException("connection reset", "08006");
    }

    /** A call the stub cannot meaningfully answer. */
    static SQLFeatureNotSupportedException unsupported() {
        return new SQLFeatureNotSupportedException("not supported by the stub driver");
    }

    /** A value outside what JDBC allows, e.g. a negative timeout. */
    static SQLException invalidArgument(String message) {
        return new SQLException(message, "22023");
    }

    /**
     * A wait cut short by {@link Thread#interrupt()}; restores the interrupt flag so the caller still sees it.
     */
    static SQLException interrupted(String message, String sqlState, InterruptedException cause) {
        Thread.currentThread().interrupt();
        return new SQLException(message, sqlState, cause);
    }
}
