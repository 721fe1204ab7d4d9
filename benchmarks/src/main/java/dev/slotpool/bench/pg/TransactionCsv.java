package dev.slotpool.bench.pg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** Writes one CSV row per run, and one per cell with the medians; the first columns name the cell and the JDK. */
final class TransactionCsv {

    private TransactionCsv() {
    }

    static void writeRuns(Path file, List<TransactionSample> samples, String jdk) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(header("run", false));
        for (TransactionSample s : samples) {
            lines.add(row(s.cell(), jdk, s.run(), s::get));
        }
        Files.write(file, lines);
    }

    static void writeMedians(Path file, List<CellMedians> cells, String jdk) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(header("runs", true));
        for (CellMedians c : cells) {
            lines.add(row(c.cell(), jdk, c.runs(), c::get));
        }
        Files.write(file, lines);
    }

    private static String header(String runColumn, boolean combined) {
        StringBuilder b = new StringBuilder("pool,connections,threads,").append(runColumn).append(",jdk");
        for (Measure m : Measure.values()) {
            b.append(',').append(m.column(combined));
        }
        return b.toString();
    }

    private static String row(TransactionCell cell, String jdk, int run, ToDoubleFunction<Measure> value) {
        StringBuilder b = new StringBuilder().append(cell.pool().id()).append(',').append(cell.connections())
                .append(',').append(cell.threads()).append(',').append(run).append(',').append(jdk);
        for (Measure m : Measure.values()) {
            b.append(',').append(Formats.csv(value.applyAsDouble(m)));
        }
        return b.toString();
    }
}
