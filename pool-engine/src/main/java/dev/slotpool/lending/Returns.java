package dev.slotpool.lending;

import dev.slotpool.Balancing;
import dev.slotpool.CloseReason;
import dev.slotpool.PoolConfig;
import dev.slotpool.Sizing;
import dev.slotpool.SqlExceptionOverride;
import dev.slotpool.Ticker;
import dev.slotpool.failover.FailureDetector;
import dev.slotpool.kernel.Events;
import dev.slotpool.kernel.PoolLifecycle;
import dev.slotpool.kernel.UserCode;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.HoldTime;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.sizing.Gate;
import dev.slotpool.table.SlotTable;

import java.util.concurrent.Executor;

/**
 * The return path (docs/architecture.md, "Return and hand-off"), given to each {@link PooledConnection}: the
 * holder's proxy ends its lease here after hygiene, and the connection goes to the longest waiter (S5) or back to
 * its slot, unless it must close.
 */
public final class Returns implements PooledConnection.ReturnPath {

    private final Ticker ticker;
    /** The configured override, guarded: the proxies call it on the holder's thread, and it never throws. */
    private final SqlExceptionOverride exceptionOverride;
    /** Whether origins' hold times are sampled (only latency-aware balancing reads them). */
    private final boolean latencyAware;
    /** Whether every return feeds its origin's adaptive limit ({@link Gate}). */
    private final boolean adaptive;
    private final SlotTable<PooledConnection> table;
    private final Closing closing;
    private final FailureDetector detector;
    private final Events events;
    /** Feeds the creators' hold-time estimate. */
    private final HoldTime holdTime;
    private final PoolLifecycle lifecycle;

    public Returns(PoolConfig config, SlotTable<PooledConnection> table, Closing closing, FailureDetector detector,
            Events events, UserCode userCode, HoldTime holdTime, PoolLifecycle lifecycle) {
        this.ticker = config.ticker();
        this.exceptionOverride = userCode.guarded(config.exceptionOverride());
        this.latencyAware = config.balancing() == Balancing.LATENCY;
        this.adaptive = config.sizing() == Sizing.ADAPTIVE;
        this.table = table;
        this.closing = closing;
        this.detector = detector;
        this.events = events;
        this.holdTime = holdTime;
        this.lifecycle = lifecycle;
    }

    @Override
    public SqlExceptionOverride exceptionOverride() {
        return exceptionOverride;
    }

    @Override
    public void abortedByHolder(PooledConnection e, Executor executor) {
        closing.abortedByHolder(e, executor);
    }

    /** Called once per borrow by the proxy's close(), after hygiene. */
    @Override
    public void giveBack(PooledConnection e, long stamp) {
        if (!e.endLease(stamp)) {
            return; // aborted or reclaimed: whoever ended the borrow owns the slot and closed the connection
        }
        long now = ticker.nanoTime();
        long held = now - e.borrowedAt;
        e.heldNanosTotal += held;
        e.returnedAt = now;
        e.holder = null;
        e.borrowStack = null;
        // Every 16th return per connection, starting with the first, feeds the creator's hold-time estimate:
        // early enough for a fresh pool, rare enough not to make every return write a shared field.
        if ((e.borrowCount & 15) == 1) {
            holdTime.sample(held);
            if (latencyAware) {
                e.origin.load.sampleHold(held);
            }
        }
        CloseReason reason = lifecycle.closed() ? CloseReason.POOL_CLOSED : e.closeReason(now);
        if (reason == null && adaptive) {
            Gate gate = e.origin.sizingGate();
            gate.returned(held);
            // Its origin lends more than its limit: this one stays open, lent to nobody, until the limit rises
            // (written before the release, which then keeps it from every borrower and waiter).
            e.heldBack = gate.takeSurplus();
        }
        if (reason != null) {
            closing.closeOwned(e, reason, false);
        } else {
            detector.healthyReturn(e.origin);
            table.release(e.slot, now);
            // Dekker with drain and markDown, which store the origin's state and then visit the slots: this return
            // stored the slot's state above and reads the origin's now. If the origin left UP in between,
            // whichever comes second closes the connection: it does not wait idle for the next housekeeping visit.
            if (!e.origin.isUp()) {
                closing.closeIfIdle(e, CloseReason.ORIGIN_NOT_UP);
            }
        }
        // Listeners last, once the connection is back in its slot or on its way to the closer: the return is a
        // transition from the lease's end to the slot's release, and no user code runs inside one. Only final
        // fields of the entry are read from here on: another borrower may own it already.
        if (events.any()) {
            events.returned(e.origin.name, held);
        }
    }
}
