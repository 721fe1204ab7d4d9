package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotState;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A paced drain closes its origin's idle connections on its pace, whoever meets them first
 * (docs/failover.md, "What each operation guarantees"; docs/reliability.md, 22.5b). The drain's own
 * {@code UP -> DRAINING} event runs its listeners after the status change and before the drain has visited the
 * slots: a borrow or a housekeeping pass made there meets every idle connection of the origin before the drain
 * does, deterministically. A keepalive validating an idle connection across the status change meets it after.
 */
class DrainMetIdleTest {

    private ConnectionPool pool;
    private final List<Connection> held = new CopyOnWriteArrayList<>();
    private final List<Throwable> listenerFailures = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (Connection c : held) {
            c.close();
        }
        if (pool != null) {
            pool.close();
        }
        StubDatabase.reset();
    }

    @Test
    void aBorrowerMeetingADrainingOriginsIdleConnectionsLeavesThemToTheDrainsPace() throws Exception {
        StubDatabase a = StubDatabase.reset("dmi-a"), b = StubDatabase.reset("dmi-b");
        ManualTicker clock = new ManualTicker();
        startWithSixIdleOnA(a, b, clock, builder -> builder, () -> {
            try {
                held.add(pool.borrow());
            } catch (Exception ex) {
                listenerFailures.add(ex);
            }
        });

        pool.operations().drain("a", Duration.ofSeconds(10));

        assertThat(listenerFailures).isEmpty();
        assertThat(held).hasSize(3);
        assertThat(held.get(2).unwrap(StubConnection.class).database().name())
                .as("the borrow in the window is served by b").isEqualTo("dmi-b");
        assertKeptOnThePace(a, clock);
    }

    @Test
    void aHousekeepingPassMeetingADrainingOriginsIdleConnectionsLeavesThemToTheDrainsPace() throws Exception {
        StubDatabase a = StubDatabase.reset("dmh-a"), b = StubDatabase.reset("dmh-b");
        ManualTicker clock = new ManualTicker();
        startWithSixIdleOnA(a, b, clock, builder -> builder, () -> pool.housekeeper.pass());

        pool.operations().drain("a", Duration.ofSeconds(10));

        assertKeptOnThePace(a, clock);
    }

    @Test
    void aKeepaliveHoldingADrainingOriginsIdleConnectionLeavesItToTheDrainsPace() throws Exception {
        StubDatabase a = StubDatabase.reset("dmk-a"), b = StubDatabase.reset("dmk-b");
        ManualTicker clock = new ManualTicker();
        startWithSixIdleOnA(a, b, clock, builder -> builder.keepaliveInterval(Duration.ofMinutes(1))
                .validationTimeout(Duration.ofSeconds(30)), () -> { });
        // The keepalive holds one of a's idle connections (HELD) for its validation's 5 s, so the drain's own visit
        // passes over it and the keepalive meets it with the origin DRAINING once the validation ends. A drain more
        // than 5 s late would find it idle again and queue it itself: the test would then miss the defect, never
        // fail on a sound pool.
        a.validationDelay(Duration.ofSeconds(5));
        clock.advance(Duration.ofMinutes(2));
        pool.housekeeper.pass();
        Pools.await(pool, s -> s.origin("a").orElseThrow().slots().stream()
                .anyMatch(slot -> slot.state() == SlotState.HELD), "a keepalive validation under way on a");

        pool.operations().drain("a", Duration.ofSeconds(10));
        Pools.keepalivesDone(pool);

        assertThat(a.validations()).as("keepalive validations on a").isPositive();
        assertKeptOnThePace(a, clock);
    }

    /**
     * A pool of 6 idle connections on a and 2 on b, b's held (so a borrow can only meet a's), with room for 2 more;
     * {@code inWindow} runs once, from the listener of a's {@code UP -> DRAINING}; {@code settings} adds to the
     * pool's.
     */
    private void startWithSixIdleOnA(StubDatabase a, StubDatabase b, ManualTicker clock,
            UnaryOperator<SlotPoolBuilder> settings, Runnable inWindow) throws Exception {
        PoolListener onDraining = new PoolListener() {
            @Override
            public void onEvent(PoolEvent event) {
                if (event.type() == PoolEvent.Type.ORIGIN_STATE && "a".equals(event.origin())
                        && event.detail().startsWith("UP -> DRAINING")) {
                    inWindow.run();
                }
            }
        };
        pool = new ConnectionPool(settings.apply(Pools.stub(a).url(null).ticker(clock).listener(onDraining)
                .minSize(8).maxSize(10).borrowTimeout(Duration.ofSeconds(30))
                .origin(OriginConfig.named("a").url(a.url()).weight(3))
                .origin(OriginConfig.named("b").url(b.url()).weight(1))).config());
        Pools.fillToShares(pool, s -> s.origin("a").orElseThrow().total() == 6
                && s.origin("b").orElseThrow().total() == 2, "6 on a, 2 on b");
        List<Connection> all = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            all.add(pool.borrow());
        }
        for (Connection c : all) {
            if (c.unwrap(StubConnection.class).database().name().equals(b.name())) {
                held.add(c);
            } else {
                c.close();
            }
        }
        assertThat(held).hasSize(2);
    }

    /** None of a's six closed at the drain's start: all six wait on its pace, and the first comes due at 1/7. */
    private void assertKeptOnThePace(StubDatabase a, ManualTicker clock) {
        Pools.closesDone(pool);
        OriginSnapshot draining = pool.snapshot().origin("a").orElseThrow();
        assertThat(a.closed()).as("a's connections closed at the drain's start").isZero();
        assertThat(draining.closing()).as("queued on the drain's pace").isEqualTo(6);
        assertThat(draining.state()).isEqualTo(OriginState.DRAINING);

        clock.advance(Duration.ofMillis(1_500)); // the first of six closes is due at 1/7 of the 10 s
        pool.housekeeper.wake();
        Pools.await(pool, s -> a.closed() == 1, "the first close on the drain's pace");
        Pools.closesDone(pool);
        assertThat(pool.snapshot().origin("a").orElseThrow().closing()).isEqualTo(5);
    }
}
