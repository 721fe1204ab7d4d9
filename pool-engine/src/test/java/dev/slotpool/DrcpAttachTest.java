package dev.slotpool;

import dev.slotpool.kernel.Events;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;
import dev.slotpool.testsupport.StubOracleDriver;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * An origin behind Oracle DRCP, through the public API with the stub driver under an Oracle URL
 * (docs/oracle.md, "DRCP"): a pooled server is attached before each lend and released after each return's reset,
 * found on the stub's connections by the lookup the engine uses for Oracle's ({@code attachServerConnection()} and
 * {@code detachServerConnection(String)} on a public interface); a failed attach is the origin refusing work, not a
 * broken session; no origin not behind DRCP sees either call.
 */
class DrcpAttachTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private static SlotPoolBuilder drcp(StubDatabase db) {
        return SlotPoolDataSource.builder().name("orders").url(StubOracleDriver.pooledUrl(db.name()))
                .driverClassName(StubOracleDriver.class.getName()).pooler(Pooler.DRCP);
    }

    @Test
    void eachBorrowAttachesBeforeTheLendAndEachReturnReleasesAfterTheReset() throws Exception {
        StubDatabase db = StubDatabase.reset("drcp-order").recordCalls(true);
        // Validated at every borrow: the validation runs on the attached server.
        try (SlotPoolDataSource ds = drcp(db).minSize(1).maxSize(1).validateAfterIdle(Duration.ZERO).build()) {
            awaitSnapshot(ds, s -> s.available() == 1, "1 idle connection");
            assertThat(db.calls()).as("the login's pooled server released before the connection is published")
                    .endsWith("c1 detach null");
            for (int borrow = 0; borrow < 2; borrow++) {
                db.recordCalls(true);
                try (Connection c = ds.getConnection()) {
                    assertThat(c.unwrap(StubConnection.class).attached()).as("attached when lent").isTrue();
                    c.setAutoCommit(false);
                    try (Statement st = c.createStatement()) {
                        st.execute("UPDATE orders SET state = 'shipped'");
                    }
                    // left uncommitted: the return's reset rolls it back, then the server is released
                }
                assertThat(db.calls()).as("borrow %d", borrow).containsExactly("c1 attach", "c1 isValid",
                        "c1 beginRequest",
                        "c1 execute", "c1 rollback", "c1 endRequest", "c1 detach null");
            }
            assertThat(ds.snapshot().origins().get(0).state()).isEqualTo(OriginState.UP);
        }
    }

    @Test
    void aKeepaliveReleasesThePooledServerItsValidationAttached() throws Exception {
        StubDatabase db = StubDatabase.reset("drcp-keepalive");
        try (SlotPoolDataSource ds = drcp(db).minSize(1).maxSize(1).keepaliveInterval(Duration.ofSeconds(1))
                .housekeepingPeriod(Duration.ofMillis(50)).build()) {
            awaitSnapshot(ds, s -> s.available() == 1, "1 idle connection");
            db.recordCalls(true);
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (!db.calls().containsAll(List.of("c1 isValid", "c1 detach null"))) {
                if (System.nanoTime() - deadline > 0) {
                    fail("no keepalive validation and release; calls: " + db.calls());
                }
                sleepBriefly();
            }
            assertThat(db.calls()).as("released after the validation").containsSubsequence("c1 isValid",
                    "c1 detach null");
        }
    }

    @Test
    void noAttachOrReleaseForAnOriginNotBehindDrcp() throws Exception {
        StubDatabase db = StubDatabase.reset("drcp-none").recordCalls(true);
        try (SlotPoolDataSource ds = drcp(db).pooler(Pooler.NONE).minSize(1).maxSize(1).build()) {
            awaitSnapshot(ds, s -> s.available() == 1, "1 idle connection");
            for (int i = 0; i < 3; i++) {
                try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                    st.execute("SELECT 1");
                }
            }
            assertThat(db.calls()).contains("c1 execute").noneMatch(call -> call.contains("attach"));
        }
    }

    @Test
    void theDriverAttachingInItsRequestBoundariesGetsNoCallsFromThePool() throws Exception {
        StubDatabase db = StubDatabase.reset("drcp-multiplexing").recordCalls(true);
        try (SlotPoolDataSource ds = drcp(db).connectionProperty("oracle.jdbc.DRCPMultiplexingInRequestAPIs", "true")
                .minSize(1).maxSize(1).build()) {
            try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                st.execute("SELECT 1");
            }
            assertThat(db.calls()).contains("c1 beginRequest", "c1 endRequest")
                    .noneMatch(call -> call.contains("attach"));
        }
    }

    @Test
    void theDriverGetsThePoolsNameAsConnectionClassAndPuritySelfUnlessSet() throws Exception {
        StubDatabase db = StubDatabase.reset("drcp-props");
        try (SlotPoolDataSource ds = drcp(db).minSize(1).maxSize(1).build()) {
            awaitSnapshot(ds, s -> s.available() == 1, "1 idle connection");
            assertThat(StubOracleDriver.lastProperties(db.name()))
                    .containsEntry("oracle.jdbc.DRCPConnectionClass", "orders")
                    .containsEntry("oracle.jdbc.DRCPConnectionPurity", "SELF");
        }
        try (SlotPoolDataSource ds = drcp(db).connectionProperty("oracle.jdbc.DRCPConnectionPurity", "NEW")
                .connectionProperty("oracle.jdbc.DRCPConnectionClass", "shop").minSize(1).maxSize(1).build()) {
            awaitSnapshot(ds, s -> s.available() == 1, "1 idle connection");
            assertThat(StubOracleDriver.lastProperties(db.name()))
                    .containsEntry("oracle.jdbc.DRCPConnectionClass", "shop")
                    .containsEntry("oracle.jdbc.DRCPConnectionPurity", "NEW");
        }
    }

    @Test
    void aRefusedAttachClosesTheConnectionAndCountsAsTheOriginRefusingWorkNotAsABrokenSession() throws Exception {
        StubDatabase db = StubDatabase.reset("drcp-refused");
        Events events = new Events();
        // One connection error would mark the origin DOWN at this threshold; a refusal leaves it UP, refusing.
        try (SlotPoolDataSource ds = drcp(db).minSize(2).maxSize(2).downAfterFailures(1).listener(events).build()) {
            awaitSnapshot(ds, s -> s.available() == 2, "2 idle connections");
            db.failNextAttaches(1, "99999", 56600); // ORA-56600: DRCP: Illegal call
            try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                st.execute("SELECT 1"); // the borrow went on to the other connection
                assertThat(c.unwrap(StubConnection.class).attached()).isTrue();
            }
            awaitEvents(events, e -> e.type() == PoolEvent.Type.CLOSED && e.reason() == CloseReason.ATTACH_FAILED,
                    "the connection whose attach failed closed");
            awaitEvents(events, e -> e.type() == PoolEvent.Type.ORIGIN_STATE
                    && e.detail().startsWith("UP, refusing new sessions"), "the origin shown refusing work");
            assertThat(events.list).noneMatch(e -> e.type() == PoolEvent.Type.ORIGIN_STATE
                    && e.detail().contains("DOWN"));
            assertThat(events.list).noneMatch(e -> e.reason() == CloseReason.BROKEN);
            assertThat(ds.snapshot().origins().get(0).state()).isEqualTo(OriginState.UP);
        }
    }

    @Test
    void aDeadConnectionFoundAtAttachIsClosedAndCountsNothing() throws Exception {
        StubDatabase db = StubDatabase.reset("drcp-dead");
        Events events = new Events();
        try (SlotPoolDataSource ds = drcp(db).minSize(2).maxSize(2).downAfterFailures(1).listener(events).build()) {
            awaitSnapshot(ds, s -> s.available() == 2, "2 idle connections");
            db.failNextAttaches(1, "08006", 17002); // Oracle JDBC: I/O error
            try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                st.execute("SELECT 1");
            }
            awaitEvents(events, e -> e.type() == PoolEvent.Type.CLOSED && e.reason() == CloseReason.ATTACH_FAILED,
                    "the dead connection closed");
            awaitSnapshot(ds, s -> s.total() == 2 && s.available() == 2, "the dead connection replaced");
            assertThat(events.list).noneMatch(e -> e.type() == PoolEvent.Type.ORIGIN_STATE);
            assertThat(ds.snapshot().origins().get(0).state()).isEqualTo(OriginState.UP);
        }
    }

    @Test
    void aFailedReleaseAtReturnClosesTheConnection() throws Exception {
        StubDatabase db = StubDatabase.reset("drcp-release");
        Events events = new Events();
        try (SlotPoolDataSource ds = drcp(db).minSize(1).maxSize(1).downAfterFailures(1).listener(events).build()) {
            awaitSnapshot(ds, s -> s.available() == 1, "1 idle connection");
            StubConnection first;
            db.failNextDetaches(1, "99999", 56600);
            try (Connection c = ds.getConnection()) {
                first = c.unwrap(StubConnection.class);
            }
            awaitEvents(events, e -> e.type() == PoolEvent.Type.CLOSED, "the connection whose release failed closed");
            try (Connection c = ds.getConnection()) {
                assertThat(c.unwrap(StubConnection.class)).as("a new connection").isNotSameAs(first);
            }
            assertThat(ds.snapshot().origins().get(0).state()).isEqualTo(OriginState.UP);
        }
    }

    @Test
    void aServerWithoutTheConnectionsTagLosesItsLabelsSoTheCallbackConfiguresItAgain() throws Exception {
        StubDatabase db = StubDatabase.reset("drcp-tags").recordCalls(true);
        AtomicInteger configured = new AtomicInteger();
        LabelingCallback labeling = new LabelingCallback() {
            @Override
            public int cost(Map<String, String> requested, Map<String, String> current) {
                return current.entrySet().containsAll(requested.entrySet()) ? 0 : 1;
            }

            @Override
            public boolean configure(Map<String, String> requested, Connection c) throws SQLException {
                configured.incrementAndGet();
                requested.forEach((k, v) -> {
                    try {
                        c.unwrap(LabeledConnection.class).applyLabel(k, v);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                return true;
            }
        };
        Map<String, String> tenant = Map.of("tenant", "acme");
        try (SlotPoolDataSource ds = drcp(db).minSize(1).maxSize(1).labeling(labeling).build()) {
            awaitSnapshot(ds, s -> s.available() == 1, "1 idle connection");
            ds.getConnection(tenant).close();
            assertThat(db.calls()).as("released tagged with its labels").endsWith("c1 detach tenant=acme");
            ds.getConnection(tenant).close();
            assertThat(configured).as("DRCP kept the tag: the session still has the labels' state").hasValue(1);
            db.keepTags(false);
            try (Connection c = ds.getConnection(tenant)) {
                assertThat(c.unwrap(LabeledConnection.class).labels()).isEqualTo(tenant);
            }
            assertThat(configured).as("another session: configured again").hasValue(2);
        }
    }

    /** Records the pool's events. */
    private static final class Events implements PoolListener {
        final List<PoolEvent> list = new CopyOnWriteArrayList<>();

        @Override
        public void onEvent(PoolEvent event) {
            list.add(event);
        }
    }

    private static void awaitEvents(Events events, Predicate<PoolEvent> wanted, String what) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (events.list.stream().noneMatch(wanted)) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out waiting for: " + what + "; events: " + events.list);
            }
            Thread.onSpinWait();
            sleepBriefly();
        }
    }

    private static PoolSnapshot awaitSnapshot(SlotPoolDataSource ds, Predicate<PoolSnapshot> wanted, String what) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            PoolSnapshot s = ds.snapshot();
            if (wanted.test(s)) {
                return s;
            }
            if (System.nanoTime() - deadline > 0) {
                fail("timed out waiting for: " + what + "; last: " + s.summary());
            }
            sleepBriefly();
        }
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
