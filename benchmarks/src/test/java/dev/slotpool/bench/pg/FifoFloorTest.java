package dev.slotpool.bench.pg;

import dev.slotpool.bench.scaling.WaitHistogram;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulated queue against cases with an exact answer. Percentiles are bucket tops, up to 1/32 above the true
 * value, so each bound allows that much above.
 */
class FifoFloorTest {

    private static final long MEAN_HOLD_NANOS = 1_000_000;

    @Test
    void equalHoldsGiveEveryoneTheMeanLatency() {
        WaitHistogram holds = new WaitHistogram();
        for (int i = 0; i < 1_000; i++) {
            holds.record(MEAN_HOLD_NANOS);
        }
        assertThat(FifoFloor.p999OverMean(holds, 100, 10, 1)).isEqualTo(1.0);
    }

    @Test
    void withoutAQueueTheFloorIsTheHoldsOwnTail() {
        // Exponential holds: p99.9 = ln(1000) × mean = 6.908 × mean.
        assertThat(FifoFloor.p999OverMean(exponentialHolds(), 5, 10, 1)).isBetween(6.908 * 0.98, 6.908 * 1.05);
    }

    @Test
    void oneConnectionMakesALatencyTheSumOfEveryThreadsHold() {
        // With one connection a thread waits for the hold in progress (exponential: what is left of it is
        // exponential too), the 8 queued ahead and its own: an Erlang-10 latency, whose p99.9 is 2.2657 × its mean.
        assertThat(FifoFloor.p999OverMean(exponentialHolds(), 10, 1, 1)).isBetween(2.2657 * 0.98, 2.2657 * 1.05);
    }

    @Test
    void moreThreadsPerConnectionAverageTheSpreadAway() {
        WaitHistogram holds = exponentialHolds();
        double hundred = FifoFloor.p999OverMean(holds, 100, 10, 1);
        double thousand = FifoFloor.p999OverMean(holds, 1_000, 10, 1);
        assertThat(thousand).isGreaterThan(1.0).isLessThan(hundred);
    }

    @Test
    void noHoldsNoFloor() {
        assertThat(FifoFloor.p999OverMean(new WaitHistogram(), 100, 10, 1)).isNaN();
    }

    private static WaitHistogram exponentialHolds() {
        SplittableRandom random = new SplittableRandom(42);
        WaitHistogram holds = new WaitHistogram();
        for (int i = 0; i < 1_000_000; i++) {
            holds.record((long) (-Math.log(1 - random.nextDouble()) * MEAN_HOLD_NANOS));
        }
        return holds;
    }
}
