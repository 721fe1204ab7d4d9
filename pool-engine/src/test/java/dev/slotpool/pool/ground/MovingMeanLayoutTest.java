package dev.slotpool.pool.ground;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hold-time mean, written by returns on every borrowing thread, shares no cache line with another object
 * (docs/benchmarks.md, "Round four"): at least 64 bytes of the object's own fields lie on each side of its word,
 * as the JVM lays them out (the field offsets {@code sun.misc.Unsafe} reports, as JOL reads them; reached by
 * reflection, the engine's module does not read {@code jdk.unsupported}).
 */
class MovingMeanLayoutTest {

    private static final int CACHE_LINE = 64;

    @Test
    void theMeanHasACacheLineToItself() throws ReflectiveOperationException {
        Field theUnsafe = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        Object unsafe = theUnsafe.get(null);
        Method fieldOffset = unsafe.getClass().getMethod("objectFieldOffset", Field.class);
        long word = -1;
        long first = Long.MAX_VALUE;
        long last = -1;
        for (Class<?> c = MovingMean.class; c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                long offset = (long) fieldOffset.invoke(unsafe, f);
                if (f.getName().equals("nanos")) {
                    word = offset;
                }
                first = Math.min(first, offset);
                last = Math.max(last, offset + 8);
            }
        }
        assertThat(word).as("offset of the mean's word").isNotNegative();
        assertThat(word - first).as("bytes of fields before the word").isGreaterThanOrEqualTo(CACHE_LINE);
        assertThat(last - (word + 8)).as("bytes of fields after the word").isGreaterThanOrEqualTo(CACHE_LINE);
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
