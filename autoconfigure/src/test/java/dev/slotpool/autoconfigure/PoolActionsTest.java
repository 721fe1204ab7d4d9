package dev.slotpool.autoconfigure;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.PoolActions.Action;
import dev.slotpool.autoconfigure.PoolActions.Outcome;
import dev.slotpool.autoconfigure.PoolActions.Problem;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one read and apply of an operator's action that the endpoint, the console and the FAN adapter
 * share; their own tests cover what each adds (HTTP status, outcome text, logs).
 */
class PoolActionsTest {

    private SlotPoolDataSource pool;

    @BeforeEach
    void start() {
        pool = SlotPoolDataSource.builder().name("actions").minSize(0).initialSize(0).maxSize(3)
                .housekeepingPeriod(Duration.ofMinutes(10))
                .origin(OriginConfig.named("east").url(StubDatabase.reset("actions-east").url()).host("db1"))
                .origin(OriginConfig.named("west").url(StubDatabase.reset("actions-west").url()).host("db2"))
                .build();
    }

    @AfterEach
    void stop() {
        pool.close();
    }

    private OriginState state(String origin) {
        return pool.snapshot().origin(origin).orElseThrow().state();
    }

    @Test
    void anOriginActionTakesANameOrASelector() {
        assertThat(PoolActions.apply(pool, "host=db2", () -> PoolActionInput.originAction("DOWN", null)))
                .isEqualTo(new Outcome("down", "host=db2", "marked DOWN", null));
        assertThat(state("west")).isEqualTo(OriginState.DOWN);
        assertThat(state("east")).isEqualTo(OriginState.UP);
        assertThat(PoolActions.apply(pool, "west", () -> PoolActionInput.originAction("up", null))).isInstanceOf(Outcome.class);
        assertThat(state("west")).isEqualTo(OriginState.UP);
    }

    @Test
    void aDrainWithoutATimeoutTakesTheDefaultAndPrintsItAsARequestWouldWriteIt() {
        assertThat(PoolActions.apply(pool, "east", () -> PoolActionInput.originAction("drain", null)))
                .isEqualTo(new Outcome("drain", "east", "draining within 30s", null));
        assertThat(PoolActions.apply(pool, "west", Action.drain(Duration.ofMillis(1500))))
                .isEqualTo(new Outcome("drain", "west", "draining within 1500ms", null));
        assertThat(PoolActions.print(PoolActions.DEFAULT_DRAIN_TIMEOUT)).isEqualTo("30s");
    }

    @Test
    void aRefusalIsAProblemAndChangesNothing() {
        assertThat(PoolActions.apply(pool, "south", () -> PoolActionInput.originAction("down", null))).isEqualTo(
                Problem.badRequest("unknown origin 'south' (known origins: east, west)"));
        assertThat(PoolActions.apply(pool, "host=db9", () -> PoolActionInput.originAction("down", null))).isEqualTo(
                Problem.badRequest("no origin matches 'host=db9' (known origins: east, west)"));
        assertThat(PoolActions.apply(pool, "east", () -> PoolActionInput.originAction("up", "5s"))).isEqualTo(
                Problem.badRequest("'timeout' applies to drain and switchover only"));
        assertThat(PoolActions.apply(pool, null, () -> PoolActionInput.poolAction("rebalance", "east=1,east=2"))).isEqualTo(
                Problem.badRequest("origin 'east' is given twice in weights"));
        assertThat(PoolActions.apply(pool, null, () -> PoolActionInput.poolAction("rebalance", "east=5,south=1"))).isInstanceOf(Problem.class);
        assertThat(state("east")).isEqualTo(OriginState.UP);
        assertThat(pool.snapshot().origin("east").orElseThrow().weight()).isEqualTo(1);
    }

    @Test
    void aRebalanceKeepsTheOrderOfItsWeights() {
        Map<String, Integer> weights = new LinkedHashMap<>();
        weights.put("west", 3);
        weights.put("east", 1);
        assertThat(PoolActions.apply(pool, null, Action.rebalance(weights)))
                .isEqualTo(new Outcome("rebalance", null, "moving toward {west=3, east=1}", null));
        assertThat(PoolActions.apply(pool, null, () -> PoolActionInput.poolAction("rebalance", null)))
                .isEqualTo(new Outcome("rebalance", null, "moving toward the configured weights", null));
    }
}
