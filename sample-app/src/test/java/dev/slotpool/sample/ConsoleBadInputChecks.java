package dev.slotpool.sample;

import dev.slotpool.sample.Http.Response;
import dev.slotpool.sample.Http.Session;
import dev.slotpool.sample.Http.User;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.slotpool.sample.BadInputChecks.abbreviated;
import static dev.slotpool.sample.BadInputChecks.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console's actions over the real server as a logged-in admin with a valid CSRF token: bad fields answer 400
 * with a message, a body that is not a form 415, an oversized body 413, and none of them changes the pool;
 * concurrent drains and ups of one origin answer 200 or 400 and leave one consistent state.
 */
interface ConsoleBadInputChecks extends SampleApp {

    @Test
    default void badConsoleFieldsAreRefusedAndChangeNothing() {
        Session admin = http().login(User.ADMIN);
        String token = admin.csrfTokenOf("/slotpool");
        PoolState before = poolState();
        record Case(String path, String field, String value, String message) {
        }
        for (Case c : List.of(
                new Case("/slotpool/actions/rebalance", "weights", "east=-1", "weight of 'east' must be ≥ 0 (was -1)"),
                new Case("/slotpool/actions/rebalance", "weights", "east=0,west=0,north=0",
                        "at least one origin needs a weight > 0"),
                new Case("/slotpool/actions/rebalance", "weights", "east=heavy", "'east=heavy' is not"),
                new Case("/slotpool/actions/rebalance", "weights", "east=1e3", "'east=1e3' is not"),
                new Case("/slotpool/actions/rebalance", "weights", "south=10", "unknown origin 'south'"),
                new Case("/slotpool/actions/rebalance", "weights", "east=" + "7".repeat(50_000),
                        "'east=" + "7".repeat(75) + "… (50005 characters)' is not"),
                new Case("/slotpool/origins/north/drain", "timeout", "soon", "timeout 'soon' is not a duration"),
                new Case("/slotpool/origins/north/drain", "timeout", "-1s", "timeout must be ≥ 0"),
                new Case("/slotpool/origins/south/drain", "timeout", "1s", "unknown origin 'south'"),
                new Case("/slotpool/origins/south/up", "x", "", "unknown origin 'south'"),
                new Case("/slotpool/origins/south/down", "x", "", "unknown origin 'south'"))) {
            Map<String, String> form = new LinkedHashMap<>();
            form.put(c.field(), c.value());
            form.put("_csrf", token);
            Response r = admin.postForm(c.path(), form);
            assertThat(r.status()).as("%s %s: %s", c.path(), c.value().length(), abbreviated(r)).isEqualTo(400);
            assertThat(message(r)).contains(c.message());
            assertThat(poolState().routing()).as("after %s", c).isEqualTo(before.routing());
        }
    }

    /**
     * A console action reads form fields: a JSON body (with the token in the header, so CSRF passes) would
     * otherwise arrive as "no fields", which means "back to the configured weights" and "drain within 30s".
     */
    @Test
    default void aBodyThatIsNotAFormIsRefused() {
        pool().rebalance(Map.of("east", 10, "west", 10, "north", 80));
        Session admin = http().login(User.ADMIN);
        String token = admin.csrfTokenOf("/slotpool");
        PoolState before = poolState();
        for (String path : List.of("/slotpool/actions/rebalance", "/slotpool/origins/north/drain")) {
            Response r = admin.post(path, "application/json", "{\"weights\":\"east=70\",\"timeout\":\"1s\"}",
                    Map.of("X-CSRF-TOKEN", token));
            assertThat(r.status()).as("%s: %s", path, abbreviated(r)).isEqualTo(415);
            assertThat(poolState().routing()).as("after %s", path).isEqualTo(before.routing());
        }
    }

    @Test
    default void oversizedConsoleBodiesAreRefusedAndChangeNothing() {
        pool().rebalance(Map.of("east", 10, "west", 10, "north", 80));
        Session admin = http().login(User.ADMIN);
        String token = admin.csrfTokenOf("/slotpool");
        PoolState before = poolState();
        String huge = "7".repeat(BadInputChecks.BIG);
        for (Map<String, String> form : List.of(Map.of("weights", "east=" + huge, "_csrf", token),
                Map.of("weights", "", "padding", huge, "_csrf", token))) {
            Response r = admin.postForm("/slotpool/actions/rebalance", form);
            assertThat(r.status()).as("%s", abbreviated(r)).isEqualTo(413);
            assertThat(poolState().routing()).isEqualTo(before.routing());
        }
        Response r = admin.postForm("/slotpool/origins/north/drain", Map.of("timeout", huge + "s", "_csrf", token));
        assertThat(r.status()).as("%s", abbreviated(r)).isEqualTo(413);
        assertThat(poolState().routing()).isEqualTo(before.routing());
    }

    @Test
    default void concurrentConsoleDrainsAndUpsOnOneOriginLeaveOneConsistentState() throws Exception {
        Session admin = http().login(User.ADMIN);
        String token = admin.csrfTokenOf("/slotpool");
        List<Integer> statuses = BadInputChecks.fireConcurrently(i -> i % 2 == 0
                ? admin.postForm("/slotpool/origins/north/drain", Map.of("timeout", "0s", "_csrf", token))
                : admin.postForm("/slotpool/origins/north/up", Map.of("_csrf", token)));
        assertThat(statuses).hasSize(BadInputChecks.THREADS * BadInputChecks.ROUNDS)
                .allSatisfy(s -> assertThat(s).isIn(200, 400));
        BadInputChecks.assertConsistent(this);

        assertThat(admin.postForm("/slotpool/origins/north/up", Map.of("_csrf", token)).status()).isEqualTo(200);
        assertThat(poolState().origin("north").state()).isEqualTo("UP");
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(poolState().origin("north").total()).isPositive());
        BadInputChecks.assertConsistent(this);
    }
}
