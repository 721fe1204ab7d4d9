package dev.slotpool.autoconfigure.endpoint;

import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.PoolAccessPolicy;
import dev.slotpool.autoconfigure.PoolActionInput;
import dev.slotpool.autoconfigure.PoolActions;
import dev.slotpool.autoconfigure.PoolActions.Outcome;
import dev.slotpool.autoconfigure.PoolActions.Problem;
import dev.slotpool.autoconfigure.PoolSettings;
import dev.slotpool.autoconfigure.PoolViews;
import dev.slotpool.autoconfigure.SlotPools;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code /actuator/pool}: reads the pool (whole, or one origin with every slot) and acts on it (rebalance, drain,
 * mark down, mark up, planned switchover). Thin by design: it maps a {@link PoolSnapshot} to {@link PoolViews} (the console's
 * projection too), reads each request's text into one typed action ({@link PoolActionInput}) and hands it to
 * {@link PoolActions}, which applies it (the engine resolves the selector). Bad input answers 400 with a message and
 * leaves the pool unchanged (the engine's operations are all-or-nothing); an unknown origin in a read answers 404.
 *
 * <p>With several pools ({@link SlotPools}) every operation takes a {@code pool} (a query parameter for reads, a
 * body field for writes) naming the pool's key; {@code GET /actuator/pool} without one lists every pool's view
 * by key. With one pool {@code pool} is optional and the answers are those of a single pool (docs/operations.md).
 *
 * <p>Read-only unless the application grants more ({@code management.endpoint.pool.access=unrestricted}): the
 * write operations change production routing, so they are off by default. The endpoint itself (id, access, the
 * JMX face) is {@link PoolOperationsEndpoint}; this web extension answers every operation over HTTP in its place.
 *
 * <p>What a reader sees is the {@link PoolAccessPolicy}'s, as in the console: holders (thread, labels, borrow
 * stack) and failure texts with client addresses and user names only for a reader who may see holders
 * ({@link PoolAccessPolicy#maySeeHolders}); URLs by Boot's
 * {@code show-values} rule ({@code management.endpoint.pool.show-values}, {@code .roles}; never by default),
 * through the application's {@code SanitizingFunction}s when shown (docs/console.md, Security model).
 */
@EndpointWebExtension(endpoint = PoolOperationsEndpoint.class)
public class PoolEndpoint {

    private final SlotPools pools;
    private final PoolAccessPolicy policy;
    private final Show showValues;
    private final Set<String> roles;
    private final Sanitizer sanitizer;
    private final PoolSettings settings;

    /**
     * @param showValues when URLs are shown ({@code management.endpoint.pool.show-values})
     * @param roles      the roles {@link Show#WHEN_AUTHORIZED} asks for ({@code management.endpoint.pool.roles})
     * @param sanitizer  the application's sanitizing functions, applied to a URL that is shown
     * @param settings   each pool's settings with their sources
     */
    public PoolEndpoint(SlotPools pools, PoolAccessPolicy policy, Show showValues, Set<String> roles,
                        Sanitizer sanitizer, PoolSettings settings) {
        this.pools = pools;
        this.policy = policy;
        this.showValues = showValues;
        this.roles = Set.copyOf(roles);
        this.sanitizer = sanitizer;
        this.settings = settings;
    }

    /** One pool's view; without {@code pool} and with several pools, every pool's view by key. */
    @ReadOperation
    public WebEndpointResponse<Object> pool(@Nullable SecurityContext reader, @Nullable String pool) {
        if (pool == null && pools.size() != 1) {
            Map<String, PoolViews.PoolView> all = new LinkedHashMap<>();
            pools.all().forEach((key, p) -> all.put(key, withSettings(p, reader(reader, p))));
            return new WebEndpointResponse<>(new PoolsView(all));
        }
        return find(pool, WebEndpointResponse.STATUS_NOT_FOUND,
                p -> new WebEndpointResponse<>(withSettings(p, reader(reader, p))));
    }

    private PoolViews.PoolView withSettings(SlotPoolDataSource pool, PoolViews.Reader reader) {
        return PoolViews.pool(pool.snapshot(), reader, settings.of(pool, reader.url()), pool.limits());
    }

    @ReadOperation
    public WebEndpointResponse<Object> origin(@Nullable SecurityContext reader, @Selector String origin,
                                             @Nullable String pool) {
        return find(pool, WebEndpointResponse.STATUS_NOT_FOUND, p -> {
            PoolSnapshot s = p.snapshot();
            return s.origin(origin)
                    .<WebEndpointResponse<Object>>map(o -> new WebEndpointResponse<>(PoolViews.originDetail(o,
                            reader(reader, p))))
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
    public WebEndpointResponse<Object> poolAction(@Nullable SecurityContext reader, String action,
                                                  @Nullable String weights, @Nullable String pool) {
        return find(pool, WebEndpointResponse.STATUS_BAD_REQUEST,
                p -> answer(p, PoolActions.apply(p, null, () -> PoolActionInput.poolAction(action, weights), caller(reader)),
                        reader(reader, p)));
    }

    /**
     * {@code POST /actuator/pool/{origin}} with {@code {"action": "drain", "timeout": "30s"}}, {@code
     * {"action": "down"}} or {@code {"action": "up"}}. {@code origin} may also be a selector such as
     * {@code host=db3} (every origin on that host). A planned switchover names the primary and its standby,
     * {@code {"action": "switchover", "to": "second", "timeout": "30s"}}, and answers once the standby has caught
     * up (docs/failover.md, "Planned switchover"). With adaptive sizing, {@code {"action": "limit", "limit": "12"}}
     * pins the origin's limit, {@code "limit": "fixed"} pins it at its ceiling, {@code "limit": "adaptive"} hands it
     * back to the controller (docs/architecture.md, "Adaptive sizing").
     */
    @WriteOperation
    public WebEndpointResponse<Object> originAction(@Nullable SecurityContext reader, @Selector String origin,
                                                    String action, @Nullable String timeout, @Nullable String to,
                                                    @Nullable String limit, @Nullable String pool) {
        return find(pool, WebEndpointResponse.STATUS_BAD_REQUEST,
                p -> answer(p, PoolActions.apply(p, origin,
                        () -> PoolActionInput.originAction(action, timeout, to, limit),
                        caller(reader)),
                        reader(reader, p)));
    }

    /** Who asks, for the audit line: the principal Actuator passes, none when it passes none. */
    private static PoolActions.Caller caller(@Nullable SecurityContext context) {
        return PoolActions.Caller.of("actuator", context == null ? null : context.getPrincipal());
    }

    /**
     * What this reader of this pool sees ({@link PoolAccessPolicy}, Boot's show-values rule for URLs). Actuator
     * always passes the reader; it is {@code @Nullable} so the read without a selector stays a parameterless read
     * (Boot then offers {@code management.endpoint.pool.cache.time-to-live}), and null reads as nobody logged in.
     */
    private PoolViews.Reader reader(@Nullable SecurityContext context, SlotPoolDataSource pool) {
        SecurityContext reader = context == null ? SecurityContext.NONE : context;
        boolean seesHolders = policy.maySeeHolders(held -> held.stream().anyMatch(reader::isUserInRole));
        boolean showUrls = showValues.isShown(reader, roles);
        return new PoolViews.Reader(seesHolders,
                url -> url == null ? null : String.valueOf(sanitizer.sanitize(new SanitizableData(null,
                        "slotpool.origins.url", url), showUrls)),
                PoolAccessPolicy.forReaders(pool.config()));
    }

    /** The action's answer: the outcome with the pool's view after it, or the refusal with its status. */
    private static WebEndpointResponse<Object> answer(SlotPoolDataSource pool, PoolActions.Result result,
                                                      PoolViews.Reader reader) {
        if (result instanceof Outcome o) {
            return new WebEndpointResponse<>(o.showing(PoolViews.pool(pool.snapshot(), reader)));
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
