package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolConfig;
import dev.slotpool.SlotState;
import dev.slotpool.failover.Failover;
import dev.slotpool.kernel.Loggers;
import dev.slotpool.origins.ConnectAttempt;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.Origins;
import dev.slotpool.slots.Closer;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.supply.Creator;
import dev.slotpool.table.Parking;
import dev.slotpool.table.SlotTable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The steps of {@link ConnectionPool#close()} once the pool's lifecycle is out of OPEN (docs/architecture.md,
 * "Closing"): stop the pool threads and the table, close idle connections, give borrowed ones
 * {@code shutdownTimeout} to come back, then take back the rest, and wait a bounded time at each of three steps
 * for pool threads still in a driver call: creators, the housekeeper, the keepalive, the role watchers and a
 * switchover's worker; interrupted connects; closes. Past that they end on their own and close what they hold (each reads the lifecycle after its store).
 */
final class Shutdown {

    /** How long each of the three waits lasts. */
    private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final PoolConfig config;
    private final SlotTable<PooledConnection> table;
    private final Origins origins;
    private final Closing closing;
    private final Failover failover;
    private final Creator creator;
    private final Housekeeper housekeeper;
    private final Closer closer;

    Shutdown(PoolConfig config, SlotTable<PooledConnection> table, Origins origins, Closing closing,
             Failover failover, Creator creator, Housekeeper housekeeper, Closer closer) {
        this.config = config;
        this.table = table;
        this.origins = origins;
        this.closing = closing;
        this.failover = failover;
        this.creator = creator;
        this.housekeeper = housekeeper;
        this.closer = closer;
    }

    /** The longest close() takes: shutdownTimeout for borrowed connections and connects, then the three waits. */
    static long longestNanos(PoolConfig config) {
        return config.shutdownTimeout().toNanos() + 3 * GRACE_NANOS;
    }

    void run() {
        long began = System.nanoTime();
        failover.stop();
        creator.stop();
        housekeeper.stop();
        table.shutdown();
        failover.drains().closeAll(CloseReason.POOL_CLOSED);
        int idleClosed = closeIdle();
        long deadline = System.nanoTime() + config.shutdownTimeout().toNanos();
        // An interrupted caller stops waiting for the holders (a park would return at once: a busy loop).
        while (table.count(SlotState.BORROWED) > 0 && System.nanoTime() - deadline < 0
                && !Thread.currentThread().isInterrupted()) {
            Parking.park(TimeUnit.MILLISECONDS.toNanos(10));
        }
        int[] swept = new int[2]; // taken back from holders, idle closed
        table.visit((state, e) -> {
            if (state == SlotState.BORROWED) {
                // whatever borrow is still out
                swept[0] += closing.reclaim(e, e.stamp(), CloseReason.POOL_CLOSED) ? 1 : 0;
            } else if (state == SlotState.AVAILABLE) {
                swept[1] += closing.closeIfIdle(e, CloseReason.POOL_CLOSED) ? 1 : 0;
            }
            return true;
        });
        long graceEnd = System.nanoTime() + GRACE_NANOS;
        creator.join(graceEnd);
        housekeeper.join(graceEnd);
        failover.join(graceEnd);
        endAttempts(deadline);
        // A creation that published, or a keepalive that released, after the sweeps above closes its connection
        // itself (each reads the lifecycle after its store); this sweep catches one that stored before it was told.
        idleClosed += swept[1] + closeIdle();
        closer.finish(System.nanoTime() + GRACE_NANOS);
        int takenBack = swept[0];
        int closedIdle = idleClosed;
        Loggers.POOL.log(System.Logger.Level.INFO, () -> "[" + config.name() + "] shutdown completed in "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began) + " ms: " + closedIdle
                + " idle connection(s) closed, " + takenBack + " borrowed one(s) taken back after shutdownTimeout ("
                + config.shutdownTimeout().toMillis() + " ms)" + (closer.pending() == 0 ? ""
                : "; " + closer.pending() + " close(s) still in the driver"));
    }

    /** Waits for running connects and probes until the deadline, then interrupts them and waits a little more;
     * one that ignores both outlives close() and closes what it opens (it sees the pool closed). */
    private void endAttempts(long deadline) {
        List<ConnectAttempt> running = new ArrayList<>();
        for (Origin o : origins.configured()) {
            // No new ones: the creators and the housekeeper have ended. The started ones, not the listed: an
            // attempt is unlisted when its work ends, before its thread does.
            running.addAll(o.health.startedAttempts());
        }
        try {
            for (ConnectAttempt a : running) {
                a.join(deadline - System.nanoTime());
            }
            running.forEach(ConnectAttempt::interrupt);
            long grace = System.nanoTime() + GRACE_NANOS;
            for (ConnectAttempt a : running) {
                a.join(grace - System.nanoTime());
            }
        } catch (InterruptedException e) {
            // The caller was interrupted: it stops waiting, but the connects are still told to end.
            running.forEach(ConnectAttempt::interrupt);
            Thread.currentThread().interrupt();
        }
    }

    /** close()'s sweep of idle connections; returns how many it closed. */
    private int closeIdle() {
        int[] closed = {0};
        table.visit((state, e) -> {
            if (state == SlotState.AVAILABLE && closing.closeIfIdle(e, CloseReason.POOL_CLOSED)) {
                closed[0]++;
            }
            return true;
        });
        return closed[0];
    }
}
