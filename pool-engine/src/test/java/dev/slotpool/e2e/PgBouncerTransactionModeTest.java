package dev.slotpool.e2e;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.slotpool.Pooler;
import dev.slotpool.SlotPoolBuilder;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import static dev.slotpool.e2e.E2e.pgBouncer;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet of docs/poolers.md's table ("The table"): 5 pools (5 app instances) of 4 connections, 4
 * threads each, every transaction three prepared statements, through a real PgBouncer in {@code pool_mode =
 * transaction} with 4 server connections, pgjdbc with its defaults (server-side named statements from a statement's
 * fifth use). With {@code pooler(TRANSACTION)} no transaction fails; each run prints one {@code FLEET ...} line, and
 * the fleet also runs without the setting and with HikariCP 7.1, for the table.
 */
class PgBouncerTransactionModeTest {

    private static final int POOLS = 5;
    private static final int CONNECTIONS = 4;
    private static final int THREADS = 4;
    private static final Duration RUN = Duration.ofSeconds(3);

    private static EmbeddedPostgres server;
    private static PgBouncerServer bouncer;

    @BeforeAll
    static void start() throws IOException, SQLException {
        PgBouncerServer.binary();
        server = EmbeddedPostgres.builder().start();
        try (Connection c = DriverManager.getConnection(server.getJdbcUrl("postgres", "postgres"))) {
            FleetLoad.createSchema(c);
        }
        bouncer = pgBouncer("tx", server.getPort(), Map.of("pool_mode", "transaction",
                "default_pool_size", String.valueOf(CONNECTIONS))).start();
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

    /** pgjdbc's defaults and the origin setting: the pool makes the driver safe, no transaction fails. */
    @Test
    void withThePoolerSettingNoTransactionFails() throws Exception {
        FleetLoad load = runSlotpool("slotpool, driver defaults, pooler=TRANSACTION",
                b -> b.pooler(Pooler.TRANSACTION));
        assertThat(load.failed()).as("failed transactions: %s", load.failures()).isZero();
        assertThat(load.committed()).isPositive();
    }

    /** The pool's statement cache stays useful: PreparedStatement objects are reused, none is named on a server. */
    @Test
    void theStatementCacheServesBehindATransactionPooler() throws Exception {
        LongAdder hits = new LongAdder();
        FleetLoad load = runSlotpool("slotpool, pooler=TRANSACTION, statementCacheSize=16",
                b -> b.pooler(Pooler.TRANSACTION).statementCacheSize(16),
                p -> p.snapshot().origins().forEach(o -> hits.add(o.statementCacheHits())));
        assertThat(load.failed()).as("failed transactions: %s", load.failures()).isZero();
        System.out.println("FLEET statement cache hits: " + hits.sum() + " for " + load.committed()
                + " committed transactions");
        assertThat(hits.sum()).as("statement cache hits").isPositive();
    }

    /**
     * The same fleet without the setting (slotpool and HikariCP with pgjdbc's defaults), and HikariCP as its users
     * must configure it by hand, for docs/poolers.md's table: printed, not asserted (the failures without the
     * setting are what docs/poolers.md reports, the driver's behaviour rather than a pool's).
     */
    @Test
    void withoutTheSettingForTheTable() throws Exception {
        runSlotpool("slotpool, driver defaults, no pooler setting", b -> b);
        runHikari("HikariCP 7.1, driver defaults", "");
        runHikari("HikariCP 7.1, prepareThreshold=0 by hand", "&prepareThreshold=0");
    }

    private FleetLoad runSlotpool(String label, UnaryOperator<SlotPoolBuilder> settings) throws Exception {
        return runSlotpool(label, settings, p -> { });
    }

    /** Runs the fleet; {@code beforeClose} sees each pool after the run, before it is closed. */
    private FleetLoad runSlotpool(String label, UnaryOperator<SlotPoolBuilder> settings,
                                  Consumer<SlotPoolDataSource> beforeClose) throws Exception {
        List<SlotPoolDataSource> pools = new ArrayList<>();
        try {
            for (int i = 0; i < POOLS; i++) {
                pools.add(settings.apply(SlotPoolDataSource.builder().name("fleet-" + i).url(bouncer.url("postgres"))
                        .minSize(CONNECTIONS).maxSize(CONNECTIONS)).build());
            }
            FleetLoad load = report(label, new FleetLoad(pools, THREADS).runFor(RUN));
            pools.forEach(beforeClose);
            return load;
        } finally {
            pools.forEach(SlotPoolDataSource::close);
        }
    }

    private void runHikari(String label, String urlSuffix) throws Exception {
        List<HikariDataSource> pools = new ArrayList<>();
        try {
            for (int i = 0; i < POOLS; i++) {
                HikariConfig config = new HikariConfig();
                config.setPoolName("fleet-hikari-" + i);
                config.setJdbcUrl(bouncer.url("postgres") + urlSuffix);
                config.setMinimumIdle(CONNECTIONS);
                config.setMaximumPoolSize(CONNECTIONS);
                pools.add(new HikariDataSource(config));
            }
            report(label, new FleetLoad(pools, THREADS).runFor(RUN));
        } finally {
            pools.forEach(HikariDataSource::close);
        }
    }

    private static FleetLoad report(String label, FleetLoad load) {
        System.out.println(load.summary(label));
        return load;
    }
}
