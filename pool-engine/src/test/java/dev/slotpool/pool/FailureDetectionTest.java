package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/** What counts toward DOWN, back-off and hung connects, against the stub driver (docs/architecture.md,
 * "Failure detection"). */
class FailureDetectionTest {

    private static final Executor INLINE = Runnable::run;
    private final RecordedEvents events = new RecordedEvents();
    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
        StubDatabase.reset();
    }

    @Test
    void aHungConnectToOneOriginLeavesTheOtherOriginItsCreators() throws Exception {
        StubDatabase hung = StubDatabase.reset("fd-hung").hangConnects(true);
        StubDatabase healthy = StubDatabase.reset("fd-healthy");
        pool = new ConnectionPool(Pools.stub(hung).listener(events).minSize(4).maxSize(8)
                .origin(OriginConfig.named("hung").url(hung.url()))
                .origin(OriginConfig.named("healthy").url(healthy.url()))
                .config());

        Pools.await(pool, s -> s.origin("healthy").orElseThrow().total() >= 4,
                "the healthy origin filled to minSize while the other one's connect hangs");
        assertThat(hung.connectAttempts()).as("connects started to the hung origin (at most one at a time)")
                .isEqualTo(1);
        hung.hangConnects(false);
    }

    /**
     * A first connect that is merely slow (a cold database, a busy machine) is no failure, while an origin
     * that has answered before and then leaves a connect unanswered is still counted within seconds (the silent
     * origin of docs/failover.md), not after the long first-connect budget.
     */
    @Test
    void aSlowFirstConnectIsNotCountedButTheSilenceOfAnOriginThatAnsweredIs() throws Exception {
        StubDatabase db = StubDatabase.reset("fd-slow-first").connectDelay(Duration.ofSeconds(3));
        // The housekeeper counts unanswered attempts; a short period lets it see the one started below.
        pool = new ConnectionPool(Pools.stub(db).listener(events).minSize(1).maxSize(1)
                .housekeepingPeriod(Duration.ofMillis(100)).config());
        Pools.await(pool, s -> s.available() == 1, "the slow first connect landed");
        assertThat(events.events).as("events of the slow first connect")
                .noneMatch(e -> e.type() == dev.slotpool.PoolEvent.Type.CREATION_FAILED);
        assertThat(pool.snapshot().origins().get(0).consecutiveFailures()).isZero();

        db.connectDelay(Duration.ZERO).hangConnects(true);
        long silentFrom = System.nanoTime();
        pool.borrow().abort(INLINE); // its replacement's connect hangs
        Pools.await(pool, s -> events.events.stream().anyMatch(e -> e.type() == dev.slotpool.PoolEvent.Type.CREATION_FAILED
                && e.detail().contains("no answer to a connect")), "the unanswered connect counted");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - silentFrom))
                .as("counted by the silence of an origin that answered, not by the first-connect budget")
                .isLessThan(15_000);
        db.hangConnects(false);
    }

    @Test
    void connectFailuresBackOffWhileHealthyConnectionsKeepReturning() throws Exception {
        StubDatabase db = StubDatabase.reset("fd-refusing");
        pool = new ConnectionPool(Pools.stub(db).listener(events).minSize(2).maxSize(2)
                .downAfterFailures(0).creationBackoffMax(Duration.ofSeconds(5)).config());
        Pools.await(pool, s -> s.total() == 2, "2 connections");

        db.down(true); // the server refuses new sessions; the two open ones keep working
        pool.borrow().abort(INLINE); // one connection gone: the creator tries to replace it
        long attemptsBefore = db.connectAttempts();
        AtomicBoolean stop = new AtomicBoolean();
        Thread borrower = new Thread(() -> {
            while (!stop.get()) {
                try (Connection c = pool.borrow()) {
                    c.createStatement().execute("SELECT 1");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        });
        borrower.start();
        LockSupport.parkNanos(Duration.ofSeconds(3).toNanos());
        stop.set(true);
        borrower.join(10_000);

        // Back-off 50 ms doubling: attempts at 0, 50, 150, 350, 750, 1550 ms, 3150 ms: 6 or 7 in 3 s. Reset by
        // every healthy return, it would stay at 50 ms: about 60.
        assertThat(db.connectAttempts() - attemptsBefore).as("connects in 3 s while healthy returns continue")
                .isLessThanOrEqualTo(10);
    }

    /** A server at its session limit: connects are refused while the sessions the pool has keep answering. */
    @Test
    void refusedConnectsWhileTheSessionsAnswerCloseNothing() throws Exception {
        StubDatabase db = StubDatabase.reset("fd-full");
        pool = new ConnectionPool(Pools.stub(db).listener(events).minSize(2).maxSize(2).downAfterFailures(3)
                .creationBackoffMax(Duration.ofMillis(200)).borrowTimeout(Duration.ofSeconds(2)).config());
        Pools.await(pool, s -> s.available() == 2, "2 idle");

        db.down(true); // new sessions refused; the open ones keep working
        pool.borrow().abort(INLINE); // one gone: below minSize, the creator keeps trying to replace it
        Pools.closesDone(pool);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean stop = new AtomicBoolean();
        Thread borrower = new Thread(() -> {
            while (!stop.get()) {
                try (Connection c = pool.borrow()) {
                    c.createStatement().execute("SELECT 1");
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        });
        borrower.start();
        long failedBefore = db.failedConnects();
        try {
            // 50, 100, 200 ms back-off: threshold 3 reached within about 0.4 s; twice over within about 1.2 s.
            Pools.await(pool, s -> db.failedConnects() - failedBefore >= 6, "six refused connects");
        } finally {
            stop.set(true);
            borrower.join(10_000);
        }
        assertThat(borrower.isAlive()).isFalse();

        assertThat(failure.get()).as("borrows while the server refused new sessions").isNull();
        assertThat(events.events).as("nothing taken DOWN, nothing closed for the refused connects")
                .noneMatch(e -> e.type() == PoolEvent.Type.ORIGIN_STATE && e.detail().contains("-> DOWN"))
                .noneMatch(e -> e.reason() == CloseReason.ORIGIN_NOT_UP);
        OriginSnapshot o = pool.snapshot().origins().get(0);
        assertThat(o.state()).isEqualTo(OriginState.UP);
        assertThat(o.total()).as("the session that answers").isEqualTo(1);
        assertThat(db.live()).isEqualTo(1);
        assertThat(o.refusingNewSessions()).as("refusing new sessions: %s", pool.snapshot().summary()).isTrue();
        assertThat(pool.snapshot().summary()).contains("default=UP [refusing new sessions]");
        assertThat(events.events).as("reported once, when the run reached the threshold")
                .filteredOn(e -> e.type() == PoolEvent.Type.ORIGIN_STATE)
                .singleElement().satisfies(e -> assertThat(e.detail()).startsWith("UP, refusing new sessions: 3 "
                        + "consecutive connection failures while its 1 session(s) answer"));

        db.down(false);
        Pools.await(pool, s -> s.total() == 2 && !s.origins().get(0).refusingNewSessions(),
                "replaced once the server accepts new sessions again");
        Pools.await(pool, s -> events.events.stream().anyMatch(e -> e.type() == PoolEvent.Type.ORIGIN_STATE
                && e.detail().startsWith("UP, accepting new sessions again")), "the event saying so");
    }

    /** Connects refused and the one session silent (borrowed, never back): nothing answers, so DOWN. */
    @Test
    void refusedConnectsWithSilentSessionsStillMarkTheOriginDown() throws Exception {
        StubDatabase db = StubDatabase.reset("fd-silent");
        pool = new ConnectionPool(Pools.stub(db).listener(events).minSize(1).maxSize(2).downAfterFailures(3)
                .creationBackoffMax(Duration.ofMillis(200)).borrowTimeout(Duration.ofMillis(300)).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");
        Connection held = pool.borrow();
        LockSupport.parkNanos(Duration.ofMillis(1500).toNanos()); // past the 1 s window: the session is silent
        db.down(true);
        AtomicBoolean stop = new AtomicBoolean();
        Thread borrower = new Thread(() -> { // a waiter: the creator tries to open a second connection
            while (!stop.get()) {
                try (Connection c = pool.borrow()) {
                    c.createStatement().execute("SELECT 1");
                } catch (java.sql.SQLException expected) {
                    // a borrow timeout: the only session is held
                }
            }
        });
        borrower.start();
        try {
            Pools.await(pool, s -> s.origins().get(0).state() == OriginState.DOWN,
                    "DOWN: connects refused and its session silent");
        } finally {
            stop.set(true);
            borrower.join(10_000);
            held.abort(INLINE);
        }
        assertThat(events.events).noneMatch(e -> e.type() == PoolEvent.Type.ORIGIN_STATE
                && e.detail().contains("refusing new sessions"));
    }

    /** Every session busy past the silence window, and the server refuses a login (a rotated password): the
     * server answered the connect, so the busy session is a slow statement, not silence. */
    @Test
    void aRefusedLoginWhileEverySessionIsBusyIsNotSilence() throws Exception {
        StubDatabase db = StubDatabase.reset("fd-busy").requirePassword("s3cret-pw");
        pool = new ConnectionPool(Pools.stub(db).listener(events).minSize(1).maxSize(2).downAfterFailures(3)
                .creationBackoffMax(Duration.ofMillis(100)).borrowTimeout(Duration.ofMillis(300)).config());
        Pools.await(pool, s -> s.available() == 1, "1 idle");
        Connection held = pool.borrow();
        LockSupport.parkNanos(Duration.ofMillis(1500).toNanos()); // past the 1 s window
        db.requirePassword("rotated");
        AtomicBoolean stop = new AtomicBoolean();
        Thread borrower = new Thread(() -> { // a waiter: the creator tries to open a second connection
            while (!stop.get()) {
                try (Connection c = pool.borrow()) {
                    c.createStatement().execute("SELECT 1");
                } catch (java.sql.SQLException expected) {
                    // a borrow timeout: the only session is held
                }
            }
        });
        borrower.start();
        long failedBefore = db.failedConnects();
        try {
            Pools.await(pool, s -> db.failedConnects() - failedBefore >= 5, "five refused logins");
        } finally {
            stop.set(true);
            borrower.join(10_000);
        }
        OriginSnapshot o = pool.snapshot().origins().get(0);
        assertThat(o.state()).as("%s", o.stateReason()).isEqualTo(OriginState.UP);
        assertThat(o.refusingNewSessions()).isTrue();
        assertThat(held.isClosed()).isFalse();
        assertThat(held.isValid(1)).as("the busy session still works").isTrue();
        held.close();
    }

    @Test
    void aHoldersOwnAbortsDoNotMarkTheOriginDown() throws Exception {
        StubDatabase db = StubDatabase.reset("fd-aborts");
        pool = new ConnectionPool(Pools.stub(db).listener(events).minSize(3).maxSize(3).downAfterFailures(3)
                .config());
        Pools.await(pool, s -> s.available() == 3, "3 idle");
        db.connectDelay(Duration.ofMillis(300)); // no replacement lands between the aborts
        Connection[] held = {pool.borrow(), pool.borrow(), pool.borrow()};
        for (Connection c : held) {
            c.abort(INLINE);
        }
        Pools.await(pool, s -> s.available() == 3, "replaced");
        assertThat(pool.snapshot().origins().get(0).state()).as("after three aborts by holders")
                .isEqualTo(OriginState.UP);
    }

    @Test
    void idleConnectionsAFirewallKilledDoNotMarkTheOriginDown() throws Exception {
        ManualTicker clock = new ManualTicker();
        StubDatabase db = StubDatabase.reset("fd-firewall");
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).listener(events).minSize(3).maxSize(3)
                .keepaliveInterval(Duration.ofMinutes(1)).downAfterFailures(3).config());
        Pools.await(pool, s -> s.available() == 3, "3 idle");
        db.connectDelay(Duration.ofMillis(300)); // no replacement lands between the validations

        db.killLiveConnections();
        clock.advance(Duration.ofMinutes(2));
        pool.housekeeper.pass(); // keepalive validates the three: all fail
        Pools.keepalivesDone(pool);
        Pools.closesDone(pool);

        assertThat(events.events).as("three failed validations closed them")
                .filteredOn(e -> e.reason() == dev.slotpool.CloseReason.VALIDATION_FAILED).hasSize(3);
        assertThat(pool.snapshot().origins().get(0).state()).isEqualTo(OriginState.UP);
        Pools.await(pool, s -> s.available() == 3, "replaced by new connections");
    }

    @Test
    void connectionLevelErrorsInARowStillMarkTheOriginDown() throws Exception {
        StubDatabase db = StubDatabase.reset("fd-08");
        pool = new ConnectionPool(Pools.stub(db).listener(events).minSize(1).maxSize(1).downAfterFailures(3)
                .config());
        db.failNextQueries(3, "08006");
        for (int i = 0; i < 3; i++) {
            Pools.await(pool, s -> s.available() == 1 || s.origins().get(0).state() != OriginState.UP, "a connection");
            try (Connection c = pool.borrow()) {
                c.createStatement().execute("SELECT 1");
            } catch (java.sql.SQLException expected) {
                // 08006: the connection is evicted
            }
        }
        Pools.await(pool, s -> s.origins().get(0).state() == OriginState.DOWN, "DOWN after three 08 errors");
    }

    @Test
    void aTimeoutAfterTheOriginRecoveredChainsNoStaleFailure() throws Exception {
        StubDatabase db = StubDatabase.reset("fd-stale").failNextConnects(2);
        pool = new ConnectionPool(Pools.stub(db).listener(events).minSize(1).maxSize(1)
                .borrowTimeout(Duration.ofMillis(200)).config());
        Pools.await(pool, s -> s.available() == 1, "connected after two failed connects");

        try (Connection held = pool.borrow()) {
            java.sql.SQLTransientConnectionException timeout = org.assertj.core.api.Assertions.catchThrowableOfType(
                    java.sql.SQLTransientConnectionException.class, pool::borrow);
            assertThat((Throwable) timeout).isNotNull();
            assertThat(timeout.getCause()).as("the cause of a timeout long after the connects recovered").isNull();
            assertThat(pool.snapshot().lastCreationFailure()).isEmpty();
        }
    }
}
