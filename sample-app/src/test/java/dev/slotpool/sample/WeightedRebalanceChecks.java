package dev.slotpool.sample;

import dev.slotpool.sample.Http.Response;
import dev.slotpool.sample.Http.User;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /actuator/pool} with {@code "weights"} over real HTTP. Actuator binds a request body as a flat map
 * of strings, so the weights travel as one {@code "origin=weight,..."} string; a nested object is refused.
 */
interface WeightedRebalanceChecks extends SampleApp {

    @Test
    default void rebalanceWithWeightsChangesTheWeightsAndBackAgain() {
        Response r = http().postJson("/actuator/pool",
                "{\"action\":\"rebalance\",\"weights\":\"east=70,west=20,north=10\"}", User.ADMIN);
        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(poolState().weights()).isEqualTo(Map.of("east", 70, "west", 20, "north", 10));

        assertThat(http().postJson("/actuator/pool", "{\"action\":\"rebalance\"}", User.ADMIN).status()).isEqualTo(200);
        assertThat(poolState().weights()).isEqualTo(CONFIGURED_WEIGHTS);
    }

    @Test
    default void aNegativeWeightIsRefused() {
        refused("{\"action\":\"rebalance\",\"weights\":\"east=-1\"}", "east");
    }

    @Test
    default void allZeroWeightsAreRefused() {
        refused("{\"action\":\"rebalance\",\"weights\":\"east=0,west=0,north=0\"}", "weight > 0");
    }

    @Test
    default void aNonNumericWeightIsRefused() {
        refused("{\"action\":\"rebalance\",\"weights\":\"west=lots\"}", "lots");
    }

    @Test
    default void anUnknownOriginInTheWeightsIsRefused() {
        PoolState before = poolState();
        Response r = http().postJson("/actuator/pool", "{\"action\":\"rebalance\",\"weights\":\"south=10\"}",
                User.ADMIN);
        assertThat(r.status()).as("%s", r).isEqualTo(400);
        assertThat(BadInputChecks.message(r)).contains("unknown origin 'south'");
        assertThat(poolState().routing()).isEqualTo(before.routing());
    }

    @Test
    default void aNestedWeightsObjectIsRefusedAndChangesNothing() {
        PoolState before = poolState();
        Response r = http().postJson("/actuator/pool",
                "{\"action\":\"rebalance\",\"weights\":{\"east\":70}}", User.ADMIN);
        assertThat(r.status()).as("%s", r).isEqualTo(400);
        assertThat(poolState().routing()).isEqualTo(before.routing());
    }

    private void refused(String json, String messagePart) {
        PoolState before = poolState();
        Response r = http().postJson("/actuator/pool", json, User.ADMIN);
        assertThat(r.status()).as("%s", r).isEqualTo(400);
        assertThat(BadInputChecks.message(r)).contains("weight").contains(messagePart);
        assertThat(poolState().routing()).isEqualTo(before.routing());
    }
}
