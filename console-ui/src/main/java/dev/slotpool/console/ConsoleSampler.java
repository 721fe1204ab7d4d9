package dev.slotpool.console;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The one thread that samples every pool's chart history ({@link ConsoleHistory}) once a period, whether or not a
 * page is open, so a page that opens finds the last minutes already there. Owned by the console's
 * auto-configuration: {@link #close()} (at context close) stops it.
 */
public final class ConsoleSampler implements AutoCloseable {

    private final List<ConsoleHistory> histories;
    private final ScheduledExecutorService scheduler;

    ConsoleSampler(List<ConsoleHistory> histories, Duration period) {
        this.histories = List.copyOf(histories);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "slotpool-console-history");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleAtFixedRate(this::sampleAll, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void sampleAll() {
        for (ConsoleHistory h : histories) {
            try {
                h.sample();
            } catch (RuntimeException e) {
                // That second has no point; a failing snapshot must not cancel the schedule or the other pools.
            }
        }
    }

    /** Whether {@link #close()} stopped the thread. */
    boolean stopped() {
        return scheduler.isTerminated();
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
