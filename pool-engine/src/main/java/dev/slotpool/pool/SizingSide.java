package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.SlotState;
import dev.slotpool.kernel.Events;
import dev.slotpool.origins.Origin;
import dev.slotpool.sizing.Gate;
import dev.slotpool.sizing.Sizer;
import dev.slotpool.slots.Closing;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.slots.Signals;
import dev.slotpool.table.SlotTable;

import java.util.ArrayList;
import java.util.List;

/**
 * What adaptive sizing's {@link Sizer} asks of the pool (docs/architecture.md, "Adaptive sizing"): the configured
 * origins as {@link Sizer.Member}s, whether borrowers wait, the counts, idle connections held back and given back
 * (each through the table's entry-checked hold: AVAILABLE → HELD, the flag written by the owner, then released),
 * held-back ones closed, changes as {@code LIMIT} events, the creators told.
 */
final class SizingSide implements Sizer.PoolSide {

    private final SlotTable<PooledConnection> table;
    private final Origin[] configured;
    private final Closing closing;
    private final Events events;
    private final Signals signals;

    private SizingSide(SlotTable<PooledConnection> table, Origin[] configured, Closing closing, Events events,
                       Signals signals) {
        this.table = table;
        this.configured = configured;
        this.closing = closing;
        this.events = events;
        this.signals = signals;
    }

    /** The pool's sizer over its configured origins. */
    static Sizer sizer(PoolConfig config, Origin[] configured, SlotTable<PooledConnection> table, Closing closing,
                       Events events, Signals signals, long now) {
        List<Sizer.Member> members = new ArrayList<>(configured.length);
        for (Origin o : configured) {
            members.add(new Sizer.Member(o.name, o.sizingGate(), o::isUp, () -> String.valueOf(o.state()),
                    o.occupied::get, o.configuredCap(config.maxSize())));
        }
        return new Sizer(config, members, new SizingSide(table, configured, closing, events, signals), now);
    }

    @Override
    public boolean waiting() {
        return table.moreWaitingThan(0);
    }

    @Override
    public void count() {
        for (Origin o : configured) {
            o.sizingGate().clearCounts();
        }
        table.visit((state, e) -> {
            if (state == SlotState.AVAILABLE || state == SlotState.BORROWED || state == SlotState.HELD) {
                e.origin.sizingGate().count(state == SlotState.BORROWED, e.heldBack);
            }
            return true;
        });
    }

    @Override
    public int holdBack(Gate gate, int n) {
        return flip(gate, n, false);
    }

    @Override
    public int giveBack(Gate gate, int n) {
        return flip(gate, n, true);
    }

    /** Sets {@code heldBack} to {@code !from} on up to {@code n} idle connections of {@code gate}'s origin that have
     * it at {@code from}: each held (entry-checked), flagged by its owner, and released, to the oldest waiter first
     * when it becomes lendable. */
    private int flip(Gate gate, int n, boolean from) {
        int[] done = {0};
        table.visit((state, e) -> {
            if (state == SlotState.AVAILABLE && e.heldBack == from && e.origin.sizingGate() == gate
                    && table.tryHold(e.slot, e)) {
                e.heldBack = !from;
                table.releaseHeld(e.slot);
                done[0]++;
            }
            return done[0] < n;
        });
        return done[0];
    }

    @Override
    public int closeHeldBack(Gate gate, int n) {
        int[] done = {0};
        table.visit((state, e) -> {
            if (state == SlotState.AVAILABLE && e.heldBack && e.origin.sizingGate() == gate
                    && closing.closeIfIdle(e, CloseReason.RESIZED)) {
                done[0]++;
            }
            return done[0] < n;
        });
        return done[0];
    }

    @Override
    public void changed(String origin, String detail) {
        events.emit(PoolEvent.Type.LIMIT, origin, null, detail);
    }

    @Override
    public void wakeCreators() {
        signals.creationWanted();
    }
}
