package dev.slotpool.sample;

import com.jayway.jsonpath.JsonPath;
import dev.slotpool.sample.Http.Response;
import dev.slotpool.sample.Http.User;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad input from the admin answers 400 (404 for a read of an unknown origin) with a message and changes
 * nothing. The endpoint's own refusals carry {@code message}; what Spring MVC refuses before the endpoint runs
 * (a body that is not JSON) carries the problem detail's {@code detail}.
 */
interface BadInputChecks extends SampleApp {

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
        refused("/actuator/pool/north", "{\"action\":\"down\",\"timeout\":\"5s\"}", "drain only");
    }

    private void refused(String path, String json, String messagePart) {
        PoolState before = poolState();
        Response r = http().postJson(path, json, User.ADMIN);
        assertThat(r.status()).as("POST %s %s: %s", path, json, r).isEqualTo(400);
        assertThat(message(r)).contains(messagePart);
        assertThat(poolState().routing()).as("after POST %s %s", path, json).isEqualTo(before.routing());
    }
}
