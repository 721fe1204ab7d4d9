package dev.slotpool.sample;

import dev.slotpool.sample.Http.Response;
import dev.slotpool.sample.Http.Session;
import dev.slotpool.sample.Http.User;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Who may do what, over real HTTP: the security rules of {@code SecurityConfiguration}. */
interface EndpointAccessChecks extends SampleApp {

    List<String> READS = List.of("/actuator", "/actuator/pool", "/actuator/pool/north", "/actuator/metrics",
            "/actuator/metrics/slotpool.connections", "/actuator/prometheus");

    @Test
    default void anonymousGets401FromTheApiAndTheLoginPageForPages() {
        for (String path : READS) {
            Response r = http().get(path, User.ANONYMOUS);
            assertThat(r.status()).as("GET %s", path).isEqualTo(401);
            assertThat(r.header("WWW-Authenticate")).as("GET %s", path)
                    .hasValueSatisfying(h -> assertThat(h).startsWith("Basic"));
            assertThat(r.header("Set-Cookie")).as("no session for a refused API call").isEmpty();
        }
        Response write = http().postJson("/actuator/pool/north", "{\"action\":\"down\"}", User.ANONYMOUS);
        assertThat(write.status()).isEqualTo(401);
        assertThat(http().postJson("/actuator/pool/north", "{\"action\":\"switchover\",\"to\":\"east\"}",
                User.ANONYMOUS).status()).isEqualTo(401);
        assertThat(poolState().origin("north").state()).isEqualTo("UP");

        for (String page : List.of("/", "/load")) {
            Response r = http().get(page, User.ANONYMOUS);
            assertThat(r.status()).as("GET %s", page).isEqualTo(302);
            assertThat(r.header("Location")).as("GET %s", page).hasValueSatisfying(l -> assertThat(l).endsWith("/login"));
        }
    }

    @Test
    default void aWrongPasswordGets401() {
        Response r = http().send(http().request("/actuator/pool", User.ANONYMOUS, null)
                .header("Authorization", "Basic dmlld2VyOndyb25n").GET()); // viewer:wrong
        assertThat(r.status()).isEqualTo(401);
    }

    @Test
    default void healthIsOpenToAllAndItsDetailsToLoggedInUsers() {
        Response anonymous = http().get("/actuator/health", User.ANONYMOUS);
        assertThat(anonymous.status()).isEqualTo(200);
        assertThat(anonymous.body()).contains("\"status\":\"UP\"").doesNotContain("components", "slotpool");

        Response viewer = http().get("/actuator/health", User.VIEWER);
        assertThat(viewer.status()).isEqualTo(200);
        assertThat(viewer.body()).contains("\"slotpool\"", "\"east\"", "\"west\"", "\"north\"", "\"db\"");
    }

    @Test
    default void theViewerReadsButCannotWrite() {
        for (String path : READS) {
            assertThat(http().get(path, User.VIEWER).status()).as("GET %s", path).isEqualTo(200);
        }
        PoolState before = poolState();
        assertThat(http().postJson("/actuator/pool/north", "{\"action\":\"down\"}", User.VIEWER).status()).isEqualTo(403);
        assertThat(http().postJson("/actuator/pool/north", "{\"action\":\"drain\",\"timeout\":\"1s\"}", User.VIEWER).status())
                .isEqualTo(403);
        assertThat(http().postJson("/actuator/pool", "{\"action\":\"rebalance\"}", User.VIEWER).status()).isEqualTo(403);
        assertThat(http().postJson("/actuator/pool/north", "{\"action\":\"switchover\",\"to\":\"east\"}",
                User.VIEWER).status()).isEqualTo(403);
        assertThat(poolState().routing()).isEqualTo(before.routing());
    }

    @Test
    default void theAdminReadsToo() {
        for (String path : READS) {
            assertThat(http().get(path, User.ADMIN).status()).as("GET %s", path).isEqualTo(200);
        }
    }

    @Test
    default void aLoggedInBrowserSeesThePagesAndFollowsTheLinksToTheEndpoints() {
        Session viewer = http().login(User.VIEWER);
        Response home = viewer.get("/");
        assertThat(home.status()).isEqualTo(200);
        assertThat(home.body()).contains("href=\"/load\"", "href=\"/actuator/pool\"", "/slotpool");

        Response load = viewer.get("/load");
        assertThat(load.status()).isEqualTo(200);
        assertThat(load.body()).contains("Only an admin").doesNotContain("name=\"threads\"");

        Response pool = viewer.get("/actuator/pool");
        assertThat(pool.status()).as("the login session is honoured by the API chain").isEqualTo(200);
        assertThat(PoolState.of(pool.body()).origins()).containsOnlyKeys(ORIGINS);
    }
}
