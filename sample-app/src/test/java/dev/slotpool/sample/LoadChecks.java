package dev.slotpool.sample;

import dev.slotpool.sample.Http.Response;
import dev.slotpool.sample.Http.Session;
import dev.slotpool.sample.Http.User;
import dev.slotpool.sample.load.LoadGenerator;
import dev.slotpool.sample.load.LoadStatus;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The load generator, driven from its page as the admin. */
interface LoadChecks extends SampleApp {

    @Test
    default void loadStartedFromThePageRunsOnEveryOriginWithoutFailures() {
        Map<String, Long> borrowsBefore = new LinkedHashMap<>();
        poolState().origins().forEach((name, o) -> borrowsBefore.put(name, o.borrows()));
        long completedBefore = load().status().completed();
        long failedBefore = load().status().failed();

        Session admin = http().login(User.ADMIN);
        Response start = admin.postForm("/load", Map.of("action", "start", "threads", "4", "thinkTime", "5ms",
                "_csrf", admin.csrfTokenOf("/load")));
        assertThat(start.status()).as("%s", start).isEqualTo(302);
        assertThat(start.header("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/load"));

        await().atMost(PATIENCE).untilAsserted(() -> {
            PoolState now = poolState();
            for (String origin : ORIGINS) {
                assertThat(now.origin(origin).borrows() - borrowsBefore.get(origin)).as("new borrows on %s", origin)
                        .isGreaterThanOrEqualTo(20);
            }
            assertThat(load().status().completed() - completedBefore).isGreaterThanOrEqualTo(100);
        });

        Response page = admin.get("/load");
        assertThat(field(page.body(), "state")).isEqualTo("running");
        assertThat(field(page.body(), "threads")).isEqualTo("4");
        assertThat(Long.parseLong(field(page.body(), "completed"))).isGreaterThanOrEqualTo(100);

        Response stop = admin.postForm("/load", Map.of("action", "stop", "_csrf", admin.csrfTokenOf("/load")));
        assertThat(stop.status()).isEqualTo(302);
        LoadStatus stopped = load().status();
        assertThat(stopped.running()).isFalse();
        assertThat(stopped.failed() - failedBefore).as("failures; last: %s", stopped.lastFailure()).isZero();
        assertThat(liveWorkers()).as("worker threads after stop").isZero();
        Response after = admin.get("/load");
        assertThat(field(after.body(), "state")).isEqualTo("stopped");
        assertThat(field(after.body(), "failed")).isEqualTo(String.valueOf(stopped.failed()));
    }

    @Test
    default void badLoadSettingsAnswer400WithTheReason() {
        Session admin = http().login(User.ADMIN);
        String token = admin.csrfTokenOf("/load");
        Response zero = admin.postForm("/load", Map.of("action", "start", "threads", "0", "thinkTime", "5ms", "_csrf", token));
        assertThat(zero.status()).isEqualTo(400);
        assertThat(field(zero.body(), "error")).contains("threads must be 1 to 64 (was 0)");

        Response soon = admin.postForm("/load", Map.of("action", "start", "threads", "2", "thinkTime", "soon", "_csrf", token));
        assertThat(soon.status()).isEqualTo(400);
        assertThat(field(soon.body(), "error")).contains("think time must be a duration");

        Response unknown = admin.postForm("/load", Map.of("action", "explode", "_csrf", token));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(load().status().running()).isFalse();
    }

    /** The text of the element with this id on the load page. */
    static String field(String html, String id) {
        Matcher m = Pattern.compile("id=\"" + id + "\"[^>]*>([^<]*)<").matcher(html);
        assertThat(m.find()).as("element #%s in %s", id, html).isTrue();
        return m.group(1).trim();
    }

    static long liveWorkers() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(LoadGenerator.THREAD_PREFIX)).count();
    }
}
