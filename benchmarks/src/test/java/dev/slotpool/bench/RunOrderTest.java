package dev.slotpool.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each run of a harness starts one pool further along, so no pool is always the first or the last of a run. */
class RunOrderTest {

    private static final List<String> POOLS = List.of("slotpool", "hikari", "ucp");

    @Test
    void runOneKeepsTheGivenOrderAndEachLaterRunStartsOnePlaceFurther() {
        assertThat(RunOrder.forRun(POOLS, 1)).containsExactly("slotpool", "hikari", "ucp");
        assertThat(RunOrder.forRun(POOLS, 2)).containsExactly("hikari", "ucp", "slotpool");
        assertThat(RunOrder.forRun(POOLS, 3)).containsExactly("ucp", "slotpool", "hikari");
        assertThat(RunOrder.forRun(POOLS, 4)).containsExactly("slotpool", "hikari", "ucp");
        assertThat(RunOrder.forRun(List.of("slotpool"), 7)).containsExactly("slotpool");
    }

    @Test
    void aRunNumberBelowOneIsRefused() {
        assertThatThrownBy(() -> RunOrder.forRun(POOLS, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("run 0: runs count from 1");
    }
}
