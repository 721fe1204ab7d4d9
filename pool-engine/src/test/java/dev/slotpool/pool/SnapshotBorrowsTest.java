package dev.slotpool.pool;

import dev.slotpool.PoolSnapshot;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A snapshot's borrow counts only grow: a connection's borrows move from its slot to its origin's retired count
 * when the closer empties the slot, and a snapshot taken meanwhile must count them once, not twice or never.
 */
class SnapshotBorrowsTest {

    @Test
    void theBorrowCountNeverGoesBackWhileConnectionsAreClosed() throws Exception {
        StubDatabase db = StubDatabase.reset("snapshot-borrows");
        ConnectionPool pool = new ConnectionPool(Pools.stub(db).name("snapshot-borrows").minSize(4).maxSize(4)
                .downAfterFailures(0).config());
        try {
            Pools.await(pool, s -> s.available() == 4, "4 idle");
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                Thread w = new Thread(() -> {
                    while (!stop.get()) {
                        try {
                            Connection c = pool.borrow();
                            if (ThreadLocalRandom.current().nextInt(4) == 0) {
                                c.abort(Runnable::run); // closed by the closer; the creator replaces it
                            } else {
                                c.close();
                            }
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    }
                }, "snapshot-borrows-" + t);
                w.start();
                workers.add(w);
            }
            long previous = 0;
            long backwards = 0;
            long snapshots = 0;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() - end < 0) {
                PoolSnapshot s = pool.snapshot();
                if (s.borrows() < previous) {
                    backwards++;
                }
                previous = Math.max(previous, s.borrows());
                snapshots++;
            }
            stop.set(true);
            for (Thread w : workers) {
                w.join(10_000);
            }
            assertThat(failure.get()).isNull();
            assertThat(pool.capacity.closed()).as("connections closed meanwhile").isGreaterThan(100);
            assertThat(backwards).as("snapshots whose borrow count went back, of %d", snapshots).isZero();
        } finally {
            pool.close();
        }
    }
}
