package dev.slotpool.console;

import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.console.ConsoleViews.EventRow;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The console's event log: a pool listener that keeps the last {@link #CAPACITY} pool events (creations, closes
 * with their reason, origin state changes including drains, rebalances, timeouts, leaks). Lock-free: events are
 * appended to a {@link ConcurrentLinkedDeque} and the oldest dropped once a size counter passes the capacity.
 * Racy but benign: concurrent appenders may each see the count above the capacity and drop one each, so the
 * log may hold a few events fewer than the capacity for a moment; it never grows without bound.
 */
public final class ConsoleEventLog implements PoolListener {

    /** Events kept. */
    public static final int CAPACITY = 200;

    private final ConcurrentLinkedDeque<EventRow> events = new ConcurrentLinkedDeque<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicLong sequence = new AtomicLong();

    @Override
    public void onEvent(PoolEvent e) {
        events.addLast(new EventRow(sequence.incrementAndGet(), String.valueOf(e.at()), e.type().name(), e.origin(),
                e.reason() == null ? null : e.reason().name(), e.detail()));
        if (size.incrementAndGet() > CAPACITY && events.pollFirst() != null) {
            size.decrementAndGet();
        }
    }

    /** The retained events, newest first. */
    public List<EventRow> recent() {
        List<EventRow> list = new ArrayList<>(CAPACITY);
        events.descendingIterator().forEachRemaining(list::add);
        return list;
    }
}
