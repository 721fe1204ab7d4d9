package dev.slotpool.bench.pg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One run of one cell: its measures and its failures (masked message to count; empty when none failed).
 *
 * @param failures also says why a run was not measured, when it was not
 */
record PoolerSample(PoolerCell cell, int run, Map<PoolerMeasure, Double> values, Map<String, Long> failures) {

    PoolerSample {
        values = Map.copyOf(values);
        failures = Map.copyOf(failures);
    }

    /** The measure, NaN when not measured. */
    double get(PoolerMeasure m) {
        return values.getOrDefault(m, Double.NaN);
    }

    /** This sample with one measure set. */
    PoolerSample with(PoolerMeasure m, double value) {
        Map<PoolerMeasure, Double> copy = new EnumMap<>(PoolerMeasure.class);
        copy.putAll(values);
        copy.put(m, value);
        return new PoolerSample(cell, run, copy, failures);
    }

    /**
     * Every sample with {@link PoolerMeasure#RATIO_TO_HIKARI} set from the sample of
     * {@link PoolerCell#HIKARI_THRESHOLD_0} in the same run (NaN without one).
     */
    static List<PoolerSample> withRatios(List<PoolerSample> samples) {
        List<PoolerSample> result = new ArrayList<>(samples.size());
        for (PoolerSample s : samples) {
            double hikari = samples.stream()
                    .filter(h -> h.cell() == PoolerCell.HIKARI_THRESHOLD_0 && h.run() == s.run())
                    .mapToDouble(h -> h.get(PoolerMeasure.TX_PER_S)).findFirst().orElse(Double.NaN);
            result.add(s.with(PoolerMeasure.RATIO_TO_HIKARI,
                    hikari > 0 ? s.get(PoolerMeasure.TX_PER_S) / hikari : Double.NaN));
        }
        return result;
    }

    /**
     * One cell over its runs: the median of each measure or the total where {@link Measure.Across#SUM} says so,
     * and the failures of every run added up (sorted by message).
     */
    record Combined(PoolerCell cell, int runs, Map<PoolerMeasure, Double> values, Map<String, Long> failures) {

        double get(PoolerMeasure m) {
            return values.getOrDefault(m, Double.NaN);
        }
    }

    /** The cells in the order their first run appears. */
    static List<Combined> combine(List<PoolerSample> samples) {
        Map<PoolerCell, List<PoolerSample>> byCell = new LinkedHashMap<>();
        for (PoolerSample s : samples) {
            byCell.computeIfAbsent(s.cell(), c -> new ArrayList<>()).add(s);
        }
        List<Combined> result = new ArrayList<>();
        byCell.forEach((cell, runs) -> {
            Map<PoolerMeasure, Double> values = new EnumMap<>(PoolerMeasure.class);
            for (PoolerMeasure m : PoolerMeasure.values()) {
                double[] v = runs.stream().mapToDouble(s -> s.get(m)).filter(d -> !Double.isNaN(d)).toArray();
                values.put(m, m.across() == Measure.Across.SUM ? Arrays.stream(v).sum() : CellMedians.median(v));
            }
            Map<String, Long> failures = new TreeMap<>();
            runs.forEach(s -> s.failures().forEach((k, n) -> failures.merge(k, n, Long::sum)));
            result.add(new Combined(cell, runs.size(), Map.copyOf(values), failures));
        });
        return result;
    }
}
