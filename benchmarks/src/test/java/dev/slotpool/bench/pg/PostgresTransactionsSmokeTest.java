package dev.slotpool.bench.pg;

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
 * CI smoke test: the quick grid on the embedded server commits real transactions in every cell, without an
 * error, and writes every output; every pool warms the JVM up before the first measured run, and each run starts
 * one pool further along. Numbers from this run mean nothing.
 */
class PostgresTransactionsSmokeTest {

    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G'};
    private static final List<String> POOLS = List.of("slotpool", "hikari", "ucp");

    @TempDir
    Path out;

    @Test
    void quickGridCommitsInEveryCellAndWritesEveryOutput() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PostgresTransactions.Outcome outcome = PostgresTransactions.run(TransactionOptions.parse("--quick",
                "--pools", String.join(",", POOLS), "--threads", "2,8", "--connections", "2",
                // Longer than --quick's 300 ms: on a loaded 2-core machine a pool's 8 threads over 2 connections
                // committed nothing in 300 ms, and this test checks the harness, not a pool's speed.
                "--warmup", "500ms", "--window", "1s", "--runs", "2",
                "--out", out.toString()), stream(printed), stream(log));

        assertThat(outcome.samples()).hasSize(POOLS.size() * 4);
        assertThat(outcome.samples()).allSatisfy(s -> {
            assertThat(s.firstError()).as("%s", s.cell()).isNull();
            assertThat(s.get(Measure.TRANSACTIONS)).as("%s", s.cell()).isPositive();
            assertThat(s.get(Measure.THREAD_MIN)).as("%s: every thread committed", s.cell()).isPositive();
            assertThat(s.get(Measure.ERRORS)).as("%s", s.cell()).isZero();
            assertThat(s.get(Measure.BALANCE_DRIFT)).as("%s", s.cell()).isZero();
            assertThat(s.get(Measure.P999_MS)).as("%s", s.cell()).isPositive();
            // A transaction's work is part of its latency, whose mean the ideal is.
            assertThat(s.get(Measure.WORK_MS)).as("%s", s.cell()).isPositive()
                    .isLessThanOrEqualTo(s.get(Measure.IDEAL_MS));
            assertThat(s.get(Measure.BUSY_SHARE)).as("%s", s.cell()).isPositive();
            assertThat(s.get(Measure.FIFO_FLOOR)).as("%s", s.cell()).isGreaterThanOrEqualTo(1.0);
            assertThat(s.get(Measure.MACHINE_BUSY)).as("%s", s.cell()).isBetween(0.0, 1.0);
            assertThat(s.get(Measure.CLIENT_CPU_US)).as("%s", s.cell()).isPositive();
            // Each transaction's backend waits for at least its client's first statement.
            assertThat(s.get(Measure.SERVER_SLEEPS)).as("%s", s.cell()).isPositive();
        });
        // Every balance started at 0: the table holds exactly what the threads say they committed.
        assertThat(outcome.balanceSum()).isEqualTo(outcome.committedDelta());
        assertThat(outcome.samples().stream().filter(s -> s.cell().pool().id().equals("hikari")))
                .allSatisfy(s -> assertThat(s.get(Measure.RATIO_TO_HIKARI)).isEqualTo(1.0));

        assertThat(Files.readAllLines(out.resolve("runs.csv"))).hasSize(1 + POOLS.size() * 4)
                .first().asString().startsWith("pool,connections,threads,run,jdk,");
        assertThat(Files.readAllLines(out.resolve("medians.csv"))).hasSize(1 + POOLS.size() * 2);
        for (String chart : List.of("throughput-2-connections.png", "p999-over-ideal-2-connections.png")) {
            byte[] png = Files.readAllBytes(out.resolve(chart));
            assertThat(Arrays.copyOf(png, 4)).as(chart).isEqualTo(PNG_MAGIC);
        }
        String summary = Files.readString(out.resolve("summary.md"));
        assertThat(summary).contains("## 2 connections", "| FIFO floor |",
                "Balance check: the sum of all balances equals");
        for (String pool : POOLS) {
            assertThat(summary).contains("| 2 | " + pool + " |", "| 8 | " + pool + " |");
        }
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEqualTo(summary);
        String logged = log.toString(StandardCharsets.UTF_8);
        // The JVM compiles the driver's and the harness's code during whichever run comes first: a pass over every
        // pool, not recorded, comes before the first measured run.
        int firstMeasured = logged.indexOf("[1/12] ");
        assertThat(firstMeasured).isPositive();
        for (String pool : POOLS) {
            assertThat(logged.indexOf("[warm-up, not recorded] 2 connections, 2 threads, run 0, " + pool + ": "))
                    .as(pool).isBetween(0, firstMeasured);
        }
        assertThat(logged).contains("[1/12] 2 connections, 2 threads, run 1, slotpool",
                "[4/12] 2 connections, 2 threads, run 2, hikari", "[6/12] 2 connections, 2 threads, run 2, slotpool",
                "[12/12] 2 connections, 8 threads, run 2, slotpool");
    }

    private static PrintStream stream(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
