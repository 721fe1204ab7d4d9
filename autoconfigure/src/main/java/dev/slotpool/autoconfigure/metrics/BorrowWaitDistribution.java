package dev.slotpool.autoconfigure.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The distribution of the one borrow timer, {@code slotpool.borrow.wait}: Boot's
 * {@code management.metrics.distribution.*} (percentiles, percentiles-histogram, slo, minimum/maximum expected
 * value) when any of them is set for it (under its name, a prefix of it, or {@code all}); else the percentiles 0.5,
 * 0.95 and 0.99 published by the client, which the console's p50/p99 and a plain scrape show without configuration
 * (docs/operations.md, Meters).
 */
final class BorrowWaitDistribution implements MeterFilter {

    static final String METER = "slotpool.borrow.wait";

    private static final String DISTRIBUTION = "management.metrics.distribution.";
    private static final List<String> KNOBS = List.of("percentiles", "percentiles-histogram", "slo",
            "minimum-expected-value", "maximum-expected-value", "buffer-length", "expiry");
    /** The names Boot's distribution properties match the meter by: itself, each prefix, and all. */
    private static final List<String> MATCHING = List.of(METER, "slotpool.borrow", "slotpool", "all");

    private final boolean bootConfigures;

    BorrowWaitDistribution(Environment environment) {
        Binder binder = Binder.get(environment);
        this.bootConfigures = KNOBS.stream().anyMatch(knob -> binder.bind(DISTRIBUTION + knob,
                        Bindable.mapOf(String.class, String.class)).map(Map::keySet).orElse(Set.of())
                .stream().anyMatch(MATCHING::contains));
    }

    @Override
    public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
        if (bootConfigures || !id.getName().equals(METER)) {
            return config;
        }
        return DistributionStatisticConfig.builder().percentiles(0.5, 0.95, 0.99).build().merge(config);
    }
}
