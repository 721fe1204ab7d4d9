package dev.slotpool.bench.pg;

import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.ThreadCountCharts;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PNG charts of the medians, one pair per pool size: transactions per second, and p99.9 latency ÷ the ideal
 * latency, against the thread count on a log axis, one line per pool.
 */
final class TransactionCharts {

    private TransactionCharts() {
    }

    /** Writes the charts into {@code dir}; returns the file names written. */
    static List<String> write(Path dir, List<CellMedians> cells) throws IOException {
        List<String> written = new ArrayList<>();
        List<Integer> sizes = cells.stream().map(c -> c.cell().connections()).distinct().sorted().toList();
        for (int size : sizes) {
            List<CellMedians> rows = cells.stream().filter(c -> c.cell().connections() == size).toList();
            String what = "pgbench-like transactions, " + size + " connections";
            ThreadCountCharts.save(dir, "throughput-" + size + "-connections.png", written,
                    byPool(ThreadCountCharts.chart(what + ": transactions per second", "transactions/s"), rows,
                            Measure.TX_PER_S));
            ThreadCountCharts.save(dir, "p999-over-ideal-" + size + "-connections.png", written,
                    byPool(ThreadCountCharts.chart(what + ": p99.9 latency ÷ threads/throughput", "p99.9 ÷ ideal"),
                            rows, Measure.P999_OVER_IDEAL));
        }
        return written;
    }


    private static XYChart byPool(XYChart chart, List<CellMedians> rows, Measure measure) {
        Map<PoolKind, List<CellMedians>> byPool = new LinkedHashMap<>();
        for (CellMedians r : rows) {
            byPool.computeIfAbsent(r.cell().pool(), p -> new ArrayList<>()).add(r);
        }
        boolean allPositive = true;
        for (Map.Entry<PoolKind, List<CellMedians>> e : byPool.entrySet()) {
            List<CellMedians> points = e.getValue().stream().filter(r -> !Double.isNaN(r.get(measure)))
                    .sorted(Comparator.comparingInt(r -> r.cell().threads())).toList();
            if (points.isEmpty()) {
                continue;
            }
            double[] y = points.stream().mapToDouble(r -> r.get(measure)).toArray();
            allPositive &= Arrays.stream(y).allMatch(v -> v > 0);
            XYSeries series = chart.addSeries(e.getKey().id(),
                    points.stream().mapToDouble(r -> r.cell().threads()).toArray(), y);
            // The same pool the same colour in every chart, whichever pools it shows.
            series.setLineColor(ThreadCountCharts.poolColor(e.getKey()));
            series.setMarkerColor(ThreadCountCharts.poolColor(e.getKey()));
        }
        // Values span decades between thread counts; a log axis only works without zeros.
        ThreadCountCharts.logYAxis(chart, allPositive);
        chart.getStyler().setYAxisDecimalPattern(measure == Measure.TX_PER_S ? "#,###" : "#,##0.##");
        return chart;
    }

}
