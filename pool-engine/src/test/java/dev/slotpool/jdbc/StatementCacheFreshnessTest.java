package dev.slotpool.jdbc;

import dev.slotpool.SlotPoolDataSource;
import org.h2.jdbc.JdbcPreparedStatement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A statement from the cache behaves like a fresh one, against a real driver (H2); a statement whose holder did
 * something that cannot be undone is not reused.
 */
class StatementCacheFreshnessTest {

    private SlotPoolDataSource ds;

    @BeforeEach
    void start() throws SQLException {
        ds = SlotPoolDataSource.builder().name("fresh").url("jdbc:h2:mem:statement-cache;DB_CLOSE_DELAY=-1")
                .minSize(1).maxSize(1).statementCacheSize(8).borrowTimeout(Duration.ofSeconds(10)).build();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("create table if not exists item(id int primary key)");
            s.execute("delete from item");
            s.execute("insert into item values (1), (2), (3)");
        }
    }

    @AfterEach
    void stop() {
        ds.close();
    }

    private static PreparedStatement driver(PreparedStatement proxy) {
        return ((AbstractProxyStatement<?>) proxy).cached().statement;
    }

    @Test
    void aReusedStatementHasNoParametersSettingsOrOpenResultsOfItsLastHolder() throws SQLException {
        String sql = "select id from item where id >= ? order by id";
        PreparedStatement first;
        ResultSet leftOpen;
        try (Connection c = ds.getConnection()) {
            PreparedStatement ps = c.prepareStatement(sql);
            first = driver(ps);
            ps.setInt(1, 2);
            ps.setMaxRows(2);
            ps.setQueryTimeout(7);
            ps.setFetchSize(1);
            leftOpen = ps.executeQuery();
            assertThat(leftOpen.next()).isTrue();
            ps.close();
            assertThat(first.isClosed()).as("kept in the cache, not closed").isFalse();
        }
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            assertThat(driver(ps)).as("the cached statement").isSameAs(first);
            assertThat(ps.getMaxRows()).isZero();
            assertThat(ps.getQueryTimeout()).isZero();
            assertThat(ps.getFetchSize()).isEqualTo(first.getFetchSize());
            assertThat(leftOpen.isClosed()).as("the last holder's result set").isTrue();
            assertThatThrownBy(ps::executeQuery).as("parameters cleared").isInstanceOf(SQLException.class);
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
                int rows = 0;
                while (rs.next()) {
                    rows++;
                }
                assertThat(rows).as("max rows restored").isEqualTo(3);
            }
        }
    }

    @Test
    void aStatementLeftOpenAtReturnGoesBackToTheCacheClean() throws SQLException {
        PreparedStatement first;
        try (Connection c = ds.getConnection()) {
            PreparedStatement ps = c.prepareStatement("select id from item where id = ?");
            ps.setInt(1, 1);
            ps.setMaxRows(1);
            first = driver(ps);
        }
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("select id from item where id = ?")) {
            assertThat(driver(ps)).isSameAs(first);
            assertThat(ps.getMaxRows()).isZero();
        }
    }

    @Test
    void whatCannotBeUndoneKeepsAStatementOutOfTheCache() throws SQLException {
        try (Connection c = ds.getConnection()) {
            PreparedStatement named = c.prepareStatement("select id from item");
            named.setCursorName("c1");
            PreparedStatement unwrapped = c.prepareStatement("select id from item where id = 1");
            unwrapped.unwrap(JdbcPreparedStatement.class);
            PreparedStatement notPoolable = c.prepareStatement("select id from item where id = 2");
            notPoolable.setPoolable(false);
            PreparedStatement closing = c.prepareStatement("select id from item where id = 3");
            closing.closeOnCompletion();
            for (PreparedStatement ps : new PreparedStatement[] {named, unwrapped, notPoolable, closing}) {
                PreparedStatement d = driver(ps);
                ps.close();
                assertThat(d.isClosed()).as("closed, not cached").isTrue();
            }
        }
    }

    @Test
    void callsAndEveryPrepareVariantAreCachedUnderTheirOwnKey() throws SQLException {
        try (Connection c = ds.getConnection()) {
            PreparedStatement[] first = everyVariant(c);
            PreparedStatement[] drivers = new PreparedStatement[first.length];
            for (int i = 0; i < first.length; i++) {
                drivers[i] = driver(first[i]);
                first[i].close();
            }
            PreparedStatement[] again = everyVariant(c);
            for (int i = 0; i < again.length; i++) {
                // The cache holds 8: the ninth came back to a full cache of recent entries and was closed.
                if (i < 8) {
                    assertThat(driver(again[i])).as("variant %d", i).isSameAs(drivers[i]);
                } else {
                    assertThat(driver(again[i])).as("variant %d (did not fit)", i).isNotSameAs(drivers[i]);
                }
            }
            assertThat(again[6]).isInstanceOf(CallableStatement.class);
        }
        assertThat(ds.snapshot().origins().get(0).statementCacheHits()).isEqualTo(8);
    }

    /** The same query through every prepareStatement and prepareCall variant: nine cache keys. */
    private static PreparedStatement[] everyVariant(Connection c) throws SQLException {
        String sql = "select id from item";
        int type = ResultSet.TYPE_FORWARD_ONLY;
        int concurrency = ResultSet.CONCUR_READ_ONLY;
        return new PreparedStatement[] {
                c.prepareStatement(sql),
                c.prepareStatement(sql, type, concurrency),
                c.prepareStatement(sql, type, concurrency, ResultSet.CLOSE_CURSORS_AT_COMMIT),
                c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS),
                c.prepareStatement(sql, new int[] {1}),
                c.prepareStatement(sql, new String[] {"ID"}),
                c.prepareCall(sql),
                c.prepareCall(sql, type, concurrency),
                c.prepareCall(sql, type, concurrency, ResultSet.CLOSE_CURSORS_AT_COMMIT)};
    }
}
