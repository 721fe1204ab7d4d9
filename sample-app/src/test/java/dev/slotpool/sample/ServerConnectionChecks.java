package dev.slotpool.sample;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The database servers see the pool's connections: as many per origin as the pool reports (and none once the
 * app has closed: {@link ShutdownChecks}).
 */
interface ServerConnectionChecks extends SampleApp {

    @Test
    default void eachServerHoldsThePoolsConnectionsOfItsOrigin() {
        await().atMost(PATIENCE).untilAsserted(() -> {
            for (String origin : ORIGINS) {
                int pooled = pool().snapshot().origin(origin).orElseThrow().total();
                assertThat(pooled).as("pool connections of %s", origin).isPositive();
                assertThat(serverConnections(origin)).as("server connections of %s", origin).isEqualTo(pooled);
            }
        });
    }
}
