package dev.slotpool.e2e;

import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.Pooler;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.PgBouncerServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import static dev.slotpool.e2e.E2e.pgBouncer;
import static dev.slotpool.e2e.E2e.admin;
import static dev.slotpool.e2e.E2e.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pooler that refuses work is the origin refusing work, not broken sessions (docs/poolers.md, "Pooler signals"):
 * PgBouncer's {@code query_wait_timeout} (a transaction waited longer than that for a server session, here while the
 * database is PAUSEd) closes the client connection with SQLState 08P01. The pool evicts that connection, but the
 * origin stays UP, shown as refusing new sessions, and serves again after RESUME.
 */
class PgBouncerRefusalTest {

    private static EmbeddedPostgres server;

    @BeforeAll
    static void start() throws IOException, SQLException {
        PgBouncerServer.binary();
        server = EmbeddedPostgres.builder().start();
        try (Connection c = DriverManager.getConnection(server.getJdbcUrl("postgres", "postgres"))) {
            FleetLoad.createSchema(c);
        }
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void queryWaitTimeoutsDoNotMarkTheOriginDown() throws Exception {
        E2e.RecordingListener events = new E2e.RecordingListener();
        try (PgBouncerServer bouncer = pgBouncer("refusal", server.getPort(), Map.of("default_pool_size", "2",
                "query_wait_timeout", "1")).start();
             SlotPoolDataSource ds = SlotPoolDataSource.builder().name("refusal").url(bouncer.url("postgres"))
                     .pooler(Pooler.TRANSACTION).minSize(3).maxSize(3).downAfterFailures(3).listener(events)
                     .build()) {
            FleetLoad load = new FleetLoad(List.of(ds), 3).start();
            await("transactions committed", load::committed, n -> n > 50);
            admin(bouncer, "PAUSE postgres");
            await("transactions refused with query_wait_timeout", load::failed, n -> n >= 3);
            admin(bouncer, "RESUME postgres");
            long atResume = load.committed();
            await("transactions after RESUME", load::committed, n -> n > atResume + 50);
            load.stopAndJoin();
            System.out.println(load.summary("query_wait_timeout=1 during a PAUSE"));
            assertThat(load.failures().keySet()).isNotEmpty()
                    .allSatisfy(m -> assertThat(m).contains("query_wait_timeout"));
            List<String> down = events.events.stream().filter(e -> e.type() == PoolEvent.Type.ORIGIN_STATE
                    && e.detail().contains("-> DOWN")).map(PoolEvent::detail).toList();
            assertThat(down).as("origin marked DOWN for a pooler's refusal").isEmpty();
            assertThat(ds.snapshot().origins().get(0).state()).isEqualTo(OriginState.UP);
        }
    }
}
