package dev.slotpool.sample;

import dev.slotpool.sample.Http.Response;
import dev.slotpool.sample.Http.Session;
import dev.slotpool.sample.Http.User;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CSRF: the page's form needs a token; the Actuator endpoints, which have no token, refuse every body a
 * cross-site page could send (the claim of the comment in {@code SecurityConfiguration}).
 */
interface CsrfChecks extends SampleApp {

    @Test
    default void theLoadFormNeedsACsrfToken() {
        Session admin = http().login(User.ADMIN);
        Map<String, String> start = Map.of("action", "start", "threads", "2", "thinkTime", "50ms");

        Response forged = admin.postForm("/load", start);
        assertThat(forged.status()).as("no token: %s", forged).isEqualTo(403);
        assertThat(load().status().running()).isFalse();

        Response withToken = admin.postForm("/load", withToken(start, admin.csrfTokenOf("/load")));
        assertThat(withToken.status()).as("with the page's token: %s", withToken).isEqualTo(302);
        assertThat(load().status().running()).isTrue();
        assertThat(load().status().threads()).isEqualTo(2);

        Response stop = admin.postForm("/load", withToken(Map.of("action", "stop"), admin.csrfTokenOf("/load")));
        assertThat(stop.status()).isEqualTo(302);
        assertThat(load().status().running()).isFalse();
    }

    @Test
    default void theViewerCannotChangeTheLoadEvenWithAToken() {
        Session viewer = http().login(User.VIEWER);
        String token = viewer.csrfTokenOf("/"); // the viewer's /load has no form; the home page's logout form has one
        Map<String, String> start = Map.of("action", "start", "threads", "2", "thinkTime", "50ms");
        Response r = viewer.postForm("/load", withToken(start, token));
        assertThat(r.status()).isEqualTo(403);
        assertThat(load().status().running()).isFalse();
    }

    /**
     * What a cross-site page can make a logged-in admin's browser send: a form or a "simple" fetch, whose body is
     * text/plain, urlencoded or multipart, with the session cookie. Each is refused with 415 and nothing runs,
     * while the same session with a JSON body (which needs a CORS preflight cross-site) is served: so the
     * content type alone stopped them.
     */
    @Test
    default void crossSiteBodiesAreRefusedByTheEndpoint() {
        Session admin = http().login(User.ADMIN);
        PoolState before = poolState();
        Map<String, String> bodies = Map.of(
                "text/plain", "{\"action\":\"down\"}",
                "application/x-www-form-urlencoded", "action=down",
                "multipart/form-data; boundary=x",
                "--x\r\nContent-Disposition: form-data; name=\"action\"\r\n\r\ndown\r\n--x--\r\n");
        bodies.forEach((type, body) -> {
            Response r = admin.post("/actuator/pool/north", type, body);
            assertThat(r.status()).as("%s: %s", type, r).isEqualTo(415);
            Response basic = http().post("/actuator/pool/north", type, body, User.ADMIN);
            assertThat(basic.status()).as("%s with Basic: %s", type, basic).isEqualTo(415);
        });
        assertThat(poolState().routing()).isEqualTo(before.routing());

        Response json = admin.post("/actuator/pool/north", "application/json", "{\"action\":\"down\"}");
        assertThat(json.status()).as("the same session with JSON: %s", json).isEqualTo(200);
        assertThat(poolState().origin("north").state()).isEqualTo("DOWN");
    }

    /** No CORS is configured: a cross-site preflight for a JSON POST is not allowed. */
    @Test
    default void aCrossSitePreflightIsNotAllowed() {
        Response r = http().send(http().request("/actuator/pool/north", User.ANONYMOUS, null)
                .header("Origin", "https://elsewhere.example")
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
        assertThat(r.header("Access-Control-Allow-Origin")).as("%s %s", r, r.headers()).isEmpty();
        assertThat(r.status()).as("%s", r).isGreaterThanOrEqualTo(400);
    }

    private static Map<String, String> withToken(Map<String, String> fields, String token) {
        Map<String, String> all = new LinkedHashMap<>(fields);
        all.put("_csrf", token);
        return all;
    }
}
