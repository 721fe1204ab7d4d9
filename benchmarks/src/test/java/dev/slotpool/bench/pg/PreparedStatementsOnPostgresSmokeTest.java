package dev.slotpool.bench.pg;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CI smoke: every variant runs on the embedded server in every run and the table renders; a pass over every
 * variant, not counted, comes first, and each run starts one variant further along. Numbers from this run mean
 * nothing.
 */
class PreparedStatementsOnPostgresSmokeTest {

    @Test
    void everyVariantRunsAndReports() throws Exception {
        PreparedStatementsOnPostgres.Options options = PreparedStatementsOnPostgres.Options.parse(new String[] {
                "--seconds", "0.3", "--warmup", "0.2", "--threads", "2", "--pool-size", "2", "--queries", "4",
                "--cache-size", "8", "--runs", "2"});
        List<PreparedStatementsOnPostgres.Variant> variants = options.variants();
        List<PreparedStatementsOnPostgres.Result> results = PreparedStatementsOnPostgres.run(options);

        assertThat(results).hasSize(3 * variants.size()).allSatisfy(r -> assertThat(r.operations()).isPositive());
        // In the order they ran: the warm-up pass (run 0) in the given order, run 1 in it too, run 2 one further.
        assertThat(results).extracting(PreparedStatementsOnPostgres.Result::run)
                .containsExactly(0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2);
        assertThat(results.subList(0, variants.size())).extracting(PreparedStatementsOnPostgres.Result::variant)
                .containsExactlyElementsOf(variants);
        assertThat(results.get(2 * variants.size()).variant()).isEqualTo(variants.get(1));
        assertThat(results.get(3 * variants.size() - 1).variant()).isEqualTo(variants.get(0));
        assertThat(results).filteredOn(r -> r.variant().statementCacheSize() > 0)
                .allSatisfy(r -> assertThat(r.cacheHits()).isPositive());
        assertThat(results).filteredOn(r -> r.variant().statementCacheSize() == 0)
                .allSatisfy(r -> assertThat(r.cacheHits() + r.cacheMisses()).isZero());
        assertThat(PreparedStatementsOnPostgres.table(options, results))
                .contains("| both caches | 8 | 5 | 256 |", "| HikariCP as it ships", "slotpool cache hit %",
                        "÷ HikariCP, median of runs (each run)", "2 runs");
    }
}
