package dev.slotpool.slots;

import dev.slotpool.layout.FieldLayout;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import static dev.slotpool.layout.FieldLayout.CACHE_LINE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An entry, written by its holder at every lend and return, shares no cache line with another object
 * (docs/benchmarks.md, "Cache lines: the slot, the means and the entry padded"): at least 64 bytes of padding fields
 * lie on each side of its own fields, so
 * neither the object before it nor the one after it (the return path, which every return reads, in a JOL walk)
 * sits on a line the holder writes.
 */
class PooledConnectionLayoutTest {

    @Test
    void theEntrysFieldsHaveCacheLinesToThemselves() throws ReflectiveOperationException {
        for (Field f : PooledConnection.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getName().startsWith("after")) {
                continue;
            }
            FieldLayout layout = FieldLayout.around(PooledConnection.class, f.getName());
            assertThat(layout.before).as("bytes of fields before %s", f.getName())
                    .isGreaterThanOrEqualTo(CACHE_LINE);
            assertThat(layout.after).as("bytes of fields after %s", f.getName())
                    .isGreaterThanOrEqualTo(CACHE_LINE);
        }
    }
}
