package dev.slotpool.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLSyntaxErrorException;

import static org.assertj.core.api.Assertions.assertThat;

class SqlErrorsTest {

    @ParameterizedTest(name = "state {0}, code {1} -> fatal {2}")
    @CsvSource(nullValues = "null", value = {
            "08000, 0, true",      // class 08, any subclass
            "08001, 0, true",
            "08003, 0, true",
            "08006, 0, true",
            "08S01, 0, true",      // MySQL communications link failure
            "57P01, 0, true",
            "57P02, 0, true",
            "57P03, 0, true",
            "JZ0C0, 0, true",
            "JZ0C1, 0, true",
            "null, 28, true",
            "null, 3113, true",
            "null, 3114, true",
            "null, 1033, true",
            "null, 1034, true",
            "null, 1089, true",
            "null, 1090, true",
            "null, 17002, true",
            "null, 17008, true",
            "null, 17410, true",
            "null, 17447, true",
            "90067, 90067, true",
            "90098, 90098, true",
            "0A000, 0, false",     // feature not supported: the call's fault, not the connection's
            "42000, 0, false",
            "42S02, 42102, false", // H2 table not found
            "23505, 0, false",
            "40001, 0, false",     // serialization failure: retry the transaction, keep the connection
            "57014, 0, false",     // PostgreSQL query_canceled
            "HY000, 1, false",
            "null, 0, false",
            "'', 0, false",
            "0, 0, false",
    })
    void classifiesByStateAndVendorCode(String state, int code, boolean fatal) {
        assertThat(SqlErrors.isFatal(new SQLException("x", state, code))).isEqualTo(fatal);
    }

    @Test
    void connectionExceptionSubclassesAreFatalWhateverTheirState() {
        assertThat(SqlErrors.isFatal(new SQLRecoverableException("x", "HY000"))).isTrue();
        assertThat(SqlErrors.isFatal(new SQLNonTransientConnectionException("x"))).isTrue();
        assertThat(SqlErrors.isFatal(new SQLSyntaxErrorException("x", "42000"))).isFalse();
    }

    @Test
    void findsAFatalErrorInTheNextExceptionChain() {
        SQLException batch = new SQLException("batch failed", "HY000");
        batch.setNextException(new SQLException("syntax", "42000"));
        batch.setNextException(new SQLException("gone", "08006"));

        assertThat(SqlErrors.isFatal(batch)).isTrue();
    }

    @Test
    void findsAFatalErrorAmongTheCauses() {
        SQLException wrapped = new SQLException("wrapper", "HY000",
                new RuntimeException(new IOException(new SQLException("broken", null, 17002))));

        assertThat(SqlErrors.isFatal(wrapped)).isTrue();
    }

    @Test
    void findsAFatalErrorInTheCauseOfANextException() {
        SQLException next = new SQLException("next", "HY000", new SQLRecoverableException("io"));
        SQLException first = new SQLException("first", "42000");
        first.setNextException(next);

        assertThat(SqlErrors.isFatal(first)).isTrue();
    }

    @Test
    @Timeout(5)
    void cyclicChainsEndWithoutAVerdictOfFatal() {
        SQLException a = new SQLException("a", "42000");
        SQLException b = new SQLException("b", "23505");
        a.initCause(b);
        b.initCause(a);
        a.setNextException(b);
        b.setNextException(a);

        assertThat(SqlErrors.isFatal(a)).isFalse();
    }

    @ParameterizedTest
    @CsvSource({
            "28000, 0, true",      // invalid authorization specification
            "28P01, 0, true",      // PostgreSQL: password authentication failed
            "72000, 1017, true",   // ORA-01017: invalid username/password
            "99999, 28000, true",  // ORA-28000: account locked
            "99999, 28001, true",  // ORA-28001: password expired
            "08001, 0, false",     // cannot connect: the network, not the login
            "99999, 28, false",    // ORA-00028: session killed
            "42501, 0, false"})    // insufficient privilege on a statement
    void refusedLogins(String state, int code, boolean refused) {
        assertThat(SqlErrors.isAuthenticationFailure(new SQLException("x", state, code))).isEqualTo(refused);
    }

    @Test
    void aRefusedLoginWrappedInAnotherErrorIsFound() {
        SQLException wrapped = new SQLException("could not connect", "08001",
                new SQLException("password authentication failed", "28P01"));
        assertThat(SqlErrors.isAuthenticationFailure(wrapped)).isTrue();
    }
}
