package dev.slotpool.pool;

import dev.slotpool.PoolEvent;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.table.Slot;
import dev.slotpool.table.StandInWaiter;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A borrower handed a new connection stays counted in the queue until its thread runs again, which on a loaded
 * machine can take a while. The creator must not open another connection for it meanwhile (docs/architecture.md,
 * "Creation": creations follow the waiters that still wait).
 */
class ServedWaiterTest {

    private ConnectionPool pool;
    private StandInWaiter<PooledConnection> waiter;

    @AfterEach
    void close() {
        if (waiter != null) {
            Slot<PooledConnection> handed = waiter.handed();
            waiter.leave();
            if (handed != null) {
                pool.table.release(handed);
            }
        }
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void aWaiterHandedANewConnectionGetsNoSecondOne() {
        StubDatabase db = StubDatabase.reset("served-waiter");
        RecordedEvents ev = new RecordedEvents();
        pool = new ConnectionPool(Pools.stub(db).minSize(0).maxSize(3).listener(ev).config());
        waiter = StandInWaiter.enqueue(pool.table);
        pool.creator.signal();
        Pools.await(pool, s -> waiter.handed() != null, "the new connection handed to the waiter");

        // While anyone is counted waiting the creator plans again every 5 ms; before the fix it opened a second
        // connection for this waiter within one of those rounds.
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
        while (System.nanoTime() < until) {
            pool.creator.signal();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        // Counted by what was lent, not by connects: an origin whose only connection stays borrowed is probed as
        // stuck (docs/architecture.md, "Failure detection"), a connect that is no creation.
        assertThat(ev.events).filteredOn(e -> e.type() == PoolEvent.Type.CREATED).as("connections created")
                .hasSize(1);
        assertThat(pool.snapshot().total()).isEqualTo(1);
    }
}
