package dev.slotpool.autoconfigure.endpoint;

import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.PoolActionInput;
import dev.slotpool.autoconfigure.PoolActions;
import dev.slotpool.autoconfigure.PoolActions.Outcome;
import dev.slotpool.autoconfigure.PoolActions.Problem;
import dev.slotpool.autoconfigure.SlotPools;
import dev.slotpool.autoconfigure.endpoint.PoolViews.ActionResult;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code /actuator/pool}: reads the pool (whole, or one origin with every slot) and acts on it (rebalance, drain,
 * mark down, mark up). Thin by design: it maps a {@link PoolSnapshot} to {@link PoolViews} and hands each
 * action to {@link PoolActions} (parse, resolve the selector, apply). Bad input answers 400 with a message and
 * leaves the pool unchanged (the engine's operations are all-or-nothing); an unknown origin in a read answers 404.
 *
 * <p>With several pools ({@link SlotPools}) every operation takes a {@code pool} (a query parameter for reads, a
 * body field for writes) naming the pool's key; {@code GET /actuator/pool} without one lists every pool's view
 * by key. With one pool {@code pool} is optional and the answers are those of a single pool (docs/operations.md).
 *
 * <p>Read-only unless the application grants more ({@code management.endpoint.pool.access=unrestricted}): the
 * write operations change production routing, so they are off by default. The endpoint itself (id, access, the
 * JMX face) is {@link PoolOperationsEndpoint}; this web extension answers every operation over HTTP in its place.
 */
@EndpointWebExtension(endpoint = PoolOperationsEndpoint.class)
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
                    .<WebEndpointResponse<Object>>map(o -> new WebEndpointResponse<>(PoolViews.originDetail(o)))
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
        return find(pool, WebEndpointResponse.STATUS_BAD_REQUEST,
                p -> answer(p, PoolActions.poolAction(p, action, weights)));
    }

    /**
     * {@code POST /actuator/pool/{origin}} with {@code {"action": "drain", "timeout": "30s"}}, {@code
     * {"action": "down"}} or {@code {"action": "up"}}. {@code origin} may also be a selector such as
     * {@code host=db3} (every origin on that host).
     */
    @WriteOperation
    public WebEndpointResponse<Object> originAction(@Selector String origin, String action, @Nullable String timeout,
                                                    @Nullable String pool) {
        return find(pool, WebEndpointResponse.STATUS_BAD_REQUEST,
                p -> answer(p, PoolActions.originAction(p, origin, action, timeout)));
    }

    /** The action's answer: the outcome with the pool's view after it, or the refusal with its status. */
    private static WebEndpointResponse<Object> answer(SlotPoolDataSource pool, PoolActions.Result result) {
        if (result instanceof Outcome o) {
            return new WebEndpointResponse<>(new ActionResult(o.action(), o.origin(), o.outcome(),
                    PoolViews.pool(pool.snapshot())));
        }
        Problem p = (Problem) result;
        return new WebEndpointResponse<>(p, p.status());
    }

    private static WebEndpointResponse<Object> badRequest(String message) {
        return problem(WebEndpointResponse.STATUS_BAD_REQUEST, message);
    }

    private static WebEndpointResponse<Object> problem(int status, String message) {
        Problem p = status == WebEndpointResponse.STATUS_NOT_FOUND ? Problem.notFound(message)
                : Problem.badRequest(message);
        return new WebEndpointResponse<>(p, p.status());
    }
}
