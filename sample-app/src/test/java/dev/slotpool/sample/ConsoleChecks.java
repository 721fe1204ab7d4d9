package dev.slotpool.sample;

import dev.slotpool.OriginState;
import dev.slotpool.sample.Http.Response;
import dev.slotpool.sample.Http.Session;
import dev.slotpool.sample.Http.User;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The admin console at /slotpool behind the sample's page chain: viewers read, admins act with a CSRF token. */
interface ConsoleChecks extends SampleApp {

    @Test
    default void theConsoleRendersForTheViewerAndRedirectsAnonymous() {
        Response anonymous = http().get("/slotpool", User.ANONYMOUS);
        assertThat(anonymous.status()).as("%s", anonymous).isEqualTo(302);
        assertThat(anonymous.header("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/login"));

        Session viewer = http().login(User.VIEWER);
        Response page = viewer.get("/slotpool");
        assertThat(page.status()).as("%s", page).isEqualTo(200);
        for (String origin : ORIGINS) {
            assertThat(page.body()).contains("data-origin=\"" + origin + "\"");
        }
        assertThat(page.body()).contains("<span class=\"pool-name\">shop</span>", "class=\"badge badge-up\"",
                "<meta name=\"_csrf\"").doesNotContain(DB_PASSWORD);
        assertThat(viewer.get("/slotpool/snapshot").status()).isEqualTo(200);
        assertThat(viewer.get("/slotpool/assets/console.js").status()).isEqualTo(200);
        assertThat(http().login(User.ADMIN).get("/").body()).contains("href=\"/slotpool\"");
    }

    @Test
    default void theViewerCannotDrainAndTheAdminCanWithACsrfToken() {
        Session viewer = http().login(User.VIEWER);
        String viewerToken = viewer.csrfTokenOf("/slotpool"); // no buttons for a viewer; the chain refuses the post
        Response refused = viewer.postForm("/slotpool/origins/north/drain", Map.of("timeout", "30s", "_csrf", viewerToken));
        assertThat(refused.status()).as("%s", refused).isEqualTo(403);
        assertThat(pool().snapshot().origin("north").orElseThrow().state()).isEqualTo(OriginState.UP);

        Session admin = http().login(User.ADMIN);
        Response noToken = admin.postForm("/slotpool/origins/north/drain", Map.of("timeout", "30s"));
        assertThat(noToken.status()).as("no token: %s", noToken).isEqualTo(403);
        assertThat(pool().snapshot().origin("north").orElseThrow().state()).isEqualTo(OriginState.UP);

        Response drained = admin.postForm("/slotpool/origins/north/drain",
                Map.of("timeout", "30s", "_csrf", admin.csrfTokenOf("/slotpool")));
        assertThat(drained.status()).as("%s", drained).isEqualTo(200);
        assertThat(drained.body()).contains("\"action\":\"drain\"", "\"origin\":\"north\"",
                "\"outcome\":\"draining within 30s\"");
        assertThat(PoolState.ofAction(drained.body()).origin("north").state()).as("the pool after it, as the endpoint answers")
                .isNotEqualTo("UP");
        assertThat(pool().snapshot().origin("north").orElseThrow().state()).isNotEqualTo(OriginState.UP);
    }

    /**
     * Every part of the console needs a login (anonymous reads go to the login page, posts are refused), and no
     * console action (nor a slot's detail, which names its holder) is the viewer's, even with a valid token; HTTP Basic, which the Actuator chain takes, does
     * not open the console's chain.
     */
    @Test
    default void anonymousReadsNothingAndTheViewerTakesNoAction() {
        for (String read : List.of("/slotpool/snapshot", "/slotpool/stream", "/slotpool/origins/east/slots/0",
                "/slotpool/assets/console.js")) {
            Response r = http().get(read, User.ANONYMOUS);
            assertThat(r.status()).as("anonymous GET %s: %s", read, r).isEqualTo(302);
            assertThat(r.header("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/login"));
            assertThat(http().get(read, User.ADMIN).status()).as("GET %s with Basic", read).isEqualTo(302);
        }
        PoolState before = poolState();
        Session anonymous = http().session();
        String anonymousToken = anonymous.csrfTokenOf("/login");
        Session viewer = http().login(User.VIEWER);
        String viewerToken = viewer.csrfTokenOf("/slotpool");
        for (String action : List.of("/slotpool/actions/rebalance", "/slotpool/origins/north/drain",
                "/slotpool/origins/north/down", "/slotpool/origins/north/up")) {
            Response a = anonymous.postForm(action, Map.of("_csrf", anonymousToken));
            assertThat(a.status()).as("anonymous POST %s: %s", action, a).isIn(302, 403);
            Response v = viewer.postForm(action, Map.of("_csrf", viewerToken));
            assertThat(v.status()).as("viewer POST %s: %s", action, v).isEqualTo(403);
            assertThat(http().post(action, "application/x-www-form-urlencoded", "", User.ADMIN).status())
                    .as("POST %s with Basic and no session", action).isEqualTo(403);
        }
        assertThat(poolState().routing()).isEqualTo(before.routing());
        // A slot's detail names the holder thread: it is the operators' (toConsoleActions()), not the viewer's.
        assertThat(viewer.get("/slotpool/origins/east/slots/0").status()).isEqualTo(403);
    }
}
