package dev.slotpool.bench.spike;

import dev.slotpool.bench.PoolSettings;

import java.time.Duration;

/**
 * The numbers of one spike scenario.
 *
 * @param connectDelay  how long the stub database takes to open a connection
 * @param queryDelay    how long each request's one statement takes
 * @param minIdle       connections the pool keeps (and starts with) while idle
 * @param maxSize       most connections
 * @param requests      requests released at once
 * @param borrowTimeout longest a borrow may wait
 * @param idleBefore    how long the pool sits idle with its minimum before the spike
 * @param tail          how long sampling goes on after the last request ended
 * @param sampleEvery   sampling interval
 */
record SpikeSetup(Duration connectDelay, Duration queryDelay, int minIdle, int maxSize, int requests,
                  Duration borrowTimeout, Duration idleBefore, Duration tail, Duration sampleEvery) {

    /**
     * The documented scenario (docs/benchmarks.md, "Spike demand"). The tail is two connect times, so a creation the spike triggered shows up
     * even if it started just before the last request ended.
     */
    static SpikeSetup documented() {
        return new SpikeSetup(Duration.ofMillis(150), Duration.ofMillis(2), 5, 50, 50, Duration.ofSeconds(30),
                Duration.ofSeconds(1), Duration.ofMillis(300), Duration.ofNanos(250_000));
    }

    /** The same shape scaled down for the CI smoke test. */
    static SpikeSetup quick() {
        return new SpikeSetup(Duration.ofMillis(20), Duration.ofMillis(1), 5, 50, 50, Duration.ofSeconds(30),
                Duration.ofMillis(100), Duration.ofMillis(40), Duration.ofNanos(250_000));
    }

    PoolSettings poolSettings(String url) {
        return new PoolSettings(url, minIdle, maxSize, borrowTimeout);
    }

    /** One line for report headers. */
    String describe() {
        return String.format("%d ms connect, %d ms query, min idle %d, max %d, %d requests at once, sampled every"
                + " %d µs", connectDelay.toMillis(), queryDelay.toMillis(), minIdle, maxSize, requests,
                sampleEvery.toNanos() / 1_000);
    }
}
