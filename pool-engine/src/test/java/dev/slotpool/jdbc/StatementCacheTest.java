package dev.slotpool.jdbc;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static dev.slotpool.jdbc.CachedStatement.NONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cache on its own: keys, the bound, the age rule, and closing. */
class StatementCacheTest {

    private Connection connection;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection(StubDatabase.reset("statement-cache-unit").url());
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private CachedStatement prepared(String sql) throws SQLException {
        CachedStatement s = new CachedStatement(false, sql, NONE, NONE, NONE, NONE, null, null);
        s.prepare(connection);
        return s;
    }

    private static CachedStatement take(StatementCache cache, String sql) {
        return cache.take(false, sql, NONE, NONE, NONE, NONE, null, null);
    }

    @Test
    void aFullCacheReplacesOnlyAnEntryUnusedForMoreThanFourTimesCapacityPuts() throws SQLException {
        StatementCache cache = new StatementCache(3); // an entry may be replaced once unused for more than 12 puts
        CachedStatement a = prepared("a");
        assertThat(cache.put(a)).isNull(); // put 1
        assertThat(cache.put(prepared("b"))).isNull(); // put 2
        assertThat(cache.put(prepared("c"))).isNull(); // put 3: full
        for (int put = 4; put <= 12; put++) {
            assertThat(cache.put(take(cache, "b"))).as("put %d", put).isNull(); // back to its own place
        }

        CachedStatement early = prepared("early");
        assertThat(cache.put(early)).as("put 13: 'a' unused for 12 puts, not more").isSameAs(early.statement);
        assertThat(cache.evictions()).isZero();
        assertThat(take(cache, "early")).isNull();

        CachedStatement late = prepared("late");
        assertThat(cache.put(late)).as("put 14: 'a' unused for 13 puts is replaced").isSameAs(a.statement);
        assertThat(cache.evictions()).isEqualTo(1);
        assertThat(cache.idle()).isEqualTo(3);
        assertThat(take(cache, "a")).isNull();
        assertThat(take(cache, "late")).isSameAs(late);
        assertThat(take(cache, "c")).isNotNull();
    }

    @Test
    void aFullCacheOfRecentlyUsedStatementsClosesTheNewcomer() throws SQLException {
        StatementCache cache = new StatementCache(2);
        cache.put(prepared("x"));
        cache.put(prepared("y"));
        for (int i = 0; i < 50; i++) {
            // Both stay in use: each put brings one back, so neither is ever older than 2 puts.
            String sql = i % 2 == 0 ? "x" : "y";
            assertThat(cache.put(take(cache, sql))).isNull();
            CachedStatement newcomer = prepared("z" + i);
            assertThat(cache.put(newcomer)).isSameAs(newcomer.statement);
        }
        assertThat(cache.idle()).isEqualTo(2);
        assertThat(cache.evictions()).isZero();
    }

    @Test
    void hitsNeedEveryArgumentToMatchAndTakeTheStatementOut() throws SQLException {
        StatementCache cache = new StatementCache(8);
        CachedStatement plain = prepared("q");
        CachedStatement keys = new CachedStatement(false, "q", NONE, NONE, NONE, Statement.RETURN_GENERATED_KEYS,
                null, null);
        keys.prepare(connection);
        CachedStatement columns = new CachedStatement(false, "q", NONE, NONE, NONE, NONE, new int[] {1, 2}, null);
        columns.prepare(connection);
        CachedStatement call = new CachedStatement(true, "q", ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY, NONE, NONE, null, null);
        call.prepare(connection);
        for (CachedStatement s : List.of(plain, keys, columns, call)) {
            assertThat(cache.put(s)).isNull();
        }

        assertThat(cache.take(false, "q", NONE, NONE, NONE, NONE, new int[] {1, 2}, null)).isSameAs(columns);
        assertThat(cache.take(false, "q", NONE, NONE, NONE, NONE, new int[] {1, 2}, null)).isNull();
        assertThat(cache.take(false, "q", NONE, NONE, NONE, NONE, null, new String[] {"id"})).isNull();
        assertThat(cache.take(false, "q", ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, NONE,
                NONE, null, null)).as("the prepared kind has none with these arguments").isNull();
        assertThat(cache.take(true, "q", ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, NONE,
                NONE, null, null)).isSameAs(call);
        assertThat(cache.take(false, "q", NONE, NONE, NONE, Statement.RETURN_GENERATED_KEYS, null, null))
                .isSameAs(keys);
        assertThat(take(cache, "q")).isSameAs(plain);
        assertThat(take(cache, "q")).isNull();
        assertThat(cache.hits()).isEqualTo(4);
        assertThat(cache.misses()).isEqualTo(4);
        assertThat(cache.idle()).isZero();
    }

    @Test
    void twoIdleStatementsOfOneKeyAreBothKeptAndHandedOutOnce() throws SQLException {
        StatementCache cache = new StatementCache(4);
        CachedStatement first = prepared("same");
        CachedStatement second = prepared("same");
        cache.put(first);
        cache.put(second);
        CachedStatement one = take(cache, "same");
        CachedStatement other = take(cache, "same");
        assertThat(List.of(one, other)).containsExactlyInAnyOrder(first, second);
        assertThat(take(cache, "same")).isNull();
    }

    @Test
    void removalKeepsEveryCollidingEntryReachable() throws SQLException {
        // Many keys in a small table: runs of collisions, removed from the middle, must stay findable.
        StatementCache cache = new StatementCache(64);
        List<CachedStatement> all = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            CachedStatement s = prepared("select " + i);
            all.add(s);
            cache.put(s);
        }
        for (int i = 0; i < 64; i += 3) {
            assertThat(take(cache, "select " + i)).isSameAs(all.get(i));
        }
        for (int i = 0; i < 64; i++) {
            CachedStatement found = take(cache, "select " + i);
            assertThat(found).as("select %d", i).isSameAs(i % 3 == 0 ? null : all.get(i));
        }
        assertThat(cache.idle()).isZero();
    }

    /**
     * The statement that came back last is kept out of the tables: taken again by the same SQL string or an equal
     * one, and moved into its table when another comes back, where it is found as any other.
     */
    @Test
    void theStatementThatCameBackLastIsHandedOutFirstAndJoinsItsTableWhenAnotherComesBack() throws SQLException {
        StatementCache cache = new StatementCache(4);
        CachedStatement a = prepared("a");
        CachedStatement call = new CachedStatement(true, "a", NONE, NONE, NONE, NONE, null, null);
        call.prepare(connection);
        assertThat(cache.put(a)).isNull();
        for (int i = 0; i < 3; i++) {
            assertThat(take(cache, a.sql)).as("by the same string").isSameAs(a);
            assertThat(cache.put(a)).isNull();
            assertThat(take(cache, new String("a"))).as("by an equal one").isSameAs(a);
            assertThat(cache.put(a)).isNull();
        }
        assertThat(cache.take(true, a.sql, NONE, NONE, NONE, NONE, null, null)).as("another kind").isNull();
        assertThat(cache.put(call)).isNull();
        assertThat(cache.idle()).isEqualTo(2);
        assertThat(take(cache, a.sql)).as("now in its table").isSameAs(a);
        assertThat(cache.take(true, new String("a"), NONE, NONE, NONE, NONE, null, null)).isSameAs(call);
        assertThat(cache.idle()).isZero();
        assertThat(cache.hits()).isEqualTo(8);
        assertThat(cache.misses()).isEqualTo(1);
    }

    /**
     * An eviction removes its victim from the slot it records, also after another removal moved the victim back in
     * its collision run.
     */
    @Test
    void anEvictionRemovesItsVictimFromItsSlotAfterARemovalMovedIt() throws SQLException {
        StatementCache cache = new StatementCache(4); // a victim must be unused for more than 16 puts
        CachedStatement first = prepared("same"); // one key: three slots in a row from the same home slot
        CachedStatement second = prepared("same");
        CachedStatement third = prepared("same");
        CachedStatement hot = prepared("hot");
        for (CachedStatement s : List.of(first, second, third, hot)) {
            assertThat(cache.put(s)).isNull();
        }
        assertThat(take(cache, "same")).as("the home slot's: the other two move back").isSameAs(first);
        for (int i = 0; i < 20; i++) {
            assertThat(cache.put(take(cache, "hot"))).isNull();
        }
        assertThat(cache.put(prepared("fourth"))).as("room for one more").isNull();
        assertThat(cache.put(prepared("fifth"))).as("the least recently used goes").isSameAs(second.statement);

        assertThat(take(cache, "same")).isSameAs(third);
        assertThat(take(cache, "same")).as("the victim left no copy behind").isNull();
        assertThat(cache.evictions()).isEqualTo(1);
    }

    @Test
    void aClosedCacheHandsNothingOutAndKeepsNothing() throws SQLException {
        StatementCache cache = new StatementCache(4);
        cache.put(prepared("kept"));
        new StatementCacheTotals().retire(cache);
        assertThat(take(cache, "kept")).isNull();
        CachedStatement late = prepared("late");
        assertThat(cache.put(late)).isSameAs(late.statement);
        assertThat(cache.idle()).isZero();
    }

    /**
     * A put into a full cache finds its victim without a scan: the slots read to find and remove the least
     * recently used statement stay a handful per put, whatever the capacity (they were both tables' whole arrays,
     * 4 × capacity, on every put once full). The victims come in the order they were last put, kinds mixed.
     */
    @Test
    void aPutIntoAFullCacheReadsAHandfulOfSlotsNotTheWholeTables() throws SQLException {
        int capacity = 1_000;
        StatementCache cache = new StatementCache(capacity);
        List<CachedStatement> first = new ArrayList<>();
        for (int i = 0; i < capacity; i++) {
            CachedStatement s = i % 2 == 0 ? prepared("old " + i)
                    : new CachedStatement(true, "old " + i, NONE, NONE, NONE, NONE, null, null);
            if (s.callable) {
                s.prepare(connection);
            }
            first.add(s);
            assertThat(cache.put(s)).isNull();
        }
        CachedStatement hot = first.get(capacity - 1);
        for (int i = 0; i < StatementCache.AGE_FACTOR * capacity; i++) { // every other statement grows old
            assertThat(cache.put(cache.take(true, hot.sql, NONE, NONE, NONE, NONE, null, null))).isNull();
        }
        long readsBefore = cache.evictionReads();
        int puts = 500;
        for (int i = 0; i < puts; i++) {
            CachedStatement newcomer = prepared("new " + i);
            assertThat(cache.put(newcomer)).as("put %d replaces the least recently used", i)
                    .isSameAs(first.get(i).statement);
        }
        long reads = cache.evictionReads() - readsBefore;
        assertThat(cache.evictions()).isEqualTo(puts);
        assertThat(reads).as("slots read by %d replacing puts", puts).isLessThanOrEqualTo(8L * puts);
    }

    @Test
    void capacityMustBePositive() {
        assertThatThrownBy(() -> new StatementCache(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
