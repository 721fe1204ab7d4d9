package dev.slotpool.pool;

import dev.slotpool.SqlExceptionOverride;
import dev.slotpool.SqlExceptionOverride.Decision;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The exception override decides before the built-in rules whether an error on a lent connection evicts it:
 * 40001 is kept by the built-in rules, 57P01 (PostgreSQL admin shutdown) evicted.
 */
class ExceptionOverrideTest {

    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void anOverrideCanEvictOnAnErrorTheBuiltInRulesKeep() throws Exception {
        StubDatabase db = StubDatabase.reset("override-evict");
        SqlExceptionOverride override = e -> "40001".equals(e.getSQLState()) ? Decision.EVICT
                : Decision.CONTINUE_WITH_BUILT_IN_RULES;
        assertThat(keptAfterOneError(db, "40001", override)).as("evicted: another connection").isFalse();
        assertThat(keptAfterOneError(StubDatabase.reset("override-evict-none"), "40001", null))
                .as("without the override the connection is kept").isTrue();
    }

    @Test
    void anOverrideCanKeepAConnectionTheBuiltInRulesEvict() throws Exception {
        SqlExceptionOverride keep = e -> "57P01".equals(e.getSQLState()) ? Decision.DO_NOT_EVICT
                : Decision.CONTINUE_WITH_BUILT_IN_RULES;
        assertThat(keptAfterOneError(StubDatabase.reset("override-keep"), "57P01", keep))
                .as("kept: the same connection").isTrue();
        assertThat(keptAfterOneError(StubDatabase.reset("override-keep-none"), "57P01", null))
                .as("without the override it is evicted").isFalse();
    }

    @Test
    void continueAndAThrowingOverrideLeaveItToTheBuiltInRules() throws Exception {
        assertThat(keptAfterOneError(StubDatabase.reset("override-continue"), "57P01",
                e -> Decision.CONTINUE_WITH_BUILT_IN_RULES)).isFalse();
        assertThat(keptAfterOneError(StubDatabase.reset("override-throws"), "57P01", e -> {
            throw new IllegalStateException("broken override");
        })).isFalse();
        assertThat(keptAfterOneError(StubDatabase.reset("override-throws-keep"), "40001", e -> {
            throw new IllegalStateException("broken override");
        })).isTrue();
    }

    /**
     * One statement fails with {@code sqlState} on a one-connection pool; whether the next borrow gets the same
     * physical connection: what eviction means. It does not count the driver's opens, which a full build at load 12
     * once saw at 3 for one eviction (not explained; the model check's S2 bounds open connections, not opens).
     */
    private boolean keptAfterOneError(StubDatabase db, String sqlState, SqlExceptionOverride override)
            throws Exception {
        if (pool != null) {
            pool.close();
        }
        var builder = Pools.stub(db).minSize(1).maxSize(1).downAfterFailures(0);
        if (override != null) {
            builder.exceptionOverride(override);
        }
        pool = new ConnectionPool(builder.config());
        db.failNextQueries(1, sqlState);
        StubConnection first;
        try (Connection c = pool.borrow(); Statement st = c.createStatement()) {
            first = c.unwrap(StubConnection.class);
            assertThatThrownBy(() -> st.execute("SELECT 1")).isInstanceOf(SQLException.class);
        }
        try (Connection c = pool.borrow()) {
            assertThat(c.isValid(1)).isTrue();
            return c.unwrap(StubConnection.class) == first;
        }
    }
}
