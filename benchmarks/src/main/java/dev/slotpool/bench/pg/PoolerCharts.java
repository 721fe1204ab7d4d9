package dev.slotpool.bench.pg;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One PNG of the medians, two bar charts one above the other: committed and failed transactions per second per
 * cell; and transaction latency p50, p99 and p99.9 per cell, with borrow p99.9 beside them, on a log axis.
 */
final class PoolerCharts {

    /** The file written into the output directory. */
    static final String FILE = "pooler.png";

    private static final int WIDTH = 1000;
    private static final int HEIGHT = 480;

    private PoolerCharts() {
    }

    /**
     * Writes {@link #FILE} into {@code dir}, {@code setup} under the cells; returns its name, or nothing when no
     * cell was measured.
     */
    static List<String> write(Path dir, List<PoolerSample.Combined> cells, String setup) throws IOException {
        List<PoolerSample.Combined> measured = cells.stream()
                .filter(c -> !Double.isNaN(c.get(PoolerMeasure.TX_PER_S))).toList();
        if (measured.isEmpty()) {
            return List.of();
        }
        List<String> names = measured.stream().map(c -> c.cell().id()).toList();

        CategoryChart rates = chart("Through PgBouncer (transaction mode): transactions per second",
                "transactions/s", setup);
        rates.addSeries("committed", names, values(measured, PoolerMeasure.TX_PER_S)).setFillColor(
                new Color(0x2ca02c));
        rates.addSeries("failed", names, values(measured, PoolerMeasure.FAILED_PER_S)).setFillColor(
                new Color(0xd62728));
        rates.getStyler().setYAxisDecimalPattern("#,###");

        CategoryChart latency = chart("Latency: the transaction from getConnection() to close(), and the borrow",
                "ms (log scale)", setup);
        latency.getStyler().setYAxisLogarithmic(true);
        latency.getStyler().setYAxisDecimalPattern("#,##0.##");
        Color[] colours = {new Color(0x9ecae1), new Color(0x4292c6), new Color(0x08306b), new Color(0xff7f0e)};
        PoolerMeasure[] shown = {PoolerMeasure.TX_P50_MS, PoolerMeasure.TX_P99_MS, PoolerMeasure.TX_P999_MS,
            PoolerMeasure.BORROW_P999_MS};
        String[] labels = {"transaction p50", "transaction p99", "transaction p99.9", "borrow p99.9"};
        double lowest = Double.MAX_VALUE;
        for (int i = 0; i < shown.length; i++) {
            // A log axis cannot show 0 (a borrow quicker than the histogram's finest bucket): drawn at 1 µs.
            List<Double> v = values(measured, shown[i]).stream().map(x -> Math.max(x, 0.001)).toList();
            lowest = Math.min(lowest, v.stream().mapToDouble(Double::doubleValue).min().orElse(1));
            latency.addSeries(labels[i], names, v).setFillColor(colours[i]);
        }
        // XChart starts a bar chart's y axis at 0 unless told otherwise, which a log axis refuses.
        latency.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(lowest))));

        BitmapEncoder.saveBitmap(List.of(rates, latency), 2, 1, dir.resolve(FILE).toString(),
                BitmapEncoder.BitmapFormat.PNG);
        return List.of(FILE);
    }

    /** A bar chart with the setup under the cells, where a long title would be cut off. */
    private static CategoryChart chart(String title, String yTitle, String setup) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("cell; " + setup).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setOverlapped(false);
        return chart;
    }

    private static List<Double> values(List<PoolerSample.Combined> cells, PoolerMeasure m) {
        return cells.stream().map(c -> Double.isNaN(c.get(m)) ? 0 : c.get(m)).toList();
    }
}
