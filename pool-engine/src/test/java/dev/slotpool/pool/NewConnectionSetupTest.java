package dev.slotpool.pool;

import dev.slotpool.PoolEvent;
import dev.slotpool.origins.Origin;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a HikariCP user configures per connection: auto-commit, isolation, read-only, catalog and schema are set on
 * each new connection and restored at return when the holder changed them; the init SQL runs once per new
 * connection, and its failure counts as a failed connect.
 */
class NewConnectionSetupTest {

    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void configuredSessionStateIsSetOnNewConnectionsAndRestoredAtReturn() throws Exception {
        StubDatabase db = StubDatabase.reset("setup-session");
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).autoCommit(false)
                .transactionIsolation("read-committed").transactionIsolation("TRANSACTION_SERIALIZABLE")
                .readOnly(true).catalog("sales").schema("app").config());

        try (Connection c = pool.borrow()) {
            assertThat(c.getAutoCommit()).isFalse();
            assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
            assertThat(c.isReadOnly()).isTrue();
            assertThat(c.getCatalog()).isEqualTo("sales");
            assertThat(c.getSchema()).isEqualTo("app");
            c.setAutoCommit(true);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
            c.setReadOnly(false);
            c.setCatalog("other");
            c.setSchema("PUBLIC");
        }
        try (Connection c = pool.borrow()) {
            assertThat(c.getAutoCommit()).as("auto-commit restored").isFalse();
            assertThat(c.getTransactionIsolation()).as("isolation restored")
                    .isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
            assertThat(c.isReadOnly()).as("read-only restored").isTrue();
            assertThat(c.getCatalog()).as("catalog restored").isEqualTo("sales");
            assertThat(c.getSchema()).as("schema restored").isEqualTo("app");
        }
        assertThat(db.opened()).as("the same connection both times").isEqualTo(1);
    }

    @Test
    void unsetSettingsKeepTheDriversDefaults() throws Exception {
        StubDatabase db = StubDatabase.reset("setup-defaults");
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).config());

        try (Connection c = pool.borrow()) {
            assertThat(c.getAutoCommit()).isTrue();
            assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
            assertThat(c.getSchema()).isEqualTo("PUBLIC");
            assertThat(c.getCatalog()).isEqualTo("setup-defaults");
        }
    }

    @Test
    void initSqlRunsOncePerNewConnection() throws Exception {
        StubDatabase db = StubDatabase.reset("setup-init-sql");
        pool = new ConnectionPool(Pools.stub(db).minSize(2).maxSize(2)
                .connectionInitSql("ALTER SESSION SET CURRENT_SCHEMA = app").config());
        Pools.await(pool, s -> s.available() == 2, "two connections");

        for (int i = 0; i < 5; i++) {
            try (Connection c = pool.borrow()) {
                assertThat(c.isValid(1)).isTrue();
            }
        }
        assertThat(db.queries()).as("one init SQL per connection, none per borrow").isEqualTo(2);
    }

    @Test
    void aFailedInitSqlClosesTheConnectionAndCountsAsAFailedConnect() throws Exception {
        StubDatabase db = StubDatabase.reset("setup-init-fails");
        db.failNextQueries(1, "42501");
        RecordedEvents events = new RecordedEvents();
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).downAfterFailures(0)
                .connectionInitSql("SET ROLE reporting").listener(events).config());

        try (Connection c = pool.borrow()) {
            assertThat(c.isValid(1)).isTrue();
        }
        assertThat(db.opened()).as("the failed connection and its replacement").isEqualTo(2);
        assertThat(db.live()).as("the failed one was closed").isEqualTo(1);
        assertThat(events.events).filteredOn(e -> e.type() == PoolEvent.Type.CREATION_FAILED).singleElement()
                .satisfies(e -> assertThat(e.detail()).contains("connectionInitSql failed")
                        .doesNotContain("s3cret-pw"));
        Origin o = pool.origins.configured()[0];
        assertThat(o.health.connectFailures()).as("the run ended with the replacement").isZero();
    }

    @Test
    void aFailedInitSqlCountsTowardDetectionLikeAFailedConnect() throws Exception {
        StubDatabase db = StubDatabase.reset("setup-init-down");
        db.failNextQueries(Integer.MAX_VALUE, "42501");
        RecordedEvents events = new RecordedEvents();
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).downAfterFailures(2)
                .creationBackoffMax(Duration.ofMillis(50)).connectionInitSql("SET ROLE reporting")
                .listener(events).config());

        Pools.await(pool, s -> events.events.stream().anyMatch(e -> e.type() == PoolEvent.Type.ORIGIN_STATE
                && e.detail().contains("DOWN")), "the origin DOWN after two failed init SQLs");
        assertThat(pool.origins.configured()[0].state()).as("probes run the init SQL too, so it stays DOWN")
                .isEqualTo(dev.slotpool.OriginState.DOWN);
        Pools.await(pool, s -> db.live() == 0, "every connection whose init SQL failed closed");
    }
}
