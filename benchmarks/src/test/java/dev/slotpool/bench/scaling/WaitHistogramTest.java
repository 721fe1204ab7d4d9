package dev.slotpool.bench.scaling;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class WaitHistogramTest {

    @Test
    void everyValueLandsInABucketAtMostOneThirtySecondWide() {
        int previous = -1;
        for (long v = 0; v < 1L << 20; v++) {
            int index = WaitHistogram.index(v);
            assertThat(index).isBetween(previous, previous + 1);
            assertThat(WaitHistogram.highestValue(index)).isGreaterThanOrEqualTo(v).isLessThanOrEqualTo(v + v / 32);
            previous = index;
        }
        for (int i = 0; i < 100_000; i++) {
            long v = ThreadLocalRandom.current().nextLong(1L << 39);
            assertThat(WaitHistogram.highestValue(WaitHistogram.index(v))).isBetween(v, v + v / 32);
        }
        assertThat(WaitHistogram.index(Long.MAX_VALUE)).isEqualTo(WaitHistogram.BUCKETS - 1);
    }

    @Test
    void percentilesAreWithinBucketPrecisionAndTheMaxIsExact() {
        WaitHistogram a = new WaitHistogram();
        WaitHistogram b = new WaitHistogram();
        for (long micros = 1; micros <= 100_000; micros++) {
            (micros % 2 == 0 ? a : b).record(micros * 1_000);
        }
        a.add(b);
        assertThat(a.count()).isEqualTo(100_000);
        assertThat(a.percentileNanos(0.50)).isCloseTo(50_000_000, within(50_000_000 / 32.0));
        assertThat(a.percentileNanos(0.999)).isCloseTo(99_900_000, within(99_900_000 / 32.0));
        assertThat(a.percentileNanos(1.0)).isEqualTo(100_000_000);
        assertThat(a.maxNanos()).isEqualTo(100_000_000);
    }

    @Test
    void emptyHasNoPercentiles() {
        WaitHistogram empty = new WaitHistogram();
        assertThat(empty.percentileNanos(0.5)).isNaN();
        assertThat(empty.maxNanos()).isNaN();
    }
}
