package dev.slotpool.slots;

import dev.slotpool.PoolConfig;
import dev.slotpool.Sizing;
import dev.slotpool.kernel.Kernel;
import dev.slotpool.table.SlotTable;

/**
 * The slots feature's door: the table of pooled connections, the room and counts ({@link Capacity}), the closes
 * ({@link Closing} on the {@link Closer}'s thread) and the mean hold time, built once per pool.
 */
public final class Slots {

    private final SlotTable<PooledConnection> table;
    private final Capacity capacity;
    private final Closer closer;
    private final Closing closing;
    private final HoldTime holdTime = new HoldTime();

    /** No signal is sent before the closer's thread starts ({@link Closer#start}). */
    public Slots(PoolConfig config, Kernel kernel, Signals signals) {
        // With reads to standbys, a standby's connections are reserved for read borrows: no other borrow or waiter
        // is given one (docs/architecture.md, "Reads to standbys"); under adaptive sizing, nobody is given one held
        // back ("Adaptive sizing"); else every entry is shared.
        this.table = new SlotTable<>(config.maxSize(), config.turnDuration().toNanos(), config.ticker(),
                config.sizing() == Sizing.ADAPTIVE ? PooledConnection.lendable(config.readsToStandbys())
                        : config.readsToStandbys() ? PooledConnection.TAKES_WRITES : null);
        this.capacity = new Capacity(config.maxSize());
        this.closer = new Closer(kernel.threads(), (int) config.validationTimeout().toMillis());
        this.closing = new Closing(table, closer, capacity, kernel.events(), signals);
    }

    public SlotTable<PooledConnection> table() {
        return table;
    }

    public Capacity capacity() {
        return capacity;
    }

    public Closer closer() {
        return closer;
    }

    public Closing closing() {
        return closing;
    }

    /** The pool's borrow-to-return time: sampled by the returns, read by the creators and detection. */
    public HoldTime holdTime() {
        return holdTime;
    }
}
