package dev.slotpool.bench.scaling;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** Writes one CSV row per run, and one per cell with the medians. */
final class ResultsCsv {

    private ResultsCsv() {
    }

    static void writeRuns(Path file, List<Sample> samples, String jdk) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(header("run", false));
        for (Sample s : samples) {
            lines.add(row(s.cell(), jdk, s.run(), s::get));
        }
        Files.write(file, lines);
    }

    static void writeMedians(Path file, List<CellResult> results, String jdk) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(header("runs", true));
        for (CellResult r : results) {
            lines.add(row(r.cell(), jdk, r.runs(), r::get));
        }
        Files.write(file, lines);
    }

    private static String header(String runColumn, boolean aggregated) {
        StringBuilder b = new StringBuilder("series,jdk,mode,pool,threads,").append(runColumn);
        for (Metric m : Metric.values()) {
            b.append(',').append(m.column(aggregated));
        }
        return b.toString();
    }

    private static String row(Cell cell, String jdk, int run, ToDoubleFunction<Metric> value) {
        StringBuilder b = new StringBuilder()
                .append(cell.kind().id()).append(',').append(jdk).append(',').append(cell.mode().id()).append(',')
                .append(cell.pool().id()).append(',').append(cell.threads()).append(',').append(run);
        for (Metric m : Metric.values()) {
            b.append(',').append(Numbers.csv(value.applyAsDouble(m)));
        }
        return b.toString();
    }
}
