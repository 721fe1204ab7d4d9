package dev.slotpool.pool;

import dev.slotpool.BorrowObserver;
import dev.slotpool.CredentialsProvider;
import dev.slotpool.LabeledConnection;
import dev.slotpool.LabelingCallback;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotState;
import dev.slotpool.SqlExceptionOverride;
import dev.slotpool.testsupport.OwnThread;
import dev.slotpool.testsupport.StubDatabase;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * User code (listeners, the borrow observer, the labeling callback, the exception override) runs only before or
 * after a transition, and whatever {@link Throwable} it throws, an {@link Error} or a real
 * {@link StackOverflowError} included, never reaches the pool's caller and leaves every invariant intact: once
 * every holder has returned, no slot is left BORROWED, RESERVED or CLOSING, nobody is counted waiting, the pool's
 * and the driver's opened − closed equal the live slots (S2), the room taken equals them (S3), and after close()
 * the driver has nothing open.
 *
 * <p>Each case runs one workload (fill, borrow and return, a borrower waiting for a hand-off) and collects what
 * reached the caller rather than stopping at the first failure, so a broken pool shows every invariant it broke.
 */
class ThrowingUserCodeTest {

    /** How a piece of user code fails. */
    enum Failure {
        /** {@code throw new Error("boom")}. */
        ERROR,
        /** Recursion that never ends: the JVM throws a StackOverflowError out of the user's frames. */
        STACK_OVERFLOW;

        void raise() {
            if (this == ERROR) {
                throw new Error("boom");
            }
            recurse(0);
        }

        private static int recurse(int depth) {
            return recurse(depth + 1) + 1;
        }
    }

    /** Where a listener throws. */
    enum ListenerCall { ON_START, ON_EVENT, ON_BORROW, ON_RETURN }

    static Stream<Arguments> listenerCalls() {
        return Stream.of(ListenerCall.values())
                .flatMap(call -> Stream.of(Failure.values()).map(f -> Arguments.of(call, f)));
    }

    @ParameterizedTest(name = "{0} throws {1}")
    @MethodSource("listenerCalls")
    void aListenerThatThrowsAnythingBreaksNothing(ListenerCall call, Failure failure) throws Exception {
        PoolListener listener = new PoolListener() {
            @Override
            public void onStart(PoolConfig config) {
                throwIf(ListenerCall.ON_START);
            }

            @Override
            public void onEvent(PoolEvent event) {
                throwIf(ListenerCall.ON_EVENT);
            }

            @Override
            public void onBorrow(String origin, long waitNanos) {
                throwIf(ListenerCall.ON_BORROW);
            }

            @Override
            public void onReturn(String origin, long heldNanos) {
                throwIf(ListenerCall.ON_RETURN);
            }

            private void throwIf(ListenerCall here) {
                if (here == call) {
                    failure.raise();
                }
            }
        };
        StubDatabase db = StubDatabase.reset("throwing-listener");
        run(db, Pools.stub(db).listener(listener), Workload.PLAIN);
    }

    /** Where the borrow observer throws. */
    enum ObserverCall { STARTED, ENDED }

    @ParameterizedTest(name = "{0} throws")
    @EnumSource(ObserverCall.class)
    void aBorrowObserverThatThrowsAnErrorBreaksNothing(ObserverCall call) throws Exception {
        BorrowObserver observer = new BorrowObserver() {
            @Override
            public Object started(String pool) {
                if (call == ObserverCall.STARTED) {
                    throw new Error("boom");
                }
                return "token";
            }

            @Override
            public void ended(Object started, String origin, long waitNanos, Throwable failed) {
                if (call == ObserverCall.ENDED) {
                    throw new Error("boom");
                }
            }
        };
        StubDatabase db = StubDatabase.reset("throwing-observer");
        run(db, Pools.stub(db).borrowObserver(observer), Workload.PLAIN);
    }

    /** Where the labeling callback throws. */
    enum LabelingCall { COST, CONFIGURE }

    @ParameterizedTest(name = "{0} throws")
    @EnumSource(LabelingCall.class)
    void aLabelingCallbackThatThrowsAnErrorBreaksNothing(LabelingCall call) throws Exception {
        LabelingCallback labeling = new LabelingCallback() {
            @Override
            public int cost(Map<String, String> requested, Map<String, String> current) {
                if (call == LabelingCall.COST) {
                    throw new Error("boom");
                }
                return requested.equals(current) ? 0 : 1;
            }

            @Override
            public boolean configure(Map<String, String> requested, Connection connection) throws SQLException {
                if (call == LabelingCall.CONFIGURE) {
                    throw new Error("boom");
                }
                for (Map.Entry<String, String> label : requested.entrySet()) {
                    ((LabeledConnection) connection).applyLabel(label.getKey(), label.getValue());
                }
                return true;
            }
        };
        StubDatabase db = StubDatabase.reset("throwing-labeling");
        run(db, Pools.stub(db).labeling(labeling), Workload.LABELED);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Failure.class)
    void aCredentialsProviderThatThrowsFailsOnlyThatConnect(Failure failure) throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CredentialsProvider provider = origin -> {
            if (calls.incrementAndGet() <= 2) {
                failure.raise();
            }
            return new CredentialsProvider.Credentials("app", "s3cret-pw");
        };
        StubDatabase db = StubDatabase.reset("throwing-credentials");
        run(db, Pools.stub(db).credentialsProvider(provider).downAfterFailures(0), Workload.PLAIN);
        assertThat(calls.get()).as("the provider was asked again after it failed").isGreaterThan(2);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Failure.class)
    void anExceptionOverrideThatThrowsIsIgnoredForThatError(Failure failure) throws Exception {
        StubDatabase db = StubDatabase.reset("throwing-override");
        SqlExceptionOverride override = e -> {
            failure.raise();
            return SqlExceptionOverride.Decision.DO_NOT_EVICT;
        };
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).downAfterFailures(0)
                .exceptionOverride(override).config());
        try {
            db.failNextQueries(1, "57P01");
            Throwable seen = null;
            try (Connection c = pool.borrow(); Statement st = c.createStatement()) {
                st.execute("SELECT 1");
            } catch (Throwable t) {
                seen = t;
            }
            assertThat(seen).as("the holder gets the driver's error, not the override's")
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "57P01");
            try (Connection c = pool.borrow()) {
                assertThat(c.isValid(1)).isTrue();
            }
            assertThat(db.opened()).as("the built-in rules evicted the connection (57P01)").isEqualTo(2);
            assertIntact(pool, db, List.of());
        } finally {
            pool.close();
        }
        assertThat(db.opened()).as("opened = closed after close()").isEqualTo(db.closed());
    }

    /** What a case does with its pool. */
    enum Workload { PLAIN, LABELED }

    /**
     * Builds the pool (minSize 2, maxSize 3), runs the workload, then checks the invariants and that nothing
     * thrown by user code reached the caller; closes the pool and checks the driver has nothing open.
     */
    private static void run(StubDatabase db, SlotPoolBuilder builder, Workload workload) throws Exception {
        List<Throwable> reachedCaller = new CopyOnWriteArrayList<>();
        ConnectionPool pool;
        try {
            pool = new ConnectionPool(builder.minSize(2).maxSize(3).borrowTimeout(Duration.ofSeconds(2)).config());
        } catch (Throwable t) {
            throw new AssertionError("building the pool threw", t);
        }
        try {
            exercise(pool, workload, reachedCaller);
            assertIntact(pool, db, reachedCaller);
        } finally {
            pool.close();
        }
        assertThat(db.opened()).as("the driver's opened = closed after close() (S2)").isEqualTo(db.closed());
    }

    /** Fills, borrows and returns ten times, then holds every connection while a fourth borrower waits. */
    private static void exercise(ConnectionPool pool, Workload workload, List<Throwable> reachedCaller) {
        waitUpTo(Duration.ofSeconds(5), () -> pool.table.count(SlotState.AVAILABLE) >= 2);
        for (int i = 0; i < 10; i++) {
            Connection c = borrow(pool, workload, reachedCaller);
            giveBack(c, reachedCaller);
        }
        Connection[] held = new Connection[3];
        for (int i = 0; i < held.length; i++) {
            held[i] = borrow(pool, workload, reachedCaller);
        }
        CompletableFuture<Connection> waiter = OwnThread.supply(() -> borrow(pool, workload,
                reachedCaller));
        waitUpTo(Duration.ofSeconds(5), () -> pool.table.waiting() > 0 || waiter.isDone());
        for (Connection c : held) {
            giveBack(c, reachedCaller);
        }
        try {
            giveBack(waiter.get(20, TimeUnit.SECONDS), reachedCaller);
        } catch (Exception e) {
            reachedCaller.add(e);
        }
    }

    private static Connection borrow(ConnectionPool pool, Workload workload, List<Throwable> reachedCaller) {
        try {
            return workload == Workload.PLAIN ? pool.borrow() : pool.borrow(Map.of("tenant", "acme"));
        } catch (SQLException e) {
            if (workload == Workload.PLAIN) {
                reachedCaller.add(e);
            }
            // A labeled borrow whose callback cannot configure fails with an SQLException by contract.
            return null;
        } catch (Throwable t) {
            reachedCaller.add(t);
            return null;
        }
    }

    private static void giveBack(Connection c, List<Throwable> reachedCaller) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Throwable t) {
            reachedCaller.add(t);
        }
    }

    /** S1–S3 once every holder has returned and the pool's background work has settled. */
    private static void assertIntact(ConnectionPool pool, StubDatabase db, List<Throwable> reachedCaller) {
        waitUpTo(Duration.ofSeconds(10), () -> pool.closer.pending() == 0 && pool.capacity.creating() == 0
                && pool.table.count(SlotState.CLOSING) == 0 && pool.table.count(SlotState.RESERVED) == 0);
        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(reachedCaller.stream().map(Throwable::toString).toList())
                .as("user code's throwables that reached the pool's caller").isEmpty();
        soft.assertThat(pool.table.count(SlotState.BORROWED)).as("slots left BORROWED after every return").isZero();
        soft.assertThat(pool.table.count(SlotState.RESERVED)).as("slots left RESERVED").isZero();
        soft.assertThat(pool.table.count(SlotState.CLOSING)).as("slots left CLOSING").isZero();
        soft.assertThat(pool.table.waiting()).as("waiting()").isZero();
        int live = pool.table.count(SlotState.AVAILABLE);
        soft.assertThat(pool.capacity.opened() - pool.capacity.closed()).as("pool's opened − closed = live (S2)")
                .isEqualTo(live);
        soft.assertThat(db.opened() - db.closed()).as("driver's opened − closed = live (S2)").isEqualTo(live);
        soft.assertThat(pool.capacity.occupied()).as("room taken = live (S3)").isEqualTo(live);
        soft.assertThat(pool.snapshot().borrowed()).as("snapshot: borrowed").isZero();
        soft.assertThat(pool.snapshot().available()).as("snapshot: available").isEqualTo(live);
        soft.assertAll();
    }

    private static void waitUpTo(Duration bound, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
