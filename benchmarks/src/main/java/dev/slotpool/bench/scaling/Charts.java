package dev.slotpool.bench.scaling;

import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.ThreadCountCharts;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * PNG charts of one thread kind's medians, thread count on a log axis and one line per pool: throughput,
 * fairness and CPU per borrow for each mode, and the held mode's p99.9 wait beside the ideal FIFO wait.
 */
final class Charts {

    private Charts() {
    }

    /** Writes the charts into {@code dir}; returns the file names written. */
    static List<String> write(Path dir, ThreadKind kind, List<CellResult> results, Options options)
            throws IOException {
        List<String> written = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            List<CellResult> rows = results.stream()
                    .filter(r -> r.cell().kind() == kind && r.cell().mode() == mode).toList();
            if (rows.isEmpty()) {
                continue;
            }
            String prefix = kind.id() + "-" + mode.id() + "-";
            String what = title(kind, mode, options);
            ThreadCountCharts.save(dir, prefix + "throughput.png", written,
                    byPool(chart(what + ": borrows per second", "borrows/s"), rows, Metric.BORROWS_PER_S));
            ThreadCountCharts.save(dir, prefix + "fairness.png", written,
                    byPool(chart(what + ": fewest borrows of a thread ÷ median", "min ÷ median"), rows,
                            Metric.FAIRNESS));
            ThreadCountCharts.save(dir, prefix + "cpu-per-borrow.png", written,
                    byPool(chart(what + ": process CPU per borrow", "CPU µs per borrow"), rows,
                            Metric.CPU_US_PER_BORROW));
            if (mode == Mode.HELD) {
                XYChart waits = byPool(chart(what + ": p99.9 borrow wait", "p99.9 wait (ms)"), rows,
                        Metric.WAIT_P999_MS);
                if (!waits.getSeriesMap().isEmpty()) {
                    addIdealFifo(waits, rows);
                }
                ThreadCountCharts.save(dir, prefix + "wait-p999.png", written, waits);
            }
        }
        return written;
    }

    private static String title(ThreadKind kind, Mode mode, Options options) {
        String what = mode == Mode.HELD ? "held " + Numbers.significant(options.hold().toNanos() / 1e6) + " ms"
                : "borrow → close";
        return kind.id() + " threads, " + options.connections() + " connections, " + what;
    }

    private static XYChart chart(String title, String yTitle) {
        XYChart chart = ThreadCountCharts.chart(title, yTitle);
        chart.getStyler().setXAxisDecimalPattern("#,###");
        chart.getStyler().setSeriesColors(ThreadCountCharts.poolColors());
        return chart;
    }

    /** One line per pool; points without a value (NaN) are left out. */
    private static XYChart byPool(XYChart chart, List<CellResult> rows, Metric metric) {
        Map<PoolKind, List<CellResult>> byPool = new LinkedHashMap<>();
        for (CellResult r : rows) {
            byPool.computeIfAbsent(r.cell().pool(), p -> new ArrayList<>()).add(r);
        }
        boolean allPositive = true;
        for (Map.Entry<PoolKind, List<CellResult>> e : byPool.entrySet()) {
            List<CellResult> points = e.getValue().stream().filter(r -> !Double.isNaN(r.get(metric)))
                    .sorted(Comparator.comparingInt(r -> r.cell().threads())).toList();
            if (points.isEmpty()) {
                continue;
            }
            double[] x = points.stream().mapToDouble(r -> r.cell().threads()).toArray();
            double[] y = points.stream().mapToDouble(r -> r.get(metric)).toArray();
            allPositive &= Arrays.stream(y).allMatch(v -> v > 0);
            chart.addSeries(e.getKey().id(), x, y);
        }
        // Throughputs and waits span decades between pools; a log axis only works without zeros.
        boolean logarithmic = metric != Metric.FAIRNESS && allPositive;
        ThreadCountCharts.logYAxis(chart, logarithmic);
        chart.getStyler().setYAxisDecimalPattern(metric == Metric.BORROWS_PER_S ? "#,###"
                : metric == Metric.FAIRNESS ? "0.00" : "#,##0.###");
        return chart;
    }

    /** The wait of a perfect FIFO queue (threads ÷ connections × hold) as a dashed line; none for a zero hold. */
    private static void addIdealFifo(XYChart chart, List<CellResult> rows) {
        SortedMap<Integer, Double> ideal = new TreeMap<>();
        for (CellResult r : rows) {
            if (r.get(Metric.IDEAL_FIFO_WAIT_MS) > 0) {
                ideal.put(r.cell().threads(), r.get(Metric.IDEAL_FIFO_WAIT_MS));
            }
        }
        if (ideal.isEmpty()) {
            return;
        }
        XYSeries line = chart.addSeries("ideal FIFO",
                ideal.keySet().stream().mapToDouble(Integer::doubleValue).toArray(),
                ideal.values().stream().mapToDouble(Double::doubleValue).toArray());
        line.setLineStyle(SeriesLines.DASH_DASH);
        line.setLineColor(Color.GRAY);
        line.setMarker(SeriesMarkers.NONE);
    }

}
