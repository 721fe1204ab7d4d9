package dev.slotpool.failover;

import dev.slotpool.OriginState;
import dev.slotpool.Ticker;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.OriginStatus;
import dev.slotpool.slots.Signals;

import java.time.Duration;

/**
 * A planned switchover's pause of a primary's writes ({@link Switchovers}) and its end: held once the switchover is
 * prepared, resumed when it is abandoned. Each status it decides is written by {@link OriginOperations}, the one
 * writer of an origin's status (its CAS, S7), and an operator's change since the pause wins.
 */
final class SwitchoverPause {

    private final OriginOperations operations;
    private final Ticker ticker;
    private final Signals signals;

    SwitchoverPause(OriginOperations operations, Ticker ticker, Signals signals) {
        this.operations = operations;
        this.ticker = ticker;
        this.signals = signals;
    }

    /**
     * Pauses a primary's writes: DRAINING with {@code reason}, so no borrow takes it (borrowers wait while no other
     * origin takes writes), its idle connections closed now, its borrowed ones at return, those still out at
     * {@code timeout} aborted; DOWN ("drained") once empty, as a drain. Returns the status set, or null when the
     * origin was not UP.
     */
    OriginStatus pause(Origin o, String reason, Duration timeout) {
        OriginStatus st = o.status();
        OriginStatus paused = new OriginStatus(OriginState.DRAINING, reason, false,
                ticker.nanoTime() + timeout.toNanos());
        if (st.state() != OriginState.UP || !operations.change(o, st, paused)) {
            return null;
        }
        operations.sweep(o);
        signals.housekeepingDue();
        return paused;
    }

    /** The paused origin holds its state with {@code reason} (DOWN, not detected): the switchover is prepared. False
     * when an operator changed it since the pause. */
    boolean hold(Origin o, OriginStatus paused, String reason) {
        OriginStatus st = o.status();
        return fromPause(st, paused) && operations.change(o, st, new OriginStatus(OriginState.DOWN, reason, false,
                paused.abortBorrowedAt()));
    }

    /** Writes resume on the paused origin (a switchover abandoned), unless an operator changed it since; if the
     * role holds it out meanwhile (a split brain), it is DOWN for its role instead. */
    void resume(Origin o, OriginStatus paused, String reason) {
        OriginStatus st = o.status();
        if (fromPause(st, paused)) {
            operations.restore(o, st, reason);
        }
    }

    /** The pause itself, or the DOWN its drain turned into once empty ({@link OriginOperations#finishDrain} keeps
     * the deadline). */
    private static boolean fromPause(OriginStatus st, OriginStatus paused) {
        return st == paused || st.state() == OriginState.DOWN && !st.detected()
                && OriginOperations.DRAINED.equals(st.reason()) && st.abortBorrowedAt() == paused.abortBorrowedAt();
    }
}
