package dev.slotpool.bench.scaling;

import dev.slotpool.bench.PoolKind;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Fairness, timeouts and medians: the numbers the tables are made of. */
class AggregationTest {

    @Test
    void fairnessCountsThreadsBelowAQuarterOfTheMedian() {
        Fairness f = Fairness.of(new long[] {40, 4, 10, 41, 40});
        assertThat(f.min()).isEqualTo(4);
        assertThat(f.median()).isEqualTo(40);
        assertThat(f.max()).isEqualTo(41);
        assertThat(f.starved()).as("4 is below 25 %% of 40; 10 is not").isEqualTo(1);
        assertThat(f.ratio()).isEqualTo(0.1);
    }

    @Test
    void withAZeroMedianTheThreadsWithNoBorrowAreStarved() {
        Fairness f = Fairness.of(new long[] {0, 0, 0, 5, 9000});
        assertThat(f.median()).isZero();
        assertThat(f.starved()).isEqualTo(3);
        assertThat(f.ratio()).isZero();
    }

    @Test
    void timeoutsAreRecognisedByTypeOrMessage() {
        assertThat(Worker.isTimeout(new SQLTransientConnectionException("pool exhausted"))).isTrue();
        assertThat(Worker.isTimeout(new SQLException("Timeout: Pool empty. Unable to fetch a connection"))).isTrue();
        assertThat(Worker.isTimeout(new SQLException("request timed out after 30000ms"))).isTrue();
        assertThat(Worker.isTimeout(new SQLException("UCP-29: Failed to get a connection",
                new Exception("UCP-45064: All connections in the Universal Connection Pool are in use")))).isTrue();
        assertThat(Worker.isTimeout(new SQLException("connection refused", new Exception("reset")))).isFalse();
        assertThat(Worker.isTimeout(new IllegalStateException((String) null))).isFalse();
    }

    @Test
    void runsCombineIntoMediansAndStragglersIntoASum() {
        Cell cell = new Cell(ThreadKind.PLATFORM, Mode.SCALING, PoolKind.SLOTPOOL, 10);
        List<Sample> runs = List.of(
                new Sample(cell, 1, Map.of(Metric.BORROWS_PER_S, 300.0, Metric.STRAGGLERS, 1.0), null),
                new Sample(cell, 2, Map.of(Metric.BORROWS_PER_S, 100.0, Metric.STRAGGLERS, 0.0), null),
                new Sample(cell, 3, Map.of(Metric.BORROWS_PER_S, 200.0, Metric.STRAGGLERS, 2.0), null));
        CellResult r = CellResult.combine(runs).get(0);
        assertThat(r.runs()).isEqualTo(3);
        assertThat(r.get(Metric.BORROWS_PER_S)).isEqualTo(200.0);
        assertThat(r.get(Metric.STRAGGLERS)).isEqualTo(3.0);
        assertThat(r.get(Metric.WAIT_P999_MS)).isNaN();
        assertThat(CellResult.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
    }
}
