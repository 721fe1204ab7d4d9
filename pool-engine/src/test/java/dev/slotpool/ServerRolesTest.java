package dev.slotpool;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Roles through the public API on stub servers that answer the role queries (docs/failover.md, "Primary and
 * standbys"): Oracle Data Guard roles (not run against a real Data Guard, docs/oracle.md), a write refused as
 * read-only, and a database without a role query.
 */
class ServerRolesTest {

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final ThreadLocal<String> lastOrigin = new ThreadLocal<>();

    @AfterEach
    void reset() {
        StubDatabase.reset();
    }

    private SlotPoolBuilder pool(String name) {
        return SlotPoolDataSource.builder().name(name).minSize(2).maxSize(4).borrowTimeout(Duration.ofSeconds(5))
                .creationBackoffMax(Duration.ofMillis(200)).listener(new PoolListener() {
                    @Override
                    public void onEvent(PoolEvent e) {
                        if (e.type() == PoolEvent.Type.ORIGIN_STATE) {
                            events.add(e.origin() + " " + e.detail());
                        }
                    }

                    @Override
                    public void onBorrow(String origin, long waitNanos) {
                        lastOrigin.set(origin);
                    }
                });
    }

    private static Map<String, Object> oracle(String role, String openMode, long resetlogs) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("DATABASE_ROLE", role);
        row.put("OPEN_MODE", openMode);
        row.put("RESETLOGS_CHANGE#", resetlogs);
        row.put("DBID", 1_234_567L);
        return row;
    }

    private static OriginSnapshot origin(SlotPoolDataSource ds, String name) {
        return ds.snapshot().origin(name).orElseThrow();
    }

    private static void await(String what, SlotPoolDataSource ds, Predicate<PoolSnapshot> condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.test(ds.snapshot())) {
            assertThat(System.nanoTime() - deadline).as("timed out waiting for: %s; %s", what, ds.snapshot())
                    .isNegative();
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    /** Borrows n times; returns how many landed on each origin. */
    private Map<String, Integer> borrow(SlotPoolDataSource ds, int n) throws SQLException {
        Map<String, Integer> landed = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            try (Connection c = ds.getConnection()) {
                landed.merge(lastOrigin.get(), 1, Integer::sum);
            }
        }
        return landed;
    }

    /** One statement on a borrowed connection; a failure is expected while a server dies. */
    private static void use(SlotPoolDataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.executeQuery("SELECT 1").close();
        } catch (SQLException expected) {
            // Counted by the pool's failure detection.
        }
    }

    @Test
    void oracleDataGuardStandbyTakesNoBorrowsItsFailoverIsFollowedAndTheOldPrimaryWaitsForTheOperator()
            throws Exception {
        StubDatabase east = StubDatabase.reset("dg-east").productName("Oracle")
                .answer("V$DATABASE", oracle("PRIMARY", "READ WRITE", 100));
        StubDatabase west = StubDatabase.reset("dg-west").productName("Oracle")
                .answer("V$DATABASE", oracle("PHYSICAL STANDBY", "READ ONLY WITH APPLY", 100));
        try (SlotPoolDataSource ds = pool("dataguard").origin(OriginConfig.named("east").url(east.url()))
                .origin(OriginConfig.named("west").url(west.url())).build()) {
            // The reading is recorded a moment before the state it causes: wait for both. Each origin's role is
            // read on its own, so east's may come after west's.
            await("west's role read and applied, and east's read", ds,
                    s -> s.origin("west").orElseThrow().role() == ServerRole.STANDBY
                            && s.origin("west").orElseThrow().state() == OriginState.DOWN
                            && s.origin("east").orElseThrow().role() == ServerRole.PRIMARY);
            assertThat(origin(ds, "west").state()).isEqualTo(OriginState.DOWN);
            assertThat(origin(ds, "west").stateReason())
                    .isEqualTo("standby (DATABASE_ROLE PHYSICAL STANDBY, OPEN_MODE READ ONLY WITH APPLY)");
            assertThat(borrow(ds, 200)).containsOnlyKeys("east");

            // Failover: east dies, west opens as primary with RESETLOGS.
            east.down(true).killLiveConnections();
            while (origin(ds, "east").state() == OriginState.UP) {
                use(ds); // east's broken connections fail their statements: detected DOWN
            }
            west.answer("V$DATABASE", oracle("PRIMARY", "READ WRITE", 200));
            await("west serves", ds, s -> s.origin("west").orElseThrow().state() == OriginState.UP);
            assertThat(borrow(ds, 200)).containsOnlyKeys("west");

            // East returns, still claiming primary on the old incarnation.
            east.down(false);
            await("east refused as a split brain", ds, s -> s.origin("east").orElseThrow().role()
                    == ServerRole.PRIMARY && s.origin("east").orElseThrow().stateReason().startsWith("split brain"));
            assertThat(borrow(ds, 200)).containsOnlyKeys("west");
            ds.markUp("east");
            await("east serves after the operator's markUp", ds,
                    s -> s.origin("east").orElseThrow().state() == OriginState.UP && s.origin("east").orElseThrow().total() > 0);
            assertThat(events).anyMatch(e -> e.equals("west DOWN -> UP: role: primary (DATABASE_ROLE PRIMARY, "
                    + "OPEN_MODE READ WRITE)"));
        }
    }

    @Test
    void aWriteRefusedAsReadOnlyTakesTheOriginOutAtItsNextConnection() throws Exception {
        Map<String, Object> primary = new LinkedHashMap<>();
        primary.put("in_recovery", false);
        primary.put("cluster", "7");
        primary.put("transaction_read_only", "off");
        primary.put("default_read_only", "off");
        primary.put("timeline", 1);
        primary.put("lag_bytes", null);
        primary.put("lag_millis", null);
        primary.put("receiver", null);
        StubDatabase db = StubDatabase.reset("demoted").productName("PostgreSQL").answer("pg_is_in_recovery", primary);
        // The last borrow times out (no origin takes writes): a shorter wait than the other tests' 5 s.
        try (SlotPoolDataSource ds = pool("demoted").borrowTimeout(Duration.ofSeconds(2))
                .origin(OriginConfig.named("a").url(db.url())).build()) {
            await("read as primary", ds, s -> s.origin("a").orElseThrow().role() == ServerRole.PRIMARY);
            Map<String, Object> standby = new LinkedHashMap<>(primary);
            standby.put("in_recovery", true);
            standby.put("receiver", "streaming");
            db.answer("pg_is_in_recovery", standby).readOnly(true);
            try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                assertThatThrownBy(() -> st.executeUpdate("UPDATE t SET x = 1"))
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25006"));
            }
            await("out for its role", ds, s -> s.origin("a").orElseThrow().state() == OriginState.DOWN);
            assertThat(origin(ds, "a").stateReason()).isEqualTo("standby (pg_is_in_recovery() is true)");
            assertThatThrownBy(ds::getConnection).as("no origin takes writes: the borrow times out")
                    .isInstanceOf(SQLException.class);
        }
    }

    @Test
    void aDatabaseWithoutARoleQueryIsServedAsBefore() throws Exception {
        StubDatabase a = StubDatabase.reset("plain-a"), b = StubDatabase.reset("plain-b");
        try (SlotPoolDataSource ds = pool("plain").origin(OriginConfig.named("a").url(a.url()))
                .origin(OriginConfig.named("b").url(b.url())).build()) {
            await("both filled", ds, s -> s.origins().stream().allMatch(o -> o.total() > 0));
            assertThat(ds.snapshot().origins()).allMatch(o -> o.role() == ServerRole.UNKNOWN
                    && o.state() == OriginState.UP);
            assertThat(a.queries() + b.queries()).as("no role query sent").isZero();
            assertThat(borrow(ds, 400)).containsOnlyKeys("a", "b");
        }
    }
}
