package dev.slotpool.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The chart form the harnesses share: a value against the thread count on a log axis, saved as a PNG. */
public final class ThreadCountCharts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;
    /** One clearly different colour per pool (XChart's default gives two pools near-identical yellows). */
    private static final Color[] POOL_COLORS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x9467bd),
        new Color(0x2ca02c), new Color(0xd62728), new Color(0x8c564b), new Color(0xe377c2)};

    private ThreadCountCharts() {
    }

    /** An empty chart with the thread count on a logarithmic x axis and the legend outside on the right. */
    public static XYChart chart(String title, String yTitle) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("threads (log scale)").yAxisTitle(yTitle).build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        return chart;
    }

    /** The pool colours, in order. */
    public static Color[] poolColors() {
        return POOL_COLORS.clone();
    }

    /** The colour of {@code pool}, the same in every chart. */
    public static Color poolColor(PoolKind pool) {
        return POOL_COLORS[pool.ordinal() % POOL_COLORS.length];
    }

    /** Makes the y axis logarithmic, and says so in its title, when {@code logarithmic}. */
    public static void logYAxis(XYChart chart, boolean logarithmic) {
        chart.getStyler().setYAxisLogarithmic(logarithmic);
        if (logarithmic) {
            chart.setYAxisTitle(chart.getYAxisTitle() + " (log scale)");
        }
    }

    /** Saves the chart and adds its name to {@code written}; a chart without data (no run measured) is skipped. */
    public static void save(Path dir, String name, List<String> written, XYChart chart) throws IOException {
        if (chart.getSeriesMap().isEmpty()) {
            return;
        }
        try (OutputStream out = Files.newOutputStream(dir.resolve(name))) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
        written.add(name);
    }
}
