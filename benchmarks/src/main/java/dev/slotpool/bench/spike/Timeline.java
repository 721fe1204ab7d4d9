package dev.slotpool.bench.spike;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What the sampler saw in one run, one row per sample. Pool counts are -1 where the pool does not report them.
 *
 * @param micros    time of the sample since the requests were released, in µs (negative before)
 * @param total     the pool's connections
 * @param active    the pool's borrowed connections
 * @param idle      the pool's idle connections
 * @param waiting   threads the pool reports as waiting for a connection
 * @param borrowing requests inside getConnection() as the harness counts them
 * @param completed requests done
 */
record Timeline(long[] micros, int[] total, int[] active, int[] idle, int[] waiting, int[] borrowing,
                int[] completed) {

    static final String CSV_HEADER = "t_us,total,active,idle,waiting,borrowing,completed";

    int size() {
        return micros.length;
    }

    /** The longest gap between two samples: how well the 250 µs schedule held on this machine. */
    long maxGapMicros() {
        long gap = 0;
        for (int i = 1; i < micros.length; i++) {
            gap = Math.max(gap, micros[i] - micros[i - 1]);
        }
        return gap;
    }

    double[] millis() {
        return Arrays.stream(micros).mapToDouble(us -> us / 1_000.0).toArray();
    }

    void writeCsv(Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file)) {
            w.write(CSV_HEADER);
            w.write('\n');
            for (int i = 0; i < micros.length; i++) {
                w.write(micros[i] + "," + total[i] + "," + active[i] + "," + idle[i] + "," + waiting[i] + ","
                        + borrowing[i] + "," + completed[i] + "\n");
            }
        }
    }
}
