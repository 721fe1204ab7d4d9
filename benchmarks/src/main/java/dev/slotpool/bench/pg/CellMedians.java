package dev.slotpool.bench.pg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One cell over its runs: the median of each measure, or the total where {@link Measure.Across#SUM} says so.
 *
 * @param runs runs combined
 */
record CellMedians(TransactionCell cell, int runs, Map<Measure, Double> values) {

    CellMedians {
        values = Map.copyOf(values);
    }

    double get(Measure m) {
        return values.getOrDefault(m, Double.NaN);
    }

    /** The cells in the order their first run appears. */
    static List<CellMedians> combine(List<TransactionSample> samples) {
        Map<TransactionCell, List<TransactionSample>> byCell = new LinkedHashMap<>();
        for (TransactionSample s : samples) {
            byCell.computeIfAbsent(s.cell(), c -> new ArrayList<>()).add(s);
        }
        List<CellMedians> result = new ArrayList<>();
        byCell.forEach((cell, runs) -> {
            Map<Measure, Double> values = new EnumMap<>(Measure.class);
            for (Measure m : Measure.values()) {
                double[] v = runs.stream().mapToDouble(s -> s.get(m)).filter(d -> !Double.isNaN(d)).toArray();
                values.put(m, m.across() == Measure.Across.SUM ? Arrays.stream(v).sum() : median(v));
            }
            result.add(new CellMedians(cell, runs.size(), values));
        });
        return result;
    }

    /** NaN when no run measured it. */
    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
