package dev.slotpool.pool;

import dev.slotpool.Ticker;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test moves by hand, so timers fire without sleeping. */
final class ManualTicker implements Ticker {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Override
    public long nanoTime() {
        return now.get();
    }

    void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }
}
