package dev.slotpool.kernel;

import dev.slotpool.layout.FieldLayout;
import org.junit.jupiter.api.Test;

import static dev.slotpool.layout.FieldLayout.CACHE_LINE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hold-time mean, written by returns on every borrowing thread, shares no cache line with another object
 * (docs/benchmarks.md, "Cache lines: the slot, the means and the entry padded"): at least 64 bytes of the object's
 * own fields lie on each side of its word.
 */
class MovingMeanLayoutTest {

    @Test
    void theMeanHasACacheLineToItself() throws ReflectiveOperationException {
        FieldLayout layout = FieldLayout.around(MovingMean.class, "nanos");
        assertThat(layout.before).as("bytes of fields before the word").isGreaterThanOrEqualTo(CACHE_LINE);
        assertThat(layout.after).as("bytes of fields after the word").isGreaterThanOrEqualTo(CACHE_LINE);
    }

    @Test
    void itStillAverages() {
        MovingMean mean = new MovingMean();
        assertThat(mean.nanos()).isZero();
        mean.sample(800);
        assertThat(mean.nanos()).isEqualTo(800);
        mean.sample(1_600);
        assertThat(mean.nanos()).isEqualTo(900);
        mean.reset();
        assertThat(mean.nanos()).isZero();
    }
}
