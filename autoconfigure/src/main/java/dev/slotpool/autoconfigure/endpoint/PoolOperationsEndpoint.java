package dev.slotpool.autoconfigure.endpoint;

import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.PoolAccessPolicy;
import dev.slotpool.autoconfigure.PoolActionInput;
import dev.slotpool.autoconfigure.PoolActions;
import dev.slotpool.autoconfigure.PoolActions.Outcome;
import dev.slotpool.autoconfigure.PoolActions.Problem;
import dev.slotpool.autoconfigure.PoolViews;
import dev.slotpool.autoconfigure.SlotPools;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code pool} endpoint as every technology sees it, JMX included
 * ({@code management.endpoints.jmx.exposure.include=pool}); over HTTP its web extension {@link PoolEndpoint}
 * answers every operation instead (statuses, the web's view of an origin). Same operations and parameters as
 * the web face: read the pool or one origin, rebalance, drain, down, up; refused input raises Boot's
 * {@link InvalidEndpointRequestException} with the message the web face answers with 400/404, the pool unchanged.
 * JMX names no reader, so it reads as one who may not see holders ({@link PoolAccessPolicy#maySeeHolders}): an
 * origin read shows no slot's holder. Read-only unless the application grants
 * {@code management.endpoint.pool.access=unrestricted}, as over HTTP (one setting for both).
 */
@Endpoint(id = "pool", defaultAccess = Access.READ_ONLY)
public class PoolOperationsEndpoint {

    /** JMX names no caller: the audit line says the door. */
    private static final PoolActions.Caller JMX = new PoolActions.Caller("jmx", null);

    private final SlotPools pools;

    public PoolOperationsEndpoint(SlotPools pools) {
        this.pools = pools;
    }

    /** One pool's view; without {@code pool} and with several pools, every pool's view by key. */
    @ReadOperation
    public Object pool(@Nullable String pool) {
        if (pool == null && pools.size() != 1) {
            Map<String, PoolViews.PoolView> all = new LinkedHashMap<>();
            pools.all().forEach((key, p) -> all.put(key, PoolViews.pool(p.snapshot(), reader(p))));
            return new PoolEndpoint.PoolsView(all);
        }
        SlotPoolDataSource p = find(pool);
        return PoolViews.pool(p.snapshot(), reader(p));
    }

    @ReadOperation
    public PoolViews.OriginView origin(@Selector String origin, @Nullable String pool) {
        SlotPoolDataSource p = find(pool);
        PoolSnapshot s = p.snapshot();
        return s.origin(origin).map(o -> PoolViews.originDetail(o, reader(p)))
                .orElseThrow(() -> refused(PoolActionInput.unknownOrigin(origin, s)));
    }

    /** {@code action} {@code rebalance}, with {@code weights} such as {@code east=70,west=30} or none. */
    @WriteOperation
    public Outcome poolAction(String action, @Nullable String weights, @Nullable String pool) {
        SlotPoolDataSource p = find(pool);
        return answer(p, PoolActions.apply(p, null, () -> PoolActionInput.poolAction(action, weights), JMX));
    }

    /** {@code action} {@code drain} (with {@code timeout}, e.g. {@code 30s}), {@code down}, {@code up}, or
     * {@code limit} (with {@code limit}: a number, {@code fixed} or {@code adaptive}). */
    @WriteOperation
    public Outcome originAction(@Selector String origin, String action, @Nullable String timeout,
                                @Nullable String limit, @Nullable String pool) {
        SlotPoolDataSource p = find(pool);
        return answer(p, PoolActions.apply(p, origin,
                () -> PoolActionInput.originAction(action, timeout, null, limit), JMX));
    }

    private SlotPoolDataSource find(@Nullable String key) {
        if (key == null) {
            return pools.single().orElseThrow(() -> refused("several pools (" + String.join(", ", pools.keys())
                    + "): name one with 'pool'"));
        }
        return pools.get(key).orElseThrow(() -> refused("unknown pool '" + PoolActionInput.quoted(key)
                + "' (known pools: " + String.join(", ", pools.keys()) + ")"));
    }

    private static Outcome answer(SlotPoolDataSource pool, PoolActions.Result result) {
        if (result instanceof Outcome o) {
            return o.showing(PoolViews.pool(pool.snapshot(), reader(pool)));
        }
        throw refused(((Problem) result).message());
    }

    /**
     * JMX names no reader, so it sees what a web reader who may not see holders sees (docs/console.md, Security model): no
     * origin URL, failure texts without client addresses or user names.
     */
    private static PoolViews.Reader reader(SlotPoolDataSource pool) {
        return new PoolViews.Reader(false, url -> url == null ? null : SanitizableData.SANITIZED_VALUE,
                PoolAccessPolicy.forReaders(pool.config()));
    }

    private static InvalidEndpointRequestException refused(String message) {
        return new InvalidEndpointRequestException(message, message);
    }
}
