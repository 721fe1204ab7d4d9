package dev.slotpool.bench.pg;

import dev.slotpool.bench.PoolKind;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
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

    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;
    /** One clearly different colour per pool, the same pool the same colour in every chart. */
    private static final Color[] POOL_COLORS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x9467bd),
        new Color(0x2ca02c), new Color(0xd62728), new Color(0x8c564b), new Color(0xe377c2)};

    private TransactionCharts() {
    }

    /** Writes the charts into {@code dir}; returns the file names written. */
    static List<String> write(Path dir, List<CellMedians> cells) throws IOException {
        List<String> written = new ArrayList<>();
        List<Integer> sizes = cells.stream().map(c -> c.cell().connections()).distinct().sorted().toList();
        for (int size : sizes) {
            List<CellMedians> rows = cells.stream().filter(c -> c.cell().connections() == size).toList();
            String what = "pgbench-like transactions, " + size + " connections";
            save(dir, "throughput-" + size + "-connections.png", written,
                    byPool(chart(what + ": transactions per second", "transactions/s"), rows, Measure.TX_PER_S));
            save(dir, "p999-over-ideal-" + size + "-connections.png", written,
                    byPool(chart(what + ": p99.9 latency ÷ threads/throughput", "p99.9 ÷ ideal"), rows,
                            Measure.P999_OVER_IDEAL));
        }
        return written;
    }

    private static XYChart chart(String title, String yTitle) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("threads (log scale)").yAxisTitle(yTitle).build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        return chart;
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
            series.setLineColor(POOL_COLORS[e.getKey().ordinal() % POOL_COLORS.length]);
            series.setMarkerColor(POOL_COLORS[e.getKey().ordinal() % POOL_COLORS.length]);
        }
        // Values span decades between thread counts; a log axis only works without zeros.
        chart.getStyler().setYAxisLogarithmic(allPositive);
        if (allPositive) {
            chart.setYAxisTitle(chart.getYAxisTitle() + " (log scale)");
        }
        chart.getStyler().setYAxisDecimalPattern(measure == Measure.TX_PER_S ? "#,###" : "#,##0.##");
        return chart;
    }

    /** Saves the chart and adds its name to {@code written}; a chart without data (no run measured) is skipped. */
    private static void save(Path dir, String name, List<String> written, XYChart chart) throws IOException {
        if (chart.getSeriesMap().isEmpty()) {
            return;
        }
        try (OutputStream out = Files.newOutputStream(dir.resolve(name))) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
        written.add(name);
    }
}
