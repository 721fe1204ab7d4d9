package dev.slotpool.bench.spike;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** PNG timelines: one chart per pool, and every pool's total connections on one chart. */
final class TimelineCharts {

    private static final int WIDTH = 1200;
    private static final int HEIGHT = 600;

    private TimelineCharts() {
    }

    /** Total/active/idle/waiting as the pool reports them, plus the harness's count of requests still borrowing. */
    static void writePool(RunResult result, Path file) throws IOException {
        XYChart chart = chart(result.pool().id() + ": " + result.requests() + " requests at once (run "
                + result.run() + ")", "connections / threads");
        Timeline t = result.timeline();
        double[] x = t.millis();
        add(chart, "total", x, t.total());
        add(chart, "active", x, t.active());
        add(chart, "idle", x, t.idle());
        add(chart, "waiting (pool)", x, t.waiting());
        add(chart, "in getConnection (harness)", x, t.borrowing());
        save(chart, file);
    }

    static void writeTotals(List<RunResult> firstRuns, Path file) throws IOException {
        XYChart chart = chart("Total connections per pool (first run)", "connections");
        for (RunResult r : firstRuns) {
            add(chart, r.pool().id(), r.timeline().millis(), r.timeline().total());
        }
        save(chart, file);
    }

    private static XYChart chart(String title, String yTitle) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("time since the requests were released (ms)").yAxisTitle(yTitle).build();
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
        chart.getStyler().setMarkerSize(0);
        return chart;
    }

    /** Leaves out a count the pool does not report (all -1) rather than drawing a flat line at -1. */
    private static void add(XYChart chart, String name, double[] x, int[] counts) {
        if (Arrays.stream(counts).anyMatch(n -> n >= 0)) {
            chart.addSeries(name, x, Arrays.stream(counts).asDoubleStream().toArray()).setMarker(SeriesMarkers.NONE);
        }
    }

    private static void save(XYChart chart, Path file) throws IOException {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
