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
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one read and apply of an operator's action that the endpoint, the console and the FAN adapter
 * share; their own tests cover what each adds (HTTP status, outcome text, logs).
 */
@ExtendWith(OutputCaptureExtension.class)
class PoolActionsTest {

    private static final PoolActions.Caller OPERATOR = new PoolActions.Caller("console", "alice");

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
        assertThat(PoolActions.apply(pool, "host=db2", () -> PoolActionInput.originAction("DOWN", null), OPERATOR))
                .isEqualTo(new Outcome("down", "host=db2", "marked DOWN", null));
        assertThat(state("west")).isEqualTo(OriginState.DOWN);
        assertThat(state("east")).isEqualTo(OriginState.UP);
        assertThat(PoolActions.apply(pool, "west", () -> PoolActionInput.originAction("up", null), OPERATOR)).isInstanceOf(Outcome.class);
        assertThat(state("west")).isEqualTo(OriginState.UP);
    }

    @Test
    void aDrainWithoutATimeoutTakesTheDefaultAndPrintsItAsARequestWouldWriteIt() {
        assertThat(PoolActions.apply(pool, "east", () -> PoolActionInput.originAction("drain", null), OPERATOR))
                .isEqualTo(new Outcome("drain", "east", "draining within 30s", null));
        assertThat(PoolActions.apply(pool, "west", Action.drain(Duration.ofMillis(1500)), OPERATOR))
                .isEqualTo(new Outcome("drain", "west", "draining within 1500ms", null));
        assertThat(PoolActions.print(PoolActions.DEFAULT_DRAIN_TIMEOUT)).isEqualTo("30s");
    }

    @Test
    void aRefusalIsAProblemAndChangesNothing() {
        assertThat(PoolActions.apply(pool, "south", () -> PoolActionInput.originAction("down", null), OPERATOR)).isEqualTo(
                Problem.badRequest("unknown origin 'south' (known origins: east, west)"));
        assertThat(PoolActions.apply(pool, "host=db9", () -> PoolActionInput.originAction("down", null), OPERATOR)).isEqualTo(
                Problem.badRequest("no origin matches 'host=db9' (known origins: east, west)"));
        assertThat(PoolActions.apply(pool, "east", () -> PoolActionInput.originAction("up", "5s"), OPERATOR)).isEqualTo(
                Problem.badRequest("'timeout' applies to drain and switchover only"));
        assertThat(PoolActions.apply(pool, null, () -> PoolActionInput.poolAction("rebalance", "east=1,east=2"), OPERATOR)).isEqualTo(
                Problem.badRequest("origin 'east' is given twice in weights"));
        assertThat(PoolActions.apply(pool, null, () -> PoolActionInput.poolAction("rebalance", "east=5,south=1"), OPERATOR)).isInstanceOf(Problem.class);
        assertThat(state("east")).isEqualTo(OriginState.UP);
        assertThat(pool.snapshot().origin("east").orElseThrow().weight()).isEqualTo(1);
    }

    @Test
    void aRebalanceKeepsTheOrderOfItsWeights() {
        Map<String, Integer> weights = new LinkedHashMap<>();
        weights.put("west", 3);
        weights.put("east", 1);
        assertThat(PoolActions.apply(pool, null, Action.rebalance(weights), OPERATOR))
                .isEqualTo(new Outcome("rebalance", null, "moving toward {west=3, east=1}", null));
        assertThat(PoolActions.apply(pool, null, () -> PoolActionInput.poolAction("rebalance", null), OPERATOR))
                .isEqualTo(new Outcome("rebalance", null, "moving toward the configured weights", null));
    }

    @Test
    void aMarkThatFindsEveryOriginAlreadySoSaysNothingChanged() {
        assertThat(PoolActions.apply(pool, "east", Action.up(), OPERATOR))
                .isEqualTo(new Outcome("up", "east", "nothing changed: already UP", null));
        assertThat(PoolActions.apply(pool, "east", Action.down(), OPERATOR))
                .isEqualTo(new Outcome("down", "east", "marked DOWN", null));
        assertThat(PoolActions.apply(pool, "east", Action.down(), OPERATOR))
                .isEqualTo(new Outcome("down", "east", "nothing changed: already DOWN", null));
        assertThat(PoolActions.apply(pool, "east", Action.up(), OPERATOR))
                .isEqualTo(new Outcome("up", "east", "marked UP", null));
    }

    @Test
    void everyActionAppliedOrRefusedIsOneAuditLineNamingWhoAndTheDoor(CapturedOutput output) {
        PoolActions.apply(pool, "host=db2", Action.down(), OPERATOR);
        PoolActions.apply(pool, "south", Action.down(), new PoolActions.Caller("jmx", null));
        PoolActions.apply(pool, "east", () -> PoolActionInput.originAction("explode", null),
                new PoolActions.Caller("actuator", "bob"));
        assertThat(output.getAll().lines().filter(l -> l.contains(PoolActions.AUDIT_LOGGER)))
                .hasSize(3)
                .allMatch(l -> l.contains("INFO"))
                .anyMatch(l -> l.endsWith("pool actions: down 'host=db2' via console, user 'alice': marked DOWN"))
                .anyMatch(l -> l.endsWith("pool actions: down 'south' via jmx, no user refused: "
                        + "unknown origin 'south' (known origins: east, west)"))
                .anyMatch(l -> l.contains("pool actions: a request on 'east' via actuator, user 'bob' refused: "));
    }
}
