package dev.slotpool.origins;

import dev.slotpool.kernel.MovingMean;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The load samples latency-aware balancing weighs an origin by (docs/architecture.md, "Latency-aware balancing"):
 * its mean borrow-to-return time, fed by the same 1-in-16 return samples as the pool's {@code HoldTime}, and its
 * broken closes. The return path and the closes feed it; the rebalancer reads it on the housekeeper's thread.
 */
public final class OriginLoad {

    /** Mean borrow-to-return time, and the samples' count (racy but benign, as the mean). */
    private final MovingMean holdTime = new MovingMean();
    private volatile long holdSamples;
    /** Connections closed as broken (fatal SQL error, failed validation). */
    private final AtomicLong brokenCloses = new AtomicLong();
    /** The two counts above at the rebalancer's last look (housekeeper thread only). */
    private long seenSamples;
    private long seenBroken;

    public void sampleHold(long nanos) {
        holdTime.sample(nanos);
        holdSamples = holdSamples + 1;
    }

    public void brokenClose() {
        brokenCloses.incrementAndGet();
    }

    /** The mean hold (0 before the first sample). */
    public long meanHoldNanos() {
        return holdTime.nanos();
    }

    /**
     * The share of broken closes among the returns since the last call (housekeeper only). Samples are one return
     * in 16 per connection, scaled back to returns.
     */
    public double brokenShareSinceLastLook() {
        long samples = holdSamples;
        long broken = brokenCloses.get();
        long newSamples = samples - seenSamples;
        long newBroken = broken - seenBroken;
        seenSamples = samples;
        seenBroken = broken;
        return (double) newBroken / Math.max(1, newSamples * 16 + newBroken);
    }
}
