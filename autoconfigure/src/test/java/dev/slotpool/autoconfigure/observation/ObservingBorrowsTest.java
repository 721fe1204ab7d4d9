package dev.slotpool.autoconfigure.observation;

import dev.slotpool.PoolListener;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each borrow is a {@code slotpool.borrow} observation, in scope while the pool looks for a connection. */
class ObservingBorrowsTest {

    private static SlotPoolDataSource pool(String db, ObservationRegistry registry, PoolListener listener) {
        return SlotPoolDataSource.builder().name("obs").url(StubDatabase.reset(db).url())
                .minSize(1).maxSize(1).borrowTimeout(Duration.ofMillis(100))
                .listener(listener)
                .borrowObserver(new ObservingBorrows(registry, null)).build();
    }

    @Test
    void aBorrowIsAnObservationWithPoolOriginOutcomeAndWait() throws Exception {
        TestObservationRegistry registry = TestObservationRegistry.create();
        AtomicReference<Observation> currentWhileLending = new AtomicReference<>();
        PoolListener listener = new PoolListener() {
            @Override
            public void onBorrow(String origin, long waitNanos) {
                currentWhileLending.set(registry.getCurrentObservation());
            }
        };
        try (SlotPoolDataSource ds = pool("obs-ok", registry, listener)) {
            awaitIdle(ds);
            try (Connection c = ds.getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
            assertThat(currentWhileLending.get()).as("the borrow's observation is current on the borrowing thread")
                    .isNotNull();
            assertThat(currentWhileLending.get().getContext().getName()).isEqualTo("slotpool.borrow");
            assertThat(registry.getCurrentObservation()).as("its scope is closed after the borrow").isNull();
        }
        assertThat(registry).hasSingleObservationThat()
                .hasNameEqualTo("slotpool.borrow")
                .hasContextualNameEqualTo("slotpool borrow")
                .hasBeenStarted().hasBeenStopped()
                .hasLowCardinalityKeyValue("pool", "obs")
                .hasLowCardinalityKeyValue("origin", "default")
                .hasLowCardinalityKeyValue("outcome", "ok")
                .hasLowCardinalityKeyValue("waited", "false")
                .doesNotHaveError();
    }

    @Test
    void aTimeoutIsAnObservationWithItsError() throws Exception {
        TestObservationRegistry registry = TestObservationRegistry.create();
        try (SlotPoolDataSource ds = pool("obs-timeout", registry, new PoolListener() { })) {
            awaitIdle(ds);
            try (Connection held = ds.getConnection()) {
                assertThatThrownBy(ds::getConnection).isInstanceOf(SQLTransientConnectionException.class);
            }
        }
        assertThat(registry).hasNumberOfObservationsEqualTo(2)
                .hasAnObservation(o -> o.hasLowCardinalityKeyValue("outcome", "ok").doesNotHaveError())
                .hasAnObservation(o -> o.hasLowCardinalityKeyValue("outcome", "timeout")
                        .hasLowCardinalityKeyValue("origin", "none")
                        .hasLowCardinalityKeyValue("waited", "true")
                        .assertThatError().isInstanceOf(SQLTransientConnectionException.class));
    }

    @Test
    void aRegistryWithoutHandlersCostsNoObservation() throws Exception {
        ObservationRegistry noop = ObservationRegistry.create();
        ObservingBorrows observer = new ObservingBorrows(noop, null);
        assertThat(observer.started("obs")).as("nothing is started for a registry without handlers").isNull();
        observer.ended(null, "default", 0, null);
    }

    private static void awaitIdle(SlotPoolDataSource ds) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (ds.snapshot().available() < 1) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no idle connection: " + ds.snapshot().summary());
            }
            Thread.sleep(5);
        }
    }
}
