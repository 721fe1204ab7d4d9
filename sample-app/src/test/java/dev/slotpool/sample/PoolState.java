package dev.slotpool.sample;

import com.jayway.jsonpath.JsonPath;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The origins of a {@code /actuator/pool} answer (or of an action's {@code pool}), as the tests compare them. */
record PoolState(Map<String, Origin> origins) {

    record Origin(String state, String stateReason, int weight, long borrows, int total) {
    }

    static PoolState of(String json) {
        return at(json, "$.origins");
    }

    /** The pool inside a write operation's answer. */
    static PoolState ofAction(String json) {
        return at(json, "$.pool.origins");
    }

    private static PoolState at(String json, String path) {
        List<Map<String, Object>> list = JsonPath.read(json, path);
        Map<String, Origin> origins = new LinkedHashMap<>();
        for (Map<String, Object> o : list) {
            @SuppressWarnings("unchecked")
            Map<String, Object> sizes = (Map<String, Object>) o.get("sizes");
            origins.put((String) o.get("name"), new Origin((String) o.get("state"), (String) o.get("stateReason"),
                    ((Number) o.get("weight")).intValue(), ((Number) o.get("borrows")).longValue(),
                    ((Number) sizes.get("total")).intValue()));
        }
        return new PoolState(origins);
    }

    Origin origin(String name) {
        Origin o = origins.get(name);
        assertThat(o).as("origin %s in %s", name, origins.keySet()).isNotNull();
        return o;
    }

    Map<String, Integer> weights() {
        Map<String, Integer> w = new LinkedHashMap<>();
        origins.forEach((name, o) -> w.put(name, o.weight()));
        return w;
    }

    /** What a refused request must leave as it was: each origin's state, reason and weight. */
    Map<String, String> routing() {
        Map<String, String> r = new LinkedHashMap<>();
        origins.forEach((name, o) -> r.put(name, o.state() + " (" + o.stateReason() + ") weight " + o.weight()));
        return r;
    }
}
