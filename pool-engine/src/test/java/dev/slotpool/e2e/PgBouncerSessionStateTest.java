package dev.slotpool.e2e;

import dev.slotpool.ConfigViolation;
import dev.slotpool.InvalidPoolConfigException;
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
import java.sql.Statement;
import java.util.Map;

import static dev.slotpool.e2e.E2e.pgBouncer;
import static dev.slotpool.e2e.E2e.queryString;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Session state behind a transaction pooler (docs/poolers.md, "The setting"): PgBouncer with one server session,
 * so every client's transactions run on the same one and any state set with plain {@code SET} reaches the others.
 */
class PgBouncerSessionStateTest {

    private static final int ROUNDS = 50;

    private static EmbeddedPostgres server;
    private static PgBouncerServer bouncer;

    @BeforeAll
    static void start() throws IOException, SQLException {
        PgBouncerServer.binary();
        server = EmbeddedPostgres.builder().start();
        try (Connection c = DriverManager.getConnection(server.getJdbcUrl("postgres", "postgres"));
             Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA other");
        }
        bouncer = pgBouncer("state", server.getPort(), Map.of("default_pool_size", "1")).start();
    }

    @AfterAll
    static void stop() throws IOException {
        if (bouncer != null) {
            bouncer.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** Another client of the same PgBouncer: pgjdbc made safe by hand, no session settings of its own. */
    private static Connection otherClient() throws SQLException {
        return DriverManager.getConnection(bouncer.url("postgres") + "&prepareThreshold=0");
    }

    /**
     * Why {@code schema} is refused behind a transaction pooler: without the setting the pool sets it once per
     * connection with SET, and another client's transactions then run in that schema.
     */
    @Test
    void aSchemaSetOncePerConnectionReachesOtherClientsSoTheSettingRefusesIt() throws Exception {
        try (SlotPoolDataSource leaking = SlotPoolDataSource.builder().name("state-leak").url(bouncer.url("postgres"))
                .schema("other").minSize(1).maxSize(1).connectionProperty("prepareThreshold", "0").build();
             Connection leaked = leaking.getConnection();
             Connection other = otherClient()) {
            assertThat(queryString(other, "SELECT current_schema()")).as("the other client's schema")
                    .isEqualTo("other");
        }
        InvalidPoolConfigException refused = catchThrowableOfType(InvalidPoolConfigException.class,
                () -> SlotPoolDataSource.builder().url(bouncer.url("postgres")).pooler(Pooler.TRANSACTION)
                        .schema("other").config());
        assertThat(refused.violations()).extracting(ConfigViolation::property).containsExactly("schema");
    }

    /** Read-only set by the pool is applied at each BEGIN (pgjdbc's readOnlyMode=transaction): the pool's
     * transactions are read-only, the other client's on the same server session never are. */
    @Test
    void readOnlyHoldsPerTransactionAndReachesNoOtherClient() throws Exception {
        int leaks = 0;
        int notApplied = 0;
        try (SlotPoolDataSource readOnly = SlotPoolDataSource.builder().name("state-ro").url(bouncer.url("postgres"))
                .pooler(Pooler.TRANSACTION).readOnly(true).minSize(1).maxSize(1).build();
             Connection other = otherClient()) {
            for (int i = 0; i < ROUNDS; i++) {
                try (Connection c = readOnly.getConnection()) {
                    c.setAutoCommit(false);
                    if (!"on".equals(queryString(c, "SHOW transaction_read_only"))) {
                        notApplied++;
                    }
                    c.commit();
                }
                if (!"off".equals(queryString(other, "SHOW transaction_read_only"))) {
                    leaks++;
                }
                other.setAutoCommit(false);
                if (!"off".equals(queryString(other, "SHOW transaction_read_only"))) {
                    leaks++;
                }
                other.commit();
                other.setAutoCommit(true);
            }
        }
        System.out.println("FLEET read-only per transaction, " + ROUNDS + " rounds on one server session: "
                + notApplied + " pool transactions not read-only, " + leaks + " of the other client's read-only");
        assertThat(notApplied).isZero();
        assertThat(leaks).isZero();
    }

    /**
     * A holder's setTransactionIsolation behind a transaction pooler holds for each of its transactions and reaches
     * no other client: pgjdbc would set it for the session (SET SESSION CHARACTERISTICS), which here is everyone's.
     */
    @Test
    void aHoldersIsolationHoldsPerTransactionAndReachesNoOtherClient() throws Exception {
        int wrong = 0;
        int leaks = 0;
        try (SlotPoolDataSource pool = SlotPoolDataSource.builder().name("state-iso").url(bouncer.url("postgres"))
                .pooler(Pooler.TRANSACTION).minSize(1).maxSize(1).build();
             Connection other = otherClient()) {
            for (int i = 0; i < ROUNDS; i++) {
                try (Connection c = pool.getConnection()) {
                    c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                    c.setAutoCommit(false);
                    for (int tx = 0; tx < 2; tx++) {
                        if (!"serializable".equals(queryString(c, "SHOW transaction_isolation"))) {
                            wrong++;
                        }
                        c.commit();
                        // Between the holder's transactions the other client runs on the same server session.
                        if (!"read committed".equals(queryString(other, "SHOW transaction_isolation"))) {
                            leaks++;
                        }
                    }
                    if (c.getTransactionIsolation() != Connection.TRANSACTION_SERIALIZABLE) {
                        wrong++;
                    }
                }
            }
        }
        System.out.println("FLEET holder's isolation per transaction, " + ROUNDS + " rounds on one server session: "
                + wrong + " of the holder's transactions not serializable, " + leaks + " of the other client's");
        assertThat(leaks).as("the other client's transactions at the holder's isolation").isZero();
        assertThat(wrong).as("the holder's transactions not at its isolation").isZero();
    }

    /**
     * A holder's setSchema behind a transaction pooler is refused, naming why: pgjdbc would SET search_path for the
     * server session, which the pooler gives the other clients between the holder's transactions, and statements in
     * auto-commit mode could run on a session without it. Setting the schema the connection has changes nothing and
     * is accepted.
     */
    @Test
    void aHoldersSetSchemaIsRefusedAndReachesNoOtherClient() throws Exception {
        try (Connection setup = otherClient(); Statement st = setup.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS holder_schema");
        }
        try (SlotPoolDataSource pool = SlotPoolDataSource.builder().name("state-schema").url(bouncer.url("postgres"))
                .pooler(Pooler.TRANSACTION).minSize(1).maxSize(1).build();
             Connection other = otherClient()) {
            String before = queryString(other, "SELECT current_schema()");
            try (Connection c = pool.getConnection()) {
                assertThatThrownBy(() -> c.setSchema("holder_schema")).as("setSchema behind a transaction pooler")
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining("transaction pooler").hasMessageContaining("SET LOCAL search_path")
                        .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("0A000");
                c.setSchema(c.getSchema()); // the schema it has: nothing to change
            }
            assertThat(queryString(other, "SELECT current_schema()")).as("the other client's schema")
                    .isEqualTo(before);
        }
    }
}
