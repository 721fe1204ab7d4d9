package dev.slotpool.lending;

import dev.slotpool.PoolConfig;
import dev.slotpool.failover.Failover;
import dev.slotpool.kernel.Kernel;
import dev.slotpool.origins.Origins;
import dev.slotpool.slots.Signals;
import dev.slotpool.slots.Slots;
import dev.slotpool.snapshots.Snapshots;

/**
 * The lending feature's door: the borrows ({@link Borrows}, with their validation, labels, leaks and known outage)
 * and the returns ({@link Returns}, the path every connection comes back by), built once per pool.
 */
public final class Lending {

    private final Returns returns;
    private final Borrows borrows;

    public Lending(PoolConfig config, Kernel kernel, Slots slots, Origins origins, Failover failover,
            Snapshots snapshots, Signals signals) {
        this.returns = new Returns(config, slots.table(), slots.closing(), failover.detector(), kernel.events(),
                kernel.userCode(), slots.holdTime(), kernel.lifecycle());
        this.borrows = new Borrows(config, slots.table(), origins, slots.closing(), failover, kernel.events(),
                kernel.userCode(), snapshots, kernel.lifecycle(), signals);
    }

    public Borrows borrows() {
        return borrows;
    }

    /** The path the creators give each connection they place, for its return. */
    public Returns returns() {
        return returns;
    }
}
