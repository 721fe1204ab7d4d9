package dev.slotpool.pool;

import dev.slotpool.LabeledConnection;
import dev.slotpool.LabelingCallback;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LabelsAndListenersTest {

    /** Cost = number of requested labels the connection lacks; configure applies them. */
    private static final class CountingLabeling implements LabelingCallback {
        final AtomicInteger configured = new AtomicInteger();
        volatile boolean refuse;

        @Override
        public int cost(Map<String, String> requested, Map<String, String> current) {
            int missing = 0;
            for (var e : requested.entrySet()) {
                if (!e.getValue().equals(current.get(e.getKey()))) {
                    missing++;
                }
            }
            return missing;
        }

        @Override
        public boolean configure(Map<String, String> requested, Connection connection) throws SQLException {
            configured.incrementAndGet();
            if (refuse) {
                return false;
            }
            for (var e : requested.entrySet()) {
                ((LabeledConnection) connection).applyLabel(e.getKey(), e.getValue());
            }
            return true;
        }
    }

    @Test
    void aConnectionWithMatchingLabelsIsPreferredAndOthersAreConfigured() throws Exception {
        StubDatabase db = StubDatabase.reset("labels");
        CountingLabeling labeling = new CountingLabeling();
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(3).maxSize(3).labeling(labeling).config());
        try {
            Pools.await(pool, s -> s.available() == 3, "3 idle");
            StubConnection tagged;
            try (Connection c = pool.borrow(Map.of("tenant", "acme"))) {
                assertThat(((LabeledConnection) c).labels()).containsEntry("tenant", "acme");
                tagged = c.unwrap(StubConnection.class);
            }
            assertThat(labeling.configured.get()).isEqualTo(1);
            for (int i = 0; i < 20; i++) {
                try (Connection c = pool.borrow(Map.of("tenant", "acme"))) {
                    assertThat(c.unwrap(StubConnection.class)).as("cost 0 is taken at once").isSameAs(tagged);
                }
            }
            assertThat(labeling.configured.get()).as("no reconfiguration for a perfect match").isEqualTo(1);
            assertThat(pool.snapshot().origins().get(0).slots())
                    .anySatisfy(s -> assertThat(s.labels()).containsEntry("tenant", "acme"));

            labeling.refuse = true;
            long closedBefore = db.closed();
            assertThatThrownBy(() -> pool.borrow(Map.of("tenant", "other")))
                    .isInstanceOf(SQLException.class).hasMessageContaining("could not configure");
            Pools.closesDone(pool);
            assertThat(db.closed()).as("the unconfigurable connection is retired").isEqualTo(closedBefore + 1);
        } finally {
            pool.close();
        }
    }

    @Test
    void labeledBorrowWithoutCallbackIsRefusedClearly() throws Exception {
        ConnectionPool pool = new ConnectionPool(Pools.stub(StubDatabase.reset("nolabels")).config());
        try {
            assertThatThrownBy(() -> pool.borrow(Map.of("a", "b"))).hasMessageContaining("labeling callback");
        } finally {
            pool.close();
        }
    }

    @Test
    void aThrowingListenerNeverReachesThePoolOrTheBorrower() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        PoolListener bad = new PoolListener() {
            @Override
            public void onEvent(PoolEvent event) {
                calls.incrementAndGet();
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void onBorrow(String origin, long waitNanos) {
                calls.incrementAndGet();
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void onReturn(String origin, long heldNanos) {
                calls.incrementAndGet();
                throw new IllegalStateException("listener bug");
            }
        };
        StubDatabase db = StubDatabase.reset("badlistener");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).listener(bad).config());
        try {
            for (int i = 0; i < 10; i++) {
                try (Connection c = pool.borrow()) {
                    assertThat(c.isValid(1)).isTrue();
                }
            }
            assertThat(calls.get()).as("CREATED + 10 borrows + 10 returns").isGreaterThanOrEqualTo(21);
            assertThat(pool.snapshot().borrows()).isEqualTo(10);
        } finally {
            pool.close();
        }
    }

    @Test
    void onStartComesOnceAndBeforeAnyOtherCallback() throws Exception {
        java.util.List<String> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
        PoolListener recorder = new PoolListener() {
            @Override
            public void onStart(dev.slotpool.PoolConfig config) {
                calls.add("start:" + config.name() + ":" + config.origins().get(0).name());
            }

            @Override
            public void onEvent(PoolEvent event) {
                calls.add(event.type().name());
            }

            @Override
            public void onBorrow(String origin, long waitNanos) {
                calls.add("borrow");
            }
        };
        StubDatabase db = StubDatabase.reset("onstart");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("p1").minSize(2).maxSize(2).listener(recorder)
                .config());
        try {
            try (Connection c = pool.borrow()) {
                assertThat(c.isValid(1)).isTrue();
            }
            Pools.await(pool, s -> s.total() == 2, "2 connections");
        } finally {
            pool.close();
        }
        assertThat(calls.get(0)).isEqualTo("start:p1:default");
        assertThat(calls.stream().filter(c -> c.startsWith("start:"))).hasSize(1);
        assertThat(calls).contains("CREATED", "borrow");
    }

    /** A CREATED and a CLOSED event name the connection's slot, as the pool's snapshot indexes it. */
    @Test
    void createdAndClosedEventsNameTheSlot() throws Exception {
        java.util.List<PoolEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        PoolListener recorder = new PoolListener() {
            @Override
            public void onEvent(PoolEvent event) {
                events.add(event);
            }
        };
        StubDatabase db = StubDatabase.reset("slotevents");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).minSize(2).maxSize(2).listener(recorder).config());
        java.util.Set<String> slots;
        try {
            Pools.await(pool, s -> s.available() == 2, "2 idle");
            slots = pool.snapshot().origins().get(0).slots().stream().map(s -> "slot " + s.index())
                    .collect(java.util.stream.Collectors.toSet());
        } finally {
            pool.close();
        }
        Pools.closesDone(pool);
        assertThat(events).filteredOn(e -> e.type() == PoolEvent.Type.CREATED).extracting(PoolEvent::detail)
                .containsExactlyInAnyOrderElementsOf(slots);
        assertThat(events).filteredOn(e -> e.type() == PoolEvent.Type.CLOSED).extracting(PoolEvent::detail)
                .containsExactlyInAnyOrderElementsOf(slots);
    }
}
