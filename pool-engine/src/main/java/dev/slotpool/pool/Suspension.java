package dev.slotpool.pool;

import dev.slotpool.PoolSnapshot;
import dev.slotpool.pool.ground.Origin;
import dev.slotpool.pool.origin.OriginOperations;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Checkpoint and restore of a running pool (docs/architecture.md, Checkpoint and restore): {@link #suspend} takes
 * every origin DOWN (idle connections closed at once, borrowed ones at return, aborted at the timeout; no creation,
 * no probe) and waits until no connection is open; {@link #resume} brings back the origins it took down, and the
 * creator refills the pool to {@code minSize}. Borrowers meanwhile wait and time out with every origin's state
 * in the message. The origin states change by CAS ({@link OriginOperations}); the set to bring back is one
 * {@link AtomicReference}, so concurrent or repeated calls need no lock.
 */
public final class Suspension {

    static final String REASON = "suspended for checkpoint";

    /** How often {@link #suspend} looks whether the last connection closed. */
    private static final long POLL_NANOS = 10_000_000L;

    private final OriginOperations operations;
    private final Supplier<PoolSnapshot> snapshot;
    /** The aborts at the timeout run on the housekeeper: waiting a period more lets the last one land. */
    private final Duration housekeepingPeriod;
    /** The origins to bring back at resume; null when not suspended. */
    private final AtomicReference<List<Origin>> toResume = new AtomicReference<>();

    Suspension(OriginOperations operations, Supplier<PoolSnapshot> snapshot, Duration housekeepingPeriod) {
        this.operations = operations;
        this.snapshot = snapshot;
        this.housekeepingPeriod = housekeepingPeriod;
    }

    /**
     * Takes the pool out of service and waits up to {@code timeout} plus one housekeeping period (the aborts at
     * the timeout run on the housekeeper) until no connection is open or being opened.
     *
     * @return whether the pool got to no connection in time
     * @throws InterruptedException if the waiting thread is interrupted (the pool stays suspended)
     */
    public boolean suspend(Duration timeout) throws InterruptedException {
        List<Origin> down = operations.suspendAll(REASON, timeout);
        toResume.accumulateAndGet(down, (was, now) -> {
            List<Origin> all = was == null ? new ArrayList<>() : new ArrayList<>(was);
            now.stream().filter(o -> !all.contains(o)).forEach(all::add);
            return List.copyOf(all);
        });
        long deadline = System.nanoTime() + timeout.toNanos() + housekeepingPeriod.toNanos();
        while (!empty(snapshot.get())) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(POLL_NANOS / 1_000_000L);
        }
        return true;
    }

    /** Brings back the origins {@link #suspend} took down; the creator refills to {@code minSize}. */
    public void resume() {
        List<Origin> down = toResume.getAndSet(null);
        if (down != null) {
            operations.resumeAll(down, "resumed after restore");
        }
    }

    /** Whether the pool is suspended: taken down by {@link #suspend} and not resumed since. */
    public boolean suspended() {
        return toResume.get() != null;
    }

    private static boolean empty(PoolSnapshot s) {
        return s.total() == 0 && s.creating() == 0 && s.closing() == 0;
    }
}
