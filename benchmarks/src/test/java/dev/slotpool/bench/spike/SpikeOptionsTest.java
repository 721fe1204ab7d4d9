package dev.slotpool.bench.spike;

import dev.slotpool.bench.PoolKind;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SpikeOptionsTest {

    @Test
    void defaultsAreTheSeedScenarioOverEveryPool() {
        SpikeOptions o = SpikeOptions.parse();
        assertThat(o.setup()).isEqualTo(SpikeSetup.documented());
        assertThat(o.pools()).containsExactly(PoolKind.values());
        assertThat(o.runs()).isEqualTo(5);
        assertThat(o.warmups()).isEqualTo(1);
        assertThat(o.out()).isEqualTo(Path.of("benchmarks", "results", "spike"));
    }

    @Test
    void quickKeepsExplicitPoolsAndRunsWhateverTheOrder() {
        SpikeOptions o = SpikeOptions.parse("--pools", "dbcp2,vibur", "--quick", "--runs", "3");
        assertThat(o.setup()).isEqualTo(SpikeSetup.quick());
        assertThat(o.pools()).containsExactly(PoolKind.DBCP2, PoolKind.VIBUR);
        assertThat(o.runs()).isEqualTo(3);
        assertThat(SpikeOptions.parse("--quick").pools()).containsExactly(PoolKind.SLOTPOOL, PoolKind.HIKARI);
        assertThat(SpikeOptions.parse("--warmups", "0").warmups()).isZero();
    }

    @Test
    void rejectsUnknownOptionsMissingValuesAndTooFewRuns() {
        assertThatIllegalArgumentException().isThrownBy(() -> SpikeOptions.parse("--threads", "8"));
        assertThatIllegalArgumentException().isThrownBy(() -> SpikeOptions.parse("--runs"));
        assertThatIllegalArgumentException().isThrownBy(() -> SpikeOptions.parse("--runs", "0"));
        assertThatIllegalArgumentException().isThrownBy(() -> SpikeOptions.parse("--warmups", "-1"));
    }
}
