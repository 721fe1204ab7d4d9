package dev.slotpool.sample;

import com.jayway.jsonpath.JsonPath;
import dev.slotpool.sample.Http.Response;
import dev.slotpool.sample.Http.User;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Bad input from the admin answers 400 (404 for a read of an unknown origin) with a message and changes
 * nothing. The endpoint's own refusals carry {@code message}; what Spring MVC refuses before the endpoint runs
 * (a body that is not JSON) carries the problem detail's {@code detail}. Repeated and concurrent actions on one
 * origin each answer 200 or 400 and leave the pool in one consistent state.
 */
interface BadInputChecks extends SampleApp {

    /** Threads firing actions at once in the concurrency checks, and requests each. */
    int THREADS = 16;
    int ROUNDS = 5;

    /**
     * One megabyte: far above any real action (16 times the app's cap) and below Tomcat's 2 MB swallow limit, so
     * Tomcat reads the rest of a refused body and the answer arrives. Past that limit Tomcat closes the connection
     * while the client is still uploading, and the reset can discard the answer before the client reads it.
     */
    int BIG = 1024 * 1024;

    /** The explanation in a 4xx body: the endpoint's {@code message}, else the problem detail's {@code detail}. */
    static String message(Response r) {
        String body = r.body();
        assertThat(body).as("a JSON body in %s", r).startsWith("{");
        Map<String, Object> json = JsonPath.read(body, "$");
        Object message = json.containsKey("message") ? json.get("message") : json.get("detail");
        assertThat(message).as("message or detail in %s", body).isInstanceOf(String.class);
        assertThat((String) message).as("message in %s", body).isNotBlank();
        return (String) message;
    }

    @Test
    default void anUnknownOriginIs404ToReadAnd400ToActOn() {
        Response read = http().get("/actuator/pool/south", User.ADMIN);
        assertThat(read.status()).isEqualTo(404);
        assertThat(message(read)).contains("unknown origin 'south'", "east, west, north");

        refused("/actuator/pool/south", "{\"action\":\"drain\",\"timeout\":\"5s\"}", "unknown origin 'south'");
        refused("/actuator/pool/south", "{\"action\":\"up\"}", "unknown origin 'south'");
    }

    @Test
    default void anUnknownActionIsRefused() {
        refused("/actuator/pool", "{\"action\":\"explode\"}", "unknown pool action 'explode'");
        refused("/actuator/pool/north", "{\"action\":\"explode\"}", "unknown origin action 'explode'");
    }

    @Test
    default void aMissingActionIsRefused() {
        refused("/actuator/pool/north", "{}", "action");
    }

    @Test
    default void malformedJsonIsRefusedAndNotExecuted() {
        refused("/actuator/pool/north", "{\"action\":\"down\"", "");
        refused("/actuator/pool/north", "action=down", "");
    }

    @Test
    default void aBadDrainTimeoutIsRefused() {
        refused("/actuator/pool/north", "{\"action\":\"drain\",\"timeout\":\"soon\"}", "not a duration");
        refused("/actuator/pool/north", "{\"action\":\"drain\",\"timeout\":\"-5s\"}", "must be ≥ 0");
        refused("/actuator/pool/north", "{\"action\":\"down\",\"timeout\":\"5s\"}", "drain and switchover only");
        refused("/actuator/pool/north", "{\"action\":\"switchover\"}", "a switchover needs 'to'");
        refused("/actuator/pool/north", "{\"action\":\"switchover\",\"to\":\"north\"}", "a switchover needs two origins");
    }

    /**
     * A declared body above the app's 64 KiB cap ({@code RequestSizeLimit}) answers 413 before anything reads it,
     * whatever it holds (even a valid action with padding); a chunked one fails its read at the cap with 400;
     * under the cap, the endpoint refuses huge weights itself with a short message. Nothing changes.
     */
    @Test
    default void oversizedBodiesAreRefusedAndChangeNothing() {
        PoolState before = poolState();
        record Case(String path, String json, boolean chunked, int status) {
        }
        String unknownOrigins = IntStream.range(0, 4000).mapToObj(i -> "origin-" + i + "=1")
                .collect(Collectors.joining(","));
        List<Case> cases = List.of(
                new Case("/actuator/pool", "{\"action\":\"rebalance\",\"weights\":\"east=" + "7".repeat(BIG) + "\"}",
                        false, 413),
                new Case("/actuator/pool/north", "{\"action\":\"drain\",\"timeout\":\"" + "9".repeat(BIG) + "s\"}",
                        false, 413),
                new Case("/actuator/pool/north", "{\"action\":\"down\",\"padding\":\"" + "x".repeat(BIG) + "\"}",
                        false, 413),
                new Case("/actuator/pool/north", "{\"action\":\"down\",\"padding\":\"" + "x".repeat(BIG) + "\"}",
                        true, 400),
                new Case("/actuator/pool", "{\"action\":\"rebalance\",\"weights\":\"" + unknownOrigins + "\"}",
                        false, 400));
        for (Case c : cases) {
            Response r = c.chunked() ? http().postChunked(c.path(), "application/json", c.json(), User.ADMIN)
                    : http().postJson(c.path(), c.json(), User.ADMIN);
            String what = c.json().substring(0, 40) + "... (" + c.json().length() + " chars"
                    + (c.chunked() ? ", chunked)" : ")");
            assertThat(r.status()).as("POST %s %s: %s", c.path(), what, abbreviated(r)).isEqualTo(c.status());
            assertThat(message(r)).as("the answer to %s", what).hasSizeLessThan(2100);
            assertThat(poolState().routing()).as("after POST %s %s", c.path(), what).isEqualTo(before.routing());
        }
    }

    /**
     * 16 admins drain and mark up the same origin at once: every answer is 200 (or 400 when the engine refuses
     * a transition), never 500; afterwards the origin is in one state, the counts add up, and a last {@code up}
     * brings it back to UP with connections again.
     */
    @Test
    default void concurrentDrainsAndUpsOnOneOriginLeaveOneConsistentState() throws Exception {
        List<Integer> statuses = BadInputChecks.fireConcurrently(i -> {
            String json = i % 2 == 0 ? "{\"action\":\"drain\",\"timeout\":\"0s\"}" : "{\"action\":\"up\"}";
            return http().postJson("/actuator/pool/north", json, User.ADMIN);
        });
        assertThat(statuses).hasSize(THREADS * ROUNDS).allSatisfy(s -> assertThat(s).isIn(200, 400));
        assertConsistent(this);

        assertThat(http().postJson("/actuator/pool/north", "{\"action\":\"up\"}", User.ADMIN).status()).isEqualTo(200);
        assertThat(poolState().origin("north").state()).isEqualTo("UP");
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(poolState().origin("north").total()).isPositive());
        assertConsistent(this);
    }

    /**
     * Runs {@link #ROUNDS} requests on each of {@link #THREADS} threads, all starting together, and returns every
     * status; the request number alternates the action.
     */
    static List<Integer> fireConcurrently(java.util.function.IntFunction<Response> request) throws Exception {
        // A bound for a hung request, not a timing: each request checks an admin's BCrypt password, and 80 of them
        // at once on a loaded 2-core machine took longer than PATIENCE (30 s) for one thread's five.
        long burst = 6 * PATIENCE.toSeconds();
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Future<List<Integer>>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                results.add(threads.submit(() -> {
                    start.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                    List<Integer> mine = new ArrayList<>();
                    for (int round = 0; round < ROUNDS; round++) {
                        Response r = request.apply(thread + round);
                        assertThat(r.status()).as("%s", abbreviated(r)).isNotEqualTo(500);
                        mine.add(r.status());
                    }
                    return mine;
                }));
            }
            List<Integer> all = new ArrayList<>();
            for (Future<List<Integer>> f : results) {
                all.addAll(f.get(burst, TimeUnit.SECONDS));
            }
            return all;
        } finally {
            threads.shutdownNow();
            assertThat(threads.awaitTermination(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        }
    }

    /** Each origin in one of its three states, and the pool's counts the sums of the origins'. */
    static void assertConsistent(SampleApp app) {
        dev.slotpool.PoolSnapshot s = app.pool().snapshot();
        int total = 0;
        for (dev.slotpool.OriginSnapshot o : s.origins()) {
            assertThat(o.state()).isNotNull();
            assertThat(o.available() + o.borrowed() + o.closing()).as("%s", o).isEqualTo(o.total());
            total += o.total();
        }
        assertThat(total).as("%s", s.summary()).isEqualTo(s.total());
        assertThat(s.available() + s.borrowed() + s.closing()).as("%s", s.summary()).isEqualTo(s.total());
        assertThat(s.total() + s.creating()).as("%s", s.summary()).isLessThanOrEqualTo(s.maxSize());
    }

    /** A response's status and the start of its body, for assertion messages. */
    static String abbreviated(Response r) {
        String body = r.body();
        return r.status() + " " + (body.length() > 300 ? body.substring(0, 300) + "..." : body);
    }

    private void refused(String path, String json, String messagePart) {
        PoolState before = poolState();
        Response r = http().postJson(path, json, User.ADMIN);
        assertThat(r.status()).as("POST %s %s: %s", path, json, r).isEqualTo(400);
        assertThat(message(r)).contains(messagePart);
        assertThat(poolState().routing()).as("after POST %s %s", path, json).isEqualTo(before.routing());
    }
}
