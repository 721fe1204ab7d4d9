package dev.slotpool.bench.pg;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** CI smoke: every variant runs on the embedded server and the table renders. Numbers from this run mean nothing. */
class PreparedStatementsOnPostgresSmokeTest {

    @Test
    void everyVariantRunsAndReports() throws Exception {
        PreparedStatementsOnPostgres.Options options = PreparedStatementsOnPostgres.Options.parse(new String[] {
                "--seconds", "0.3", "--warmup", "0.2", "--threads", "2", "--pool-size", "2", "--queries", "4",
                "--cache-size", "8"});
        List<PreparedStatementsOnPostgres.Result> results = PreparedStatementsOnPostgres.run(options);

        assertThat(results).hasSize(5).allSatisfy(r -> assertThat(r.operations()).isPositive());
        assertThat(results).filteredOn(r -> r.variant().statementCacheSize() > 0)
                .allSatisfy(r -> assertThat(r.cacheHits()).isPositive());
        assertThat(results).filteredOn(r -> r.variant().statementCacheSize() == 0)
                .allSatisfy(r -> assertThat(r.cacheHits() + r.cacheMisses()).isZero());
        assertThat(PreparedStatementsOnPostgres.table(options, results))
                .contains("| both caches | 8 | 5 | 256 |", "| HikariCP as it ships", "slotpool cache hit %");
    }
}
