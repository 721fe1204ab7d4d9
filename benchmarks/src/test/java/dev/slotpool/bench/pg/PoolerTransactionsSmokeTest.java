package dev.slotpool.bench.pg;

import dev.slotpool.testsupport.PgBouncerServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CI smoke test of the pooler harness: the quick run through a real PgBouncer measures every cell and writes
 * every output, and the cells with a pooler-safe setting fail no transaction. Numbers from this run mean nothing.
 * Skipped when PgBouncer is not installed, unless {@code SLOTPOOL_REQUIRE_PGBOUNCER=1} (as the engine's PgBouncer
 * tests, docs/poolers.md "In the suite"): then it fails.
 */
class PoolerTransactionsSmokeTest {

    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G'};

    @TempDir
    Path out;

    @Test
    void quickRunMeasuresEveryCellAndWritesEveryOutput() throws Exception {
        Path pgbouncer = PgBouncerServer.binary();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PoolerTransactions.Outcome outcome = PoolerTransactions.run(
                PoolerOptions.parse("--quick", "--out", out.toString()), pgbouncer, stream(printed), stream(log));

        assertThat(outcome.samples()).hasSize(PoolerCell.values().length);
        assertThat(outcome.samples()).allSatisfy(s -> {
            assertThat(s.get(PoolerMeasure.WINDOW_S)).as("%s measured", s.cell()).isPositive();
            assertThat(s.get(PoolerMeasure.STRAGGLERS)).as("%s", s.cell()).isZero();
            assertThat(s.get(PoolerMeasure.TX_P999_MS)).as("%s", s.cell()).isPositive();
        });
        // The cells with the setting a transaction pooler needs (by hand, or the origin's pooler) never fail.
        assertThat(outcome.samples().stream().filter(s -> s.cell() != PoolerCell.HIKARI_DEFAULTS)).allSatisfy(s -> {
            assertThat(s.failures()).as("%s", s.cell()).isEmpty();
            assertThat(s.get(PoolerMeasure.FAILED)).as("%s", s.cell()).isZero();
            assertThat(s.get(PoolerMeasure.COMMITTED)).as("%s", s.cell()).isPositive();
        });

        assertThat(Files.readAllLines(out.resolve("runs.csv"))).hasSize(1 + PoolerCell.values().length)
                .first().asString()
                .startsWith("cell,run,jdk,window_s,committed,tx_per_s,ratio_to_hikari_by_hand,failed_per_s,failed,");
        assertThat(Files.readAllLines(out.resolve("medians.csv"))).hasSize(1 + PoolerCell.values().length)
                .first().asString().contains(",failed_total,");
        byte[] png = Files.readAllBytes(out.resolve(PoolerCharts.FILE));
        assertThat(Arrays.copyOf(png, 4)).isEqualTo(PNG_MAGIC);
        String summary = Files.readString(out.resolve("summary.md"));
        assertThat(summary).contains("PgBouncer 1.", "2 app instances (one pool each) of 2 connections",
                "Charts: `pooler.png`");
        for (PoolerCell cell : PoolerCell.values()) {
            assertThat(summary).contains("| " + cell.label() + " | ");
        }
        assertThat(outcome.samples().stream().filter(s -> s.cell() == PoolerCell.HIKARI_THRESHOLD_0))
                .allSatisfy(s -> assertThat(s.get(PoolerMeasure.RATIO_TO_HIKARI)).isEqualTo(1.0));
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEqualTo(summary);
        String logged = log.toString(StandardCharsets.UTF_8);
        assertThat(logged).contains("[4/4] run 1, slotpool-cache");
        // A pass over every cell, not recorded, warms the JVM up before the first measured run.
        int firstMeasured = logged.indexOf("[1/4] ");
        assertThat(firstMeasured).isPositive();
        for (PoolerCell cell : PoolerCell.values()) {
            assertThat(logged.indexOf("[warm-up, not recorded] run 0, " + cell.id() + ": ")).as("%s", cell)
                    .isBetween(0, firstMeasured);
        }
    }

    @Test
    void optionsNameTheBadOne() {
        assertThat(PoolerOptions.parse("--cells", "slotpool-cache, hikari-defaults").cells())
                .containsExactly(PoolerCell.SLOTPOOL_CACHE, PoolerCell.HIKARI_DEFAULTS);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PoolerOptions.parse("--cells", "hikari"))
                .hasMessageStartingWith("--cells: unknown cell 'hikari'");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PoolerOptions.parse("--instances", "0"))
                .hasMessageStartingWith("--instances:");
    }

    private static PrintStream stream(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
