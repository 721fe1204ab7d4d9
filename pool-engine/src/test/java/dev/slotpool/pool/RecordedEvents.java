package dev.slotpool.pool;

import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A listener that keeps every event, for tests to search. */
final class RecordedEvents implements PoolListener {

    final List<PoolEvent> events = new CopyOnWriteArrayList<>();

    @Override
    public void onEvent(PoolEvent event) {
        events.add(event);
    }
}
