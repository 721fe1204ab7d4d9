package dev.slotpool.bench.scaling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The runs of one cell combined: the median of each metric (the sum for {@link Metric#summed()} ones). */
record CellResult(Cell cell, int runs, Map<Metric, Double> values) {

    CellResult {
        values = new EnumMap<>(values);
    }

    double get(Metric metric) {
        return values.getOrDefault(metric, Double.NaN);
    }

    /** One result per cell, in the order the cells were first measured. */
    static List<CellResult> combine(List<Sample> samples) {
        Map<Cell, List<Sample>> byCell = new LinkedHashMap<>();
        for (Sample s : samples) {
            byCell.computeIfAbsent(s.cell(), c -> new ArrayList<>()).add(s);
        }
        List<CellResult> results = new ArrayList<>();
        byCell.forEach((cell, runs) -> {
            Map<Metric, Double> values = new EnumMap<>(Metric.class);
            for (Metric m : Metric.values()) {
                double[] v = runs.stream().mapToDouble(s -> s.get(m)).toArray();
                values.put(m, m.summed() ? Arrays.stream(v).sum() : median(v));
            }
            results.add(new CellResult(cell, runs.size(), values));
        });
        return results;
    }

    /** The median; the mean of the middle two for an even count; NaN if any value is NaN or there are none. */
    static double median(double[] values) {
        if (values.length == 0 || Arrays.stream(values).anyMatch(Double::isNaN)) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
