package dev.slotpool.bench.pg;

import dev.slotpool.bench.PoolKind;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One run of one cell: its measures and the first error any thread saw (null when none).
 *
 * @param committedDelta the sum of the deltas committed in this run, warm-up and teardown included
 */
record TransactionSample(TransactionCell cell, int run, Map<Measure, Double> values, String firstError,
                         long committedDelta) {

    TransactionSample {
        values = Map.copyOf(values);
    }

    /** The measure, NaN when not measured. */
    double get(Measure m) {
        return values.getOrDefault(m, Double.NaN);
    }

    /** This sample with one measure set. */
    TransactionSample with(Measure m, double value) {
        Map<Measure, Double> copy = new EnumMap<>(Measure.class);
        copy.putAll(values);
        copy.put(m, value);
        return new TransactionSample(cell, run, copy, firstError, committedDelta);
    }

    /** Every sample with {@link Measure#RATIO_TO_HIKARI} set from HikariCP's sample of the same run and cell. */
    static List<TransactionSample> withRatios(List<TransactionSample> samples) {
        List<TransactionSample> result = new ArrayList<>(samples.size());
        for (TransactionSample s : samples) {
            double hikari = samples.stream()
                    .filter(h -> h.cell().pool() == PoolKind.HIKARI && h.run() == s.run()
                            && h.cell().connections() == s.cell().connections()
                            && h.cell().threads() == s.cell().threads())
                    .mapToDouble(h -> h.get(Measure.TX_PER_S)).findFirst().orElse(Double.NaN);
            result.add(s.with(Measure.RATIO_TO_HIKARI,
                    hikari > 0 ? s.get(Measure.TX_PER_S) / hikari : Double.NaN));
        }
        return result;
    }
}
