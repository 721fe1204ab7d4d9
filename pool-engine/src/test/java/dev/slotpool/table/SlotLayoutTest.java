package dev.slotpool.table;

import dev.slotpool.layout.FieldLayout;
import org.junit.jupiter.api.Test;

import static dev.slotpool.layout.FieldLayout.CACHE_LINE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A slot's state word, CASed by whoever borrows its connection, shares no cache line with another slot or the
 * slot array (docs/benchmarks.md, "Cache lines: the slot, the means and the entry padded"): at least 64 bytes of the
 * slot's own fields lie on each side of
 * the words written after construction, the state and the entry. (The final index may take the 4 bytes between
 * the object's header and the padding, as it does on JDK 17: it is never written again.)
 */
class SlotLayoutTest {

    @Test
    void theStateWordHasACacheLineToItself() throws ReflectiveOperationException {
        for (String field : new String[] {"state", "entry"}) {
            FieldLayout layout = FieldLayout.around(Slot.class, field);
            assertThat(layout.before).as("bytes of fields before %s", field).isGreaterThanOrEqualTo(CACHE_LINE);
            assertThat(layout.after).as("bytes of fields after %s", field).isGreaterThanOrEqualTo(CACHE_LINE);
        }
    }
}
