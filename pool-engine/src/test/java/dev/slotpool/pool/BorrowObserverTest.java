package dev.slotpool.pool;

import dev.slotpool.BorrowObserver;
import dev.slotpool.LabelingCallback;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A {@link BorrowObserver} wraps each borrow on the borrowing thread, and never breaks one. */
class BorrowObserverTest {

    private record Ended(Object started, String origin, long waitNanos, Throwable failure, Thread thread) {
    }

    private static final class Recording implements BorrowObserver {
        final List<String> started = new CopyOnWriteArrayList<>();
        final List<Ended> ended = new CopyOnWriteArrayList<>();
        volatile boolean fail;

        @Override
        public Object started(String pool) {
            started.add(pool + "@" + Thread.currentThread().getName());
            if (fail) {
                throw new IllegalStateException("observer broke");
            }
            return "token-" + started.size();
        }

        @Override
        public void ended(Object started, String origin, long waitNanos, Throwable failure) {
            ended.add(new Ended(started, origin, waitNanos, failure, Thread.currentThread()));
            if (fail) {
                throw new IllegalStateException("observer broke");
            }
        }
    }

    @Test
    void aBorrowTakenAtOnceIsObservedWithItsOriginAndNoWait() throws Exception {
        Recording observer = new Recording();
        ConnectionPool pool = new ConnectionPool(Pools.stub(StubDatabase.reset("obs-once")).minSize(1).maxSize(1)
                .borrowObserver(observer).config());
        try {
            Pools.await(pool, s -> s.available() == 1, "1 idle");
            try (Connection c = pool.borrow()) {
                assertThat(c.isValid(1)).isTrue();
            }
            assertThat(observer.started).containsExactly("test@" + Thread.currentThread().getName());
            assertThat(observer.ended).singleElement().satisfies(e -> {
                assertThat(e.started()).isEqualTo("token-1");
                assertThat(e.origin()).isEqualTo("default");
                assertThat(e.waitNanos()).as("taken at once").isZero();
                assertThat(e.failure()).isNull();
                assertThat(e.thread()).isSameAs(Thread.currentThread());
            });
        } finally {
            pool.close();
        }
    }

    @Test
    void aBorrowThatWaitsReportsItsWait() throws Exception {
        Recording observer = new Recording();
        ConnectionPool pool = new ConnectionPool(Pools.stub(StubDatabase.reset("obs-wait")).minSize(1).maxSize(1)
                .borrowTimeout(Duration.ofSeconds(10)).borrowObserver(observer).config());
        try {
            Pools.await(pool, s -> s.available() == 1, "1 idle");
            Connection held = pool.borrow();
            Thread waiter = new Thread(() -> {
                try (Connection c = pool.borrow()) {
                    assertThat(c).isNotNull();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            waiter.start();
            Pools.await(pool, s -> s.waiting() == 1, "a waiter");
            held.close();
            waiter.join(10_000);
            assertThat(observer.ended).hasSize(2);
            assertThat(observer.ended.get(1).waitNanos()).as("the second borrow waited").isPositive();
            assertThat(observer.ended.get(1).thread()).isSameAs(waiter);
        } finally {
            pool.close();
        }
    }

    @Test
    void aTimedOutBorrowIsObservedAsAFailure() throws Exception {
        Recording observer = new Recording();
        ConnectionPool pool = new ConnectionPool(Pools.stub(StubDatabase.reset("obs-timeout")).minSize(1).maxSize(1)
                .borrowTimeout(Duration.ofMillis(50)).borrowObserver(observer).config());
        try {
            Pools.await(pool, s -> s.available() == 1, "1 idle");
            try (Connection held = pool.borrow()) {
                assertThatThrownBy(pool::borrow).isInstanceOf(SQLTransientConnectionException.class);
            }
            Ended failed = observer.ended.get(1);
            assertThat(failed.origin()).isNull();
            assertThat(failed.waitNanos()).isEqualTo(-1);
            assertThat(failed.failure()).isInstanceOf(SQLTransientConnectionException.class);
        } finally {
            pool.close();
        }
    }

    @Test
    void aLabeledBorrowIsObservedOnce() throws Exception {
        Recording observer = new Recording();
        LabelingCallback anything = new LabelingCallback() {
            @Override
            public int cost(Map<String, String> requested, Map<String, String> current) {
                return 0;
            }

            @Override
            public boolean configure(Map<String, String> requested, Connection connection) {
                return true;
            }
        };
        ConnectionPool pool = new ConnectionPool(Pools.stub(StubDatabase.reset("obs-label")).minSize(1).maxSize(1)
                .labeling(anything).borrowObserver(observer).config());
        try {
            Pools.await(pool, s -> s.available() == 1, "1 idle");
            try (Connection c = pool.borrow(Map.of("tenant", "acme"))) {
                assertThat(c).isNotNull();
            }
            assertThat(observer.started).hasSize(1);
            assertThat(observer.ended).singleElement().satisfies(e -> assertThat(e.origin()).isEqualTo("default"));
        } finally {
            pool.close();
        }
    }

    @Test
    void anObserverThatThrowsDoesNotBreakTheBorrow() throws Exception {
        Recording observer = new Recording();
        observer.fail = true;
        ConnectionPool pool = new ConnectionPool(Pools.stub(StubDatabase.reset("obs-broken")).minSize(1).maxSize(1)
                .borrowObserver(observer).config());
        try {
            Pools.await(pool, s -> s.available() == 1, "1 idle");
            try (Connection c = pool.borrow()) {
                assertThat(c.isValid(1)).isTrue();
            }
            assertThat(observer.ended).hasSize(1);
            assertThat(pool.snapshot().borrowed()).as("the connection went back").isZero();
        } finally {
            pool.close();
        }
    }
}
