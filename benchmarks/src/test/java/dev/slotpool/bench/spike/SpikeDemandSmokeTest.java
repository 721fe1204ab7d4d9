package dev.slotpool.bench.spike;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The harness runs end to end on the quick setup and writes every report; nothing here is about timing. */
class SpikeDemandSmokeTest {

    @Test
    void quickRunWritesEveryReport(@TempDir Path out) throws Exception {
        SpikeDemand.run(SpikeOptions.parse("--quick", "--out", out.toString()));

        for (String pool : List.of("slotpool", "hikari")) {
            assertThat(out.resolve("timeline-" + pool + ".csv")).isNotEmptyFile();
            assertThat(out.resolve("timeline-" + pool + ".png")).isNotEmptyFile();
        }
        assertThat(out.resolve("total-all-pools.png")).isNotEmptyFile();
        assertThat(Files.readString(out.resolve("summary.md")))
                .contains("| slotpool | 1 | 50/50 |", "| hikari | 1 | 50/50 |");

        List<String> csv = Files.readAllLines(out.resolve("summary.csv"));
        assertThat(csv.get(0)).isEqualTo(SpikeSummary.CSV_HEADER);
        assertThat(csv.subList(1, csv.size())).hasSize(2)
                .anySatisfy(row -> assertThat(row).startsWith("slotpool,1,50,50,"))
                .anySatisfy(row -> assertThat(row).startsWith("hikari,1,50,50,"));
        assertThat(Files.readAllLines(out.resolve("timeline-slotpool.csv")).get(0)).isEqualTo(Timeline.CSV_HEADER);
    }
}
