package dev.slotpool.sample;

import dev.slotpool.sample.Http.Response;
import dev.slotpool.sample.Http.User;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The admin acts on the pool over HTTP and the pool really changes. */
interface PoolActionChecks extends SampleApp {

    @Test
    default void aDrainHoldsTheOriginDrainingUntilItsConnectionsReturnAndUpRestoresIt() throws SQLException {
        List<Connection> held = new ArrayList<>();
        try {
            // Hold connections until one is north's: the drain then cannot finish until it comes back.
            while (northBorrowed() == 0 && held.size() < pool().config().maxSize()) {
                held.add(pool().getConnection());
            }
            assertThat(northBorrowed()).as("a held connection of north").isPositive();

            Response drain = http().postJson("/actuator/pool/north", "{\"action\":\"drain\",\"timeout\":\"30s\"}",
                    User.ADMIN);
            assertThat(drain.status()).as("%s", drain).isEqualTo(200);
            assertThat(PoolState.ofAction(drain.body()).origin("north").state()).isEqualTo("DRAINING");
            PoolState draining = poolState();
            assertThat(draining.origin("north").state()).isEqualTo("DRAINING");
            assertThat(draining.origin("east").state()).isEqualTo("UP");
            assertThat(http().get("/actuator/pool/north", User.VIEWER).body()).contains("\"state\":\"DRAINING\"");
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
        // Returned connections of a draining origin are closed; the emptied origin turns DOWN.
        await().atMost(PATIENCE).untilAsserted(() -> {
            PoolState.Origin north = poolState().origin("north");
            assertThat(north.state()).isEqualTo("DOWN");
            assertThat(north.stateReason()).isEqualTo("drained");
            assertThat(north.total()).isZero();
        });

        Response up = http().postJson("/actuator/pool/north", "{\"action\":\"up\"}", User.ADMIN);
        assertThat(up.status()).as("%s", up).isEqualTo(200);
        assertThat(poolState().origin("north").state()).isEqualTo("UP");
    }

    private int northBorrowed() {
        return pool().snapshot().origin("north").orElseThrow().borrowed();
    }

    @Test
    default void downAndUp() {
        Response down = http().postJson("/actuator/pool/west", "{\"action\":\"down\"}", User.ADMIN);
        assertThat(down.status()).as("%s", down).isEqualTo(200);
        assertThat(down.body()).contains("\"action\":\"down\"", "\"origin\":\"west\"");
        PoolState.Origin west = poolState().origin("west");
        assertThat(west.state()).isEqualTo("DOWN");
        assertThat(west.stateReason()).isEqualTo("marked down");
        assertThat(pool().snapshot().origin("west").orElseThrow().state().name()).isEqualTo("DOWN");

        assertThat(http().postJson("/actuator/pool/west", "{\"action\":\"up\"}", User.ADMIN).status()).isEqualTo(200);
        assertThat(poolState().origin("west").state()).isEqualTo("UP");
    }

    @Test
    default void rebalanceWithoutWeightsGoesBackToTheConfiguredOnes() {
        pool().rebalance(Map.of("east", 10, "west", 10, "north", 80));
        assertThat(poolState().weights()).isEqualTo(Map.of("east", 10, "west", 10, "north", 80));

        Response r = http().postJson("/actuator/pool", "{\"action\":\"rebalance\"}", User.ADMIN);
        assertThat(r.status()).as("%s", r).isEqualTo(200);
        assertThat(PoolState.ofAction(r.body()).weights()).isEqualTo(CONFIGURED_WEIGHTS);
        assertThat(poolState().weights()).isEqualTo(CONFIGURED_WEIGHTS);
    }
}
