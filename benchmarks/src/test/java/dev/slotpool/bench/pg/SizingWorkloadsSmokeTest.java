package dev.slotpool.bench.pg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CI smoke test: a tiny sizing sweep on the embedded server runs every kind of pool and the fleet, and writes every
 * output; the fleet's adaptive pools stay within their budgets against a server whose max_connections is their
 * sum. Numbers from this run mean nothing.
 */
class SizingWorkloadsSmokeTest {

    @TempDir
    Path out;

    @Test
    void aTinySweepAndFleetWriteEveryOutputWithinTheBudget() throws Exception {
        SizingWorkloads.main(new String[] {"--threads", "4", "--warmup", "1", "--window", "1", "--sizes", "1,2",
                "--workloads", "LATENCY", "--rounds", "2", "--phase", "0", "--fleet", "2", "--budget", "2",
                "--fleet-seconds", "7", "--out", out.toString()});

        List<String> cells = Files.readAllLines(out.resolve("cells.csv"));
        // Two rounds, each over fixed 1 and 2, adaptive, HikariCP at 10 and at the formula's size.
        assertThat(cells).hasSize(1 + 2 * 5);
        assertThat(cells.subList(1, cells.size())).allSatisfy(line ->
                assertThat(Double.parseDouble(line.split(",")[4])).as(line).isPositive());
        List<String> medians = Files.readAllLines(out.resolve("cells-median.csv"));
        assertThat(medians).hasSize(1 + 5).anyMatch(l -> l.startsWith("LATENCY,adaptive-64,4,2,"));

        List<String> fleet = Files.readAllLines(out.resolve("fleet.csv"));
        assertThat(fleet).anyMatch(l -> l.startsWith("adaptive,fleet-0,")).anyMatch(l -> l.startsWith("fixed,all,"));
        for (String line : fleet.subList(1, fleet.size())) {
            String[] f = line.split(",", -1);
            if (f[1].startsWith("fleet-")) {
                assertThat(Double.parseDouble(f[4])).as(line).isPositive();
                assertThat(Integer.parseInt(f[7])).as(line + ": most held within the budget").isLessThanOrEqualTo(2);
            } else if (f[1].equals("server-sessions")) {
                assertThat(Integer.parseInt(f[7])).as(line).isBetween(1, 4);
            }
        }
    }
}
