package dev.slotpool.bench.jmh;

import dev.slotpool.SlotSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CI smoke: the annotation processor's benchmark list is found in-process, the connection cycle runs on slotpool
 * and HikariCP, and the report renders. Numbers from this run mean nothing (no fork, 200 ms iterations).
 */
class JmhSmokeTest {

    @TempDir
    Path dir;

    @Test
    void connectionCycleRunsAndReports() throws Exception {
        Path json = dir.resolve("jmh-result.json");
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(ConnectionCycleBenchmark.class.getName() + ".unconstrained2t8c")
                .param("pool", "slotpool", "hikari")
                .forks(0)
                .warmupIterations(1).warmupTime(TimeValue.milliseconds(200))
                .measurementIterations(1).measurementTime(TimeValue.milliseconds(200))
                .addProfiler(GCProfiler.class)
                .resultFormat(ResultFormatType.JSON).result(json.toString())
                .verbosity(VerboseMode.SILENT)
                .build()).run();

        assertThat(results).hasSize(2)
                .allSatisfy(r -> assertThat(r.getPrimaryResult().getScore()).isPositive());
        String table = JmhReport.write(json, dir);
        assertThat(table).contains("| ConnectionCycle.unconstrained2t8c | slotpool |",
                "| ConnectionCycle.unconstrained2t8c | hikari |", "1.00×");
        assertThat(JmhReport.read(json)).allSatisfy(r -> assertThat(r.bytesPerOp()).isNotNaN());
        assertThat(dir.resolve("summary.md")).hasContent(table);
        assertThat(dir.resolve("jmh.png")).isNotEmptyFile();
    }

    @Test
    void statementCycleRunsWithSlotpoolsStatementCacheOffAndOn() throws Exception {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(StatementCycleBenchmark.class.getName() + ".statementCycle")
                .param("pool", "slotpool")
                .param("statementCacheSize", "0", "16")
                .forks(0)
                .warmupIterations(1).warmupTime(TimeValue.milliseconds(200))
                .measurementIterations(1).measurementTime(TimeValue.milliseconds(200))
                .verbosity(VerboseMode.SILENT)
                .build()).run();

        assertThat(results).hasSize(2)
                .allSatisfy(r -> assertThat(r.getPrimaryResult().getScore()).isPositive());
        assertThat(results).extracting(r -> r.getParams().getParam("statementCacheSize"))
                .containsExactlyInAnyOrder("0", "16");
    }

    @Test
    void tenPercentLabeledSitInEveryTenthSlot() throws Exception {
        OriginsBenchmark.LabeledPool pool = new OriginsBenchmark.LabeledPool();
        pool.labeledPercent = 10;
        pool.start();
        try {
            List<Integer> labeled = pool.dataSource.snapshot().origins().stream()
                    .flatMap(o -> o.slots().stream())
                    .filter(s -> !s.labels().isEmpty()).map(SlotSnapshot::index).sorted().toList();
            assertThat(labeled).isEqualTo(IntStream.iterate(9, i -> i < 1000, i -> i + 10).boxed().toList());
        } finally {
            pool.stop();
        }
    }
}
