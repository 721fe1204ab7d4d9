package dev.slotpool.bench.scaling;

import java.util.EnumMap;
import java.util.Map;

/**
 * The values measured in one run of a cell (NaN where a metric does not apply), plus the first error a thread
 * saw, if any.
 */
record Sample(Cell cell, int run, Map<Metric, Double> values, String firstError) {

    Sample {
        values = new EnumMap<>(values);
    }

    double get(Metric metric) {
        return values.getOrDefault(metric, Double.NaN);
    }
}
