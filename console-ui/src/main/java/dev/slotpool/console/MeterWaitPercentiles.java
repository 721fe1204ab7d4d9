package dev.slotpool.console;

import dev.slotpool.autoconfigure.PoolViews;
import dev.slotpool.console.ConsoleViews.Percentiles;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import org.springframework.beans.factory.ObjectProvider;

import java.util.concurrent.TimeUnit;

/**
 * Reads p50 and p99 from the {@code slotpool.borrow.wait} timer the metrics auto-configuration registers
 * (published percentiles 0.5, 0.95, 0.99). Looked up per call, so a registry that appears late still counts.
 */
final class MeterWaitPercentiles implements WaitPercentiles {

    private final ObjectProvider<MeterRegistry> registry;

    MeterWaitPercentiles(ObjectProvider<MeterRegistry> registry) {
        this.registry = registry;
    }

    @Override
    public Percentiles of(String pool, String origin) {
        MeterRegistry r = registry.getIfUnique();
        if (r == null) {
            return null;
        }
        Timer timer = r.find("slotpool.borrow.wait").tag("pool", pool).tag("origin", origin).timer();
        if (timer == null) {
            return null;
        }
        Double p50 = null;
        Double p99 = null;
        for (ValueAtPercentile v : timer.takeSnapshot().percentileValues()) {
            if (v.percentile() == 0.5) {
                p50 = PoolViews.oneDecimal(v.value(TimeUnit.MILLISECONDS));
            } else if (v.percentile() == 0.99) {
                p99 = PoolViews.oneDecimal(v.value(TimeUnit.MILLISECONDS));
            }
        }
        return p50 == null && p99 == null ? null : new Percentiles(p50, p99);
    }
}
