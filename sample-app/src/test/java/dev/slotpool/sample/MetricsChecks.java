package dev.slotpool.sample;

import com.jayway.jsonpath.JsonPath;
import dev.slotpool.sample.Http.Response;
import dev.slotpool.sample.Http.User;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The pool's meters through {@code /actuator/metrics} and {@code /actuator/prometheus}. */
interface MetricsChecks extends SampleApp {

    /** Borrows through the app's own transactions until every origin has served some. */
    default void someLoad() {
        await().atMost(PATIENCE).until(() -> {
            shop().catalog();
            return ORIGINS.stream().allMatch(o -> pool().snapshot().origin(o).orElseThrow().borrows() > 0);
        });
    }

    @Test
    default void poolMetersAreServedByOrigin() {
        someLoad();
        Response connections = http().get("/actuator/metrics/slotpool.connections", User.VIEWER);
        assertThat(connections.status()).isEqualTo(200);
        assertThat(JsonPath.<List<String>>read(connections.body(), "$.availableTags[?(@.tag=='origin')].values[*]"))
                .containsExactlyInAnyOrderElementsOf(ORIGINS);
        assertThat(JsonPath.<List<String>>read(connections.body(), "$.availableTags[?(@.tag=='state')].values[*]"))
                .contains("available", "borrowed");
        // The gauges read a snapshot at most once a second: poll until they agree with the pool's own count.
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(
                value(http().get("/actuator/metrics/slotpool.connections", User.VIEWER).body(), "VALUE"))
                .as("all connections, every origin and state").isEqualTo(pool().snapshot().total()).isPositive());

        for (String origin : ORIGINS) {
            Response wait = http().get("/actuator/metrics/slotpool.borrow.wait?tag=origin:" + origin, User.VIEWER);
            assertThat(wait.status()).isEqualTo(200);
            assertThat(value(wait.body(), "COUNT")).as("borrows timed on %s", origin).isPositive();
        }

        Response active = http().get("/actuator/metrics/jdbc.connections.active", User.VIEWER);
        assertThat(active.status()).as("Boot's DataSource meters see the pool: %s", active).isEqualTo(200);
        assertThat(http().get("/actuator/metrics/jdbc.connections.max", User.VIEWER).body()).contains("\"value\":12.0");
    }

    @Test
    default void prometheusExportsBorrowWaitsAndOriginStatesByOrigin() {
        someLoad();
        Response r = http().get("/actuator/prometheus", User.VIEWER);
        assertThat(r.status()).isEqualTo(200);
        List<String> lines = r.body().lines().toList();
        for (String origin : ORIGINS) {
            assertThat(lines).as("borrow wait quantiles of %s", origin).anyMatch(l -> l.startsWith("slotpool_borrow_wait_seconds{")
                    && l.contains("origin=\"" + origin + "\"") && l.contains("quantile=\"0.99\""));
            assertThat(lines).as("borrow count of %s", origin).anyMatch(l -> l.startsWith("slotpool_borrow_wait_seconds_count{")
                    && l.contains("origin=\"" + origin + "\"") && !l.endsWith(" 0.0") && !l.endsWith(" 0"));
            assertThat(lines).as("state of %s", origin).anyMatch(l -> l.startsWith("slotpool_origin_state{")
                    && l.contains("origin=\"" + origin + "\"") && l.contains("state=\"UP\"") && l.endsWith(" 1.0"));
        }
    }

    @Test
    default void prometheusExportsTheConnectionGaugeByState() {
        Response r = http().get("/actuator/prometheus", User.VIEWER);
        List<String> lines = r.body().lines().toList();
        for (String origin : ORIGINS) {
            assertThat(lines).as("connections of %s by state", origin).anyMatch(l -> l.startsWith("slotpool_connections{")
                    && l.contains("origin=\"" + origin + "\"") && l.contains("state=\"available\""));
        }
    }

    private static double value(String json, String statistic) {
        List<Double> values = JsonPath.read(json, "$.measurements[?(@.statistic=='" + statistic + "')].value");
        assertThat(values).as("%s in %s", statistic, json).hasSize(1);
        return values.get(0);
    }
}
