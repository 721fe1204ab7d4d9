package dev.slotpool.sample;

import dev.slotpool.sample.Http.Response;
import dev.slotpool.sample.Http.Session;
import dev.slotpool.sample.Http.User;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the sample's rules grant and no more: a viewer reads only the endpoints it needs (the test app exposes
 * {@code env} too, as an application may later), a slot's detail is the admin's by every method, and the session
 * cookie is not sent cross-site.
 */
interface LeastPrivilegeChecks extends SampleApp {

    /** {@code env} exposed: the admin reads it, the viewer does not, by GET or HEAD. */
    @Test
    default void aViewerReadsOnlyTheEndpointsItNeeds() {
        for (String path : List.of("/actuator/env", "/actuator/env/spring.datasource.password")) {
            Response viewer = http().get(path, User.VIEWER);
            assertThat(viewer.status()).as("viewer GET %s: %s", path, viewer).isEqualTo(403);
            assertThat(viewer.body()).doesNotContain(DB_PASSWORD);
            assertThat(http().head(path, User.VIEWER).status()).as("viewer HEAD %s", path).isEqualTo(403);
            assertThat(http().get(path, User.ADMIN).status()).as("admin GET %s", path).isEqualTo(200);
        }
        assertThat(http().get("/actuator/pool", User.VIEWER).status()).isEqualTo(200);
    }

    /** A HEAD (or any other method) of a slot's detail is an operator's request, as its GET. */
    @Test
    default void aViewerGetsNoSlotDetailByAnyMethod() {
        int slot = pool().snapshot().origin("east").orElseThrow().slots().get(0).index();
        String detail = "/slotpool/origins/east/slots/" + slot;
        Session viewer = http().login(User.VIEWER);
        assertThat(viewer.get(detail).status()).as("viewer GET %s", detail).isEqualTo(403);
        for (String method : List.of("HEAD", "OPTIONS", "PUT", "DELETE", "PATCH")) {
            Response r = viewer.call(method, detail);
            assertThat(r.status()).as("viewer %s %s: %s", method, detail, r).isEqualTo(403);
        }
        Session admin = http().login(User.ADMIN);
        assertThat(admin.get(detail).status()).as("admin GET %s", detail).isEqualTo(200);
        assertThat(admin.call("HEAD", detail).status()).as("admin HEAD %s", detail).isEqualTo(200);
    }

    /** The session cookie the login page sets is SameSite=Lax (and HttpOnly): another site's POST goes without it. */
    @Test
    default void theSessionCookieIsSameSiteLax() {
        Response login = http().get("/login", User.ANONYMOUS);
        assertThat(login.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("Set-Cookie"))
                .flatMap(e -> e.getValue().stream()).filter(c -> c.startsWith("JSESSIONID=")).toList())
                .as("the session cookie").singleElement().satisfies(c -> assertThat(c).contains("SameSite=Lax",
                        "HttpOnly"));
    }
}
