package dev.slotpool.autoconfigure.endpoint;

import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.PoolActionInput;
import dev.slotpool.autoconfigure.SlotPools;
import dev.slotpool.autoconfigure.endpoint.PoolViews.ActionResult;
import dev.slotpool.autoconfigure.endpoint.PoolViews.Problem;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code /actuator/pool}: reads the pool (whole, or one origin with every slot) and acts on it (rebalance, drain,
 * mark down, mark up). Thin by design: it maps a {@link PoolSnapshot} to {@link PoolViews} and
 * calls one engine method per action. Bad input answers 400 with a message and leaves the pool unchanged (the
 * engine's operations are all-or-nothing); an unknown origin in a read answers 404.
 *
 * <p>With several pools ({@link SlotPools}) every operation takes a {@code pool} (a query parameter for reads, a
 * body field for writes) naming the pool's key; {@code GET /actuator/pool} without one lists every pool's view
 * by key. With one pool {@code pool} is optional and the answers are those of a single pool (docs/operations.md).
 *
 * <p>Read-only unless the application grants more ({@code management.endpoint.pool.access=unrestricted}): the
 * write operations change production routing, so they are off by default.
 */
@WebEndpoint(id = "pool", defaultAccess = Access.READ_ONLY)
public class PoolEndpoint {

    private final SlotPools pools;

    public PoolEndpoint(SlotPools pools) {
        this.pools = pools;
    }

    /** One pool's view; without {@code pool} and with several pools, every pool's view by key. */
    @ReadOperation
    public WebEndpointResponse<Object> pool(@Nullable String pool) {
        if (pool == null && pools.size() != 1) {
            Map<String, PoolViews.PoolView> all = new LinkedHashMap<>();
            pools.all().forEach((key, p) -> all.put(key, PoolViews.pool(p.snapshot())));
            return new WebEndpointResponse<>(new PoolsView(all));
        }
        return find(pool, WebEndpointResponse.STATUS_NOT_FOUND, p -> new WebEndpointResponse<>(PoolViews.pool(p.snapshot())));
    }

    @ReadOperation
    public WebEndpointResponse<Object> origin(@Selector String origin, @Nullable String pool) {
        return find(pool, WebEndpointResponse.STATUS_NOT_FOUND, p -> {
            PoolSnapshot s = p.snapshot();
            return s.origin(origin)
                    .<WebEndpointResponse<Object>>map(o -> new WebEndpointResponse<>(PoolViews.originDetail(o, s.total())))
                    .orElseGet(() -> problem(WebEndpointResponse.STATUS_NOT_FOUND, PoolActionInput.unknownOrigin(origin, s)));
        });
    }

    /** Every pool's view by key: {@code GET /actuator/pool} with several pools and no {@code pool}. */
    public record PoolsView(Map<String, PoolViews.PoolView> pools) {
    }

    /**
     * Runs the operation on the pool named {@code key}, or on the only pool when {@code key} is null. An unknown
     * key answers {@code unknownStatus} (404 for a read, 400 for a write); no key with several pools, 400.
     */
    private WebEndpointResponse<Object> find(@Nullable String key, int unknownStatus,
                                             Function<SlotPoolDataSource, WebEndpointResponse<Object>> operation) {
        if (key == null) {
            return pools.single().map(operation).orElseGet(() -> badRequest("several pools (" + String.join(", ",
                    pools.keys()) + "): name one with 'pool'"));
        }
        return pools.get(key).map(operation).orElseGet(() -> problem(unknownStatus, "unknown pool '"
                + PoolActionInput.quoted(key) + "' (known pools: " + String.join(", ", pools.keys()) + ")"));
    }

    /**
     * {@code POST /actuator/pool} with {@code {"action": "rebalance"}} (back to the configured weights) or
     * {@code {"action": "rebalance", "weights": "east=70,west=20,north=10"}}. Actuator binds a request body as a
     * flat map of strings, so the weights travel as one string of {@code origin=weight} pairs.
     */
    @WriteOperation
    public WebEndpointResponse<Object> poolAction(String action, @Nullable String weights, @Nullable String pool) {
        return find(pool, WebEndpointResponse.STATUS_BAD_REQUEST, p -> poolAction(p, action, weights));
    }

    private WebEndpointResponse<Object> poolAction(SlotPoolDataSource pool, String action, @Nullable String weights) {
        if (!"rebalance".equals(normalize(action))) {
            return badRequest("unknown pool action '" + PoolActionInput.quoted(String.valueOf(action))
                    + "' (allowed: rebalance)");
        }
        if (weights == null) {
            return apply(pool, "rebalance", null, "moving toward the configured weights", pool::rebalanceToConfigured);
        }
        Map<String, Integer> parsed;
        try {
            parsed = PoolActionInput.weights(weights);
        } catch (IllegalArgumentException e) {
            return badRequest(e.getMessage());
        }
        return apply(pool, "rebalance", null, "moving toward " + parsed, () -> pool.rebalance(parsed));
    }

    /**
     * {@code POST /actuator/pool/{origin}} with {@code {"action": "drain", "timeout": "30s"}}, {@code
     * {"action": "down"}} or {@code {"action": "up"}}. {@code origin} may also be a selector such as
     * {@code host=db3} (every origin on that host).
     */
    @WriteOperation
    public WebEndpointResponse<Object> originAction(@Selector String origin, String action, @Nullable String timeout,
                                                    @Nullable String pool) {
        return find(pool, WebEndpointResponse.STATUS_BAD_REQUEST, p -> originAction(p, origin, action, timeout));
    }

    private WebEndpointResponse<Object> originAction(SlotPoolDataSource pool, String origin, String action,
                                                     @Nullable String timeout) {
        try {
            pool.select(origin);
        } catch (IllegalArgumentException e) {
            return badRequest(origin.indexOf('=') < 0 ? PoolActionInput.unknownOrigin(origin, pool.snapshot())
                    : PoolActionInput.message(e));
        }
        String a = normalize(action);
        if (timeout != null && !"drain".equals(a)) {
            return badRequest("'timeout' applies to drain only");
        }
        return switch (a) {
            case "drain" -> {
                Duration drainTimeout;
                try {
                    drainTimeout = PoolActionInput.drainTimeout(timeout);
                } catch (IllegalArgumentException e) {
                    yield badRequest(e.getMessage());
                }
                yield apply(pool, "drain", origin, "draining within " + PoolActionInput.print(drainTimeout),
                        () -> pool.drain(origin, drainTimeout));
            }
            case "down" -> apply(pool, "down", origin, "marked DOWN", () -> pool.markDown(origin));
            case "up" -> apply(pool, "up", origin, "marked UP", () -> pool.markUp(origin));
            default -> badRequest("unknown origin action '" + PoolActionInput.quoted(String.valueOf(action))
                    + "' (allowed: drain, down, up)");
        };
    }

    private static WebEndpointResponse<Object> apply(SlotPoolDataSource pool, String action, String origin,
                                                     String outcome, Runnable operation) {
        try {
            operation.run();
        } catch (IllegalArgumentException | IllegalStateException e) {
            return badRequest(PoolActionInput.message(e));
        }
        return new WebEndpointResponse<>(new ActionResult(action, origin, outcome, PoolViews.pool(pool.snapshot())));
    }

    private static String normalize(String action) {
        return action == null ? "" : action.trim().toLowerCase(Locale.ROOT);
    }

    private static WebEndpointResponse<Object> badRequest(String message) {
        return problem(WebEndpointResponse.STATUS_BAD_REQUEST, message);
    }

    private static WebEndpointResponse<Object> problem(int status, String message) {
        return new WebEndpointResponse<>(new Problem(status, status == 404 ? "Not Found" : "Bad Request", message),
                status);
    }
}
