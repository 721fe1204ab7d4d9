package dev.slotpool.bench.pg;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One PNG of the phase change: the adaptive limit and the connections held every 250 ms, against the best fixed
 * size of each phase's workload in the sweep of the same run (docs/benchmarks.md, "Adaptive sizing").
 */
final class SizingCharts {

    /** The file written into the output directory. */
    static final String FILE = "sizing-phases.png";

    private SizingCharts() {
    }

    /**
     * @param samples   {@code {ms since the start, limit, held}} every 250 ms
     * @param phases    each phase's workload, in order
     * @param phaseMs   each phase's length
     * @param bestFixed the best fixed size of each workload the sweep measured (a workload it did not: none drawn)
     */
    static void write(Path dir, List<long[]> samples, SizingWorkloads.Workload[] phases, long phaseMs,
                      Map<SizingWorkloads.Workload, Integer> bestFixed, String setup) throws IOException {
        XYChart chart = new XYChartBuilder().width(1000).height(420)
                .title("Adaptive limit through CPU → latency → lock → CPU, against each phase's best fixed size")
                .xAxisTitle("seconds; " + setup).yAxisTitle("connections").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisMin(0.0);
        List<Double> t = samples.stream().map(s -> s[0] / 1000.0).toList();
        chart.addSeries("limit", t, samples.stream().map(s -> (double) s[1]).toList())
                .setMarker(SeriesMarkers.NONE).setLineColor(new Color(0x1f77b4));
        chart.addSeries("held", t, samples.stream().map(s -> (double) s[2]).toList())
                .setMarker(SeriesMarkers.NONE).setLineColor(new Color(0xaaaaaa));
        List<Double> bx = new ArrayList<>();
        List<Double> by = new ArrayList<>();
        for (int p = 0; p < phases.length; p++) {
            Integer best = bestFixed.get(phases[p]);
            if (best != null) {
                bx.add(p * phaseMs / 1000.0);
                by.add((double) best);
                bx.add((p + 1) * phaseMs / 1000.0);
                by.add((double) best);
            }
        }
        if (!bx.isEmpty()) {
            chart.addSeries("best fixed size", bx, by).setMarker(SeriesMarkers.NONE)
                    .setLineColor(new Color(0xd62728))
                    .setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                            new float[] {6f, 4f}, 0f));
        }
        BitmapEncoder.saveBitmap(chart, dir.resolve(FILE).toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
