package dev.slotpool.sample;

import dev.slotpool.sample.Http.Response;
import dev.slotpool.sample.Http.User;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The databases' password is really in use, and no response shows it: the endpoint, health, metrics, Prometheus,
 * the pages, and the console's page, snapshot, slot details and event stream. (The log check is the last step of
 * {@link ShutdownChecks}, so it covers everything the app printed from startup to shutdown.)
 */
interface SecretChecks extends SampleApp {

    @Test
    default void thePasswordIsInUse() throws SQLException {
        for (String origin : ORIGINS) {
            try (Connection c = connectDirectly(origin, DB_PASSWORD)) {
                assertThat(c.isValid(5)).isTrue();
            }
            assertThatThrownBy(() -> connectDirectly(origin, "not-" + DB_PASSWORD).close())
                    .as("a wrong password is refused by %s", origin).isInstanceOf(SQLException.class);
        }
    }

    @Test
    default void noResponseShowsThePassword() {
        List<Response> responses = new ArrayList<>();
        for (String path : List.of("/actuator/pool", "/actuator/pool/east", "/actuator/pool/west", "/actuator/pool/north",
                "/actuator/pool/south", "/actuator/health", "/actuator/health/slotpool", "/actuator/health/db",
                "/actuator/metrics", "/actuator/metrics/slotpool.connections", "/actuator/metrics/slotpool.borrow.wait",
                "/actuator/metrics/jdbc.connections.active", "/actuator/prometheus", "/actuator")) {
            responses.add(http().get(path, User.ADMIN));
        }
        responses.add(http().postJson("/actuator/pool", "{\"action\":\"rebalance\"}", User.ADMIN));
        responses.add(http().postJson("/actuator/pool/north", "{\"action\":\"drain\",\"timeout\":\"nope\"}", User.ADMIN));
        responses.add(http().postJson("/actuator/pool/north", "{\"action\":", User.ADMIN));
        Http.Session admin = http().login(User.ADMIN);
        responses.add(admin.get("/"));
        responses.add(admin.get("/load"));
        responses.add(admin.get("/slotpool"));
        responses.add(admin.get("/slotpool/snapshot"));
        responses.add(admin.get("/slotpool/origins/east/slots/0"));
        responses.add(admin.get("/slotpool/origins/south/slots/0"));
        Response event = admin.firstEvent("/slotpool/stream");
        assertThat(event.body()).as("the stream's first event").contains("event:snapshot", "data:{");
        responses.add(event);
        for (Response r : responses) {
            assertThat(r.status()).as("%s", r).isIn(200, 400, 404);
            assertThat(r.body()).doesNotContain(DB_PASSWORD);
            assertThat(r.headers().toString()).doesNotContain(DB_PASSWORD);
        }
    }
}
