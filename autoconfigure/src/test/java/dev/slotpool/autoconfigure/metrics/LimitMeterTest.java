package dev.slotpool.autoconfigure.metrics;

import dev.slotpool.LimitSnapshot;
import dev.slotpool.OriginConfig;
import dev.slotpool.PoolConfig;
import dev.slotpool.Sizing;
import dev.slotpool.SlotPoolDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code slotpool.limit}: each origin's adaptive limit as a gauge, only under adaptive sizing. */
class LimitMeterTest {

    @Test
    void eachOriginsLimitIsAGaugeUnderAdaptiveSizingOnly() {
        PoolConfig config = SlotPoolDataSource.builder().name("shop").maxSize(16).sizing(Sizing.ADAPTIVE)
                .origin(OriginConfig.named("first").url("jdbc:postgresql://127.0.0.1:5432/shop"))
                .origin(OriginConfig.named("second").url("jdbc:postgresql://127.0.0.1:5433/shop"))
                .config();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SlotPoolMetrics metrics = new SlotPoolMetrics(registry);
        metrics.onStart(config);
        assertThat(registry.get("slotpool.limit").tags("pool", "shop", "origin", "first").gauge().value())
                .as("no source yet").isNaN();
        metrics.attachLimits(() -> List.of(
                new LimitSnapshot("first", 12, 1, 16, 0, 0, "held time 1.0× its minimum: holding", 2100, List.of()),
                new LimitSnapshot("second", 3, 1, 16, 3, 9, "pinned at 3 by an operator", 0, List.of())));
        assertThat(registry.get("slotpool.limit").tags("origin", "first").gauge().value()).isEqualTo(12);
        assertThat(registry.get("slotpool.limit").tags("origin", "second").gauge().value()).isEqualTo(3);

        SimpleMeterRegistry fixedRegistry = new SimpleMeterRegistry();
        new SlotPoolMetrics(fixedRegistry).onStart(SlotPoolDataSource.builder().name("fixed").maxSize(4)
                .url("jdbc:postgresql://127.0.0.1:5432/shop").config());
        assertThat(fixedRegistry.find("slotpool.limit").gauges()).isEmpty();
    }
}
