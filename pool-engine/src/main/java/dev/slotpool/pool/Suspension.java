package dev.slotpool.pool;

import dev.slotpool.PoolSnapshot;
import dev.slotpool.failover.OriginOperations;
import dev.slotpool.slots.Capacity;
import dev.slotpool.snapshots.Snapshots;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Checkpoint and restore of a running pool (docs/architecture.md, Checkpoint and restore): {@link #suspend} takes
 * every origin DOWN (idle connections closed at once, borrowed ones at return, aborted at the timeout; no creation,
 * no probe, no role watch session) and waits until no connection is open; {@link #resume} brings back the origins
 * it took down (a standby out for its role comes back out for it), and the creator refills the pool to
 * {@code minSize}. Borrowers meanwhile wait and time out with every origin's state in the message. The origin
 * states change by CAS, and which to bring back is kept, by {@link OriginOperations}, so concurrent or repeated
 * calls need no lock.
 */
public final class Suspension {

    static final String REASON = "suspended for checkpoint";

    /** How often {@link #suspend} looks whether the last connection closed. */
    private static final long POLL_NANOS = 10_000_000L;

    private final OriginOperations operations;
    private final Snapshots snapshots;
    /** The sessions the pool holds for itself (a role watch's, a switchover's), which snapshots do not count. */
    private final Capacity capacity;
    /** The aborts at the timeout run on the housekeeper: waiting a period more lets the last one land. */
    private final Duration housekeepingPeriod;
    private final AtomicBoolean suspended = new AtomicBoolean();

    Suspension(OriginOperations operations, Snapshots snapshots, Capacity capacity,
               Duration housekeepingPeriod) {
        this.operations = operations;
        this.snapshots = snapshots;
        this.capacity = capacity;
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
        suspended.set(true);
        operations.suspendAll(REASON, timeout);
        long deadline = System.nanoTime() + timeout.toNanos() + housekeepingPeriod.toNanos();
        while (!empty(snapshots.counts()) || capacity.sessions() > 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(POLL_NANOS / 1_000_000L);
        }
        return true;
    }

    /** Brings back the origins {@link #suspend} took down; the creator refills to {@code minSize}. */
    public void resume() {
        if (suspended.getAndSet(false)) {
            operations.resumeAll("resumed after restore");
        }
    }

    /** Whether the pool is suspended: taken down by {@link #suspend} and not resumed since. */
    public boolean suspended() {
        return suspended.get();
    }

    private static boolean empty(PoolSnapshot s) {
        return s.total() == 0 && s.creating() == 0 && s.closing() == 0;
    }
}
