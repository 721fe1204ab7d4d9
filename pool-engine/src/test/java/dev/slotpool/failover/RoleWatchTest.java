package dev.slotpool.failover;

import dev.slotpool.origins.Origin;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** The watch on stub servers that answer PostgreSQL's role query: out for a standby, back at its promotion, the old
 * primary out as a split brain until accepted. */
class RoleWatchTest {

    private final StubDatabase first = StubDatabase.reset("watch-first").productName("PostgreSQL");
    private final StubDatabase second = StubDatabase.reset("watch-second").productName("PostgreSQL");
    private final RoleWatch watch = new RoleWatch(new OriginRoles(), r -> {
        Thread t = new Thread(r, "role-watch-test");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stop() {
        watch.close();
        StubDatabase.reset("watch-first");
        StubDatabase.reset("watch-second");
    }

    private static Map<String, Object> pg(boolean inRecovery, long timeline) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("in_recovery", inRecovery);
        row.put("cluster", "42");
        row.put("transaction_read_only", inRecovery ? "on" : "off");
        row.put("default_read_only", "off");
        row.put("timeline", inRecovery ? null : timeline);
        row.put("lag_bytes", inRecovery ? 0L : null);
        row.put("lag_millis", inRecovery ? 0L : null);
        row.put("receiver", inRecovery ? "streaming" : null);
        return row;
    }

    /** Records what the watch did to an origin; room for one session. */
    static final class Origin implements RoleWatch.Watched {
        final StubDatabase db;
        final List<String> calls = new CopyOnWriteArrayList<>();
        /** What {@link #read} was told, in order: a role and lag, or "lost". */
        final List<String> readings = new CopyOnWriteArrayList<>();
        final AtomicInteger room = new AtomicInteger(1);
        /** {@link #lagBoundMillis}: -1, reads not by lag, unless a test sets it. */
        volatile long lagBound = -1;
        /** The holds on its writes not yet released ({@link #holdWrites}). */
        final AtomicInteger writeHolds = new AtomicInteger();
        /** For each {@link #outForRole}: whether its writes were held, and its reading as the watch then knew it. */
        final List<String> outs = new CopyOnWriteArrayList<>();
        /** The roles the watch knows, to say what it knew at each {@link #outForRole}; set by a test. */
        volatile OriginRoles roles;

        Origin(StubDatabase db) {
            this.db = db;
        }

        @Override
        public String name() {
            return db.name();
        }

        @Override
        public boolean claimRoom() {
            return room.getAndUpdate(n -> n > 0 ? n - 1 : n) > 0;
        }

        @Override
        public void releaseRoom() {
            room.incrementAndGet();
        }

        @Override
        public Connection connect() throws SQLException {
            return DriverManager.getConnection(db.url());
        }

        @Override
        public boolean watchable() {
            return true;
        }

        @Override
        public boolean mayHoldSession() {
            return true;
        }

        @Override
        public long lagBoundMillis() {
            return lagBound;
        }

        @Override
        public void outForRole(String reason) {
            calls.add("out: " + reason);
            if (roles != null) {
                outs.add((writeHolds.get() > 0 ? "held, " : "not held, ") + roles.reading(name()).role());
            }
        }

        @Override
        public void holdWrites() {
            writeHolds.incrementAndGet();
        }

        @Override
        public void releaseWrites() {
            writeHolds.decrementAndGet();
        }

        @Override
        public void backForRole(String reason) {
            calls.add("back: " + reason);
        }

        @Override
        public void read(dev.slotpool.failover.RoleReading reading) {
            readings.add(reading == null ? "lost" : reading.role() + " lag " + reading.lagMillis());
        }
    }

    private boolean admits(StubDatabase db) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.url())) {
            return watch.admits(db.name(), dev.slotpool.failover.RoleReader.read(c));
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("timed out waiting for: " + what).isNegative();
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    @Test
    void aStandbyIsOutAndWatchedItsPromotionBringsItBackAndTheOldPrimaryIsOutUntilAccepted() throws Exception {
        Origin a = new Origin(first.answer("pg_is_in_recovery", pg(false, 1)));
        Origin b = new Origin(second.answer("pg_is_in_recovery", pg(true, 0)));
        watch.register(a);
        watch.register(b);

        assertThat(admits(first)).isTrue();
        assertThat(admits(second)).isFalse();
        assertThat(b.calls).containsExactly("out: standby (pg_is_in_recovery() is true)");
        await("the watch holds a session to the standby", () -> b.room.get() == 0 && second.live() == 1);

        watch.suspect();
        second.answer("pg_is_in_recovery", pg(false, 2));
        await("back at its promotion", () -> b.calls.size() == 2);
        assertThat(b.calls.get(1)).isEqualTo("back: role: primary on timeline 2");
        await("the watch's session closed, its room given back", () -> b.room.get() == 1 && second.live() == 0);
        assertThat(a.calls).as("the old primary is outranked").hasSize(1);
        assertThat(a.calls.get(0)).startsWith("out: split brain").contains("timeline 1").contains("'watch-second'");
        assertThat(admits(first)).as("still claiming primary on timeline 1").isFalse();

        watch.accepted("watch-first");
        assertThat(a.calls).as("the operator's markUp puts it back in service, not the watch").hasSize(1);
        assertThat(admits(first)).isTrue();
        second.answer("pg_is_in_recovery", pg(true, 0));
        assertThat(admits(second)).isFalse();
        watch.accepted("watch-second");
        assertThat(b.calls).as("a standby an operator marks up is taken out again").last()
                .isEqualTo("out: standby (pg_is_in_recovery() is true)");
        await("no watch left", () -> first.live() == 0 && a.room.get() == 1);
    }

    @Test
    void aStandbysReadingIsStoredAndItsVerdictAppliedUnderAHoldOnItsWrites() throws Exception {
        Origin b = new Origin(second.answer("pg_is_in_recovery", pg(true, 0)));
        b.roles = watch.roles();
        watch.register(b);
        assertThat(admits(second)).isFalse();
        assertThat(b.outs).as("out for its role while its writes were held, the reading already stored")
                .containsExactly("held, STANDBY");

        watch.accepted("watch-second"); // an operator's markUp: the verdict applied again, again under a hold
        assertThat(b.outs).hasSizeGreaterThanOrEqualTo(2).allMatch("held, STANDBY"::equals);
        // The watcher's own readings hold the writes for a moment each: a moment with none is awaited.
        await("every hold released", () -> b.writeHolds.get() == 0);
    }

    @Test
    void everyReadingAndEveryLostSessionIsToldToTheOrigin() throws Exception {
        Origin b = new Origin(second.answer("pg_is_in_recovery", pg(true, 0)));
        watch.register(b);
        assertThat(admits(second)).isFalse();
        assertThat(b.readings).as("the new connection's reading, after its judgement").contains("STANDBY lag 0");
        await("the watch reads it on its schedule", () -> b.readings.size() >= 2);
        second.down(true).killLiveConnections();
        await("its session lost", () -> b.readings.contains("lost"));
    }

    @Test
    void aStandbyWhoseReceivePositionStandsStillWhileThePrimarysMovesHasNoKnownLag() throws Exception {
        Origin a = new Origin(first.answer("pg_is_in_recovery", pg(false, 1))
                .answer("pg_current_wal_flush_lsn", Map.of("lsn", "0/3000100")));
        Origin b = new Origin(second.answer("pg_is_in_recovery", pg(true, 0))
                .answer("pg_last_wal_receive_lsn", Map.of("lsn", "0/3000000")));
        b.lagBound = 100;
        watch.register(a);
        watch.register(b);
        assertThat(admits(first)).isTrue();
        assertThat(admits(second)).isFalse();

        await("the standby's lag unknown", () -> b.readings.contains("STANDBY lag -1"));
        assertThat(a.room).as("the session to the primary holds its room").hasValue(0);
        assertThat(first.live()).isEqualTo(1);
        assertThat(admits(second)).isFalse();
        assertThat(b.readings).as("a new connection's reading, which cannot tell, is told too").last()
                .isEqualTo("STANDBY lag -1");

        second.answer("pg_last_wal_receive_lsn", Map.of("lsn", "0/3000100"));
        await("its lag known again once its stream moves", () -> b.readings.get(b.readings.size() - 1)
                .equals("STANDBY lag 0"));
        watch.close();
        await("the session to the primary closed with the watch", () -> a.room.get() == 1 && first.live() == 0);
    }

    @Test
    void aStandbyCaughtUpWithAnIdlePrimaryKeepsItsLag() throws Exception {
        Origin a = new Origin(first.answer("pg_is_in_recovery", pg(false, 1))
                .answer("pg_current_wal_flush_lsn", Map.of("lsn", "0/3000100")));
        Origin b = new Origin(second.answer("pg_is_in_recovery", pg(true, 0))
                .answer("pg_last_wal_receive_lsn", Map.of("lsn", "0/3000100")));
        b.lagBound = 100;
        watch.register(a);
        watch.register(b);
        assertThat(admits(first)).isTrue();
        assertThat(admits(second)).isFalse();
        await("four of the watch's readings", () -> b.readings.size() >= 5);
        assertThat(b.readings).as("received all the primary flushed: no stall").containsOnly("STANDBY lag 0");
    }

    @Test
    void aWatchWithoutRoomWaitsForRoom() throws Exception {
        Origin b = new Origin(second.answer("pg_is_in_recovery", pg(true, 0)));
        b.room.set(0);
        watch.register(b);
        assertThat(admits(second)).isFalse();
        watch.suspect();
        TimeUnit.MILLISECONDS.sleep(100);
        assertThat(second.live()).as("no session without room (S3)").isZero();
        b.room.set(1);
        second.answer("pg_is_in_recovery", pg(false, 2));
        await("back once it had room to look", () -> b.calls.size() == 2);
    }

    @Test
    void aWatcherThatCannotStartFailsNothingAndIsStartedAtTheNextJudgement() throws Exception {
        AtomicInteger refusals = new AtomicInteger(1);
        RoleWatch flaky = new RoleWatch(new OriginRoles(), r -> {
            if (refusals.getAndDecrement() > 0) {
                throw new IllegalStateException("no thread");
            }
            Thread t = new Thread(r, "role-watch-test");
            t.setDaemon(true);
            return t;
        });
        try {
            Origin b = new Origin(second.answer("pg_is_in_recovery", pg(true, 0)));
            flaky.register(b);
            try (Connection c = DriverManager.getConnection(second.url())) {
                assertThat(flaky.admits(second.name(), dev.slotpool.failover.RoleReader.read(c))).isFalse();
            }
            assertThat(b.calls).hasSize(1);
            assertThat(second.live()).as("no watcher yet").isZero();
            try (Connection c = DriverManager.getConnection(second.url())) {
                assertThat(flaky.admits(second.name(), dev.slotpool.failover.RoleReader.read(c))).isFalse();
            }
            await("watched now", () -> b.room.get() == 0 && second.live() == 1);
        } finally {
            flaky.close();
        }
    }
}
