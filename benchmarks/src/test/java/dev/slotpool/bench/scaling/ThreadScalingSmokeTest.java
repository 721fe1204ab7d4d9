package dev.slotpool.bench.scaling;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** CI smoke test: the harness runs in-process with --quick and writes every output with real borrows in it. */
class ThreadScalingSmokeTest {

    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G'};

    @TempDir
    Path out;

    @Test
    void quickRunOfTwoPoolsInBothModesWritesCsvChartsAndSummary() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        ThreadScaling.run(Options.parse("--quick", "--platform", "--pools", "slotpool,hikari", "--mode", "both",
                "--out", out.toString()), stream(printed), stream(log));

        Set<String> expected = new HashSet<>();
        for (String mode : List.of("scaling", "held")) {
            for (String pool : List.of("slotpool", "hikari")) {
                for (int threads : Options.QUICK_THREADS) {
                    expected.add(mode + "/" + pool + "/" + threads);
                }
            }
        }
        assertRows(out.resolve("platform-runs.csv"), expected);
        assertRows(out.resolve("platform-medians.csv"), expected);

        for (String chart : List.of("scaling-throughput", "scaling-fairness", "scaling-cpu-per-borrow",
                "held-throughput", "held-fairness", "held-cpu-per-borrow", "held-wait-p999")) {
            byte[] png = Files.readAllBytes(out.resolve("platform-" + chart + ".png"));
            assertThat(Arrays.copyOf(png, 4)).as(chart).isEqualTo(PNG_MAGIC);
        }
        String summary = Files.readString(out.resolve("summary.md"));
        assertThat(summary).contains("## Platform threads", "| slotpool |", "| hikari |", "ideal FIFO wait");
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("| 100 | hikari |");
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("[8/8] platform held 100 threads", "Done: 8 runs");
    }

    @Test
    void quickRunOnVirtualThreadsWhenTheJvmHasThem() throws Exception {
        Assumptions.assumeTrue(VirtualThreads.available(), "virtual threads need JDK 21+ (the Temurin 25 run)");
        ThreadScaling.run(Options.parse("--quick", "--virtual", "--pools", "slotpool", "--mode", "held",
                "--out", out.toString()), stream(new ByteArrayOutputStream()), stream(new ByteArrayOutputStream()));
        assertRows(out.resolve("virtual-runs.csv"), Set.of("held/slotpool/10", "held/slotpool/100"));
        assertThat(out.resolve("virtual-held-wait-p999.png")).isNotEmptyFile();
    }

    private static PrintStream stream(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    /** One row per expected mode/pool/threads, each with borrows in its window. */
    private static void assertRows(Path csv, Set<String> expected) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        List<String> header = List.of(lines.get(0).split(",", -1));
        int mode = header.indexOf("mode");
        int pool = header.indexOf("pool");
        int threads = header.indexOf("threads");
        int borrows = header.indexOf("borrows");
        Set<String> seen = new HashSet<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            assertThat(cells).as(line).hasSize(header.size());
            String key = cells[mode] + "/" + cells[pool] + "/" + cells[threads];
            assertThat(seen.add(key)).as("one row for %s in %s", key, csv.getFileName()).isTrue();
            assertThat(Double.parseDouble(cells[borrows])).as("borrows of %s", key).isPositive();
        }
        assertThat(seen).isEqualTo(expected);
    }
}
