package dev.slotpool.console;

import dev.slotpool.PoolEvent;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.autoconfigure.PoolActionInput;
import dev.slotpool.autoconfigure.PoolActions;
import dev.slotpool.autoconfigure.PoolActions.Action;
import dev.slotpool.autoconfigure.PoolActions.Outcome;
import dev.slotpool.autoconfigure.PoolActions.Problem;
import dev.slotpool.autoconfigure.PoolViews;
import dev.slotpool.console.ConsolePools.ConsolePool;
import dev.slotpool.console.ConsoleViews.EventLog;
import dev.slotpool.console.ConsoleViews.EventRow;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.server.ResponseStatusException;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The console at {@code slotpool.console.path}, over every pool of the application ({@link ConsolePools}: a
 * request names one with {@code pool}, else it is about the first). Thin by design: reads map a
 * {@link PoolSnapshot} to {@link PoolViews}, the Actuator endpoint's projection, with what the console adds
 * ({@link ConsoleViews}); each button's path names its action, which goes typed to {@link PoolActions} (as the
 * endpoint's do), so an origin action takes an origin's name or a selector such as {@code host=db3}, resolved once
 * by the engine. Bad input answers 400 with a message and leaves the pool unchanged; a request that may not act
 * ({@link ConsoleAccess}), or an action without the page's token ({@link ConsoleToken}), gets 403 naming the
 * reason, and a slot's detail names its holder only for who may see holders
 * ({@link dev.slotpool.autoconfigure.PoolAccessPolicy#maySeeHolders}). Who may read is the application's security chain's business
 * ({@link SlotPoolConsoleRequest}, docs/console.md, Security model).
 */
@Controller
@RequestMapping("${slotpool.console.path:/slotpool}")
public class SlotPoolConsoleController {

    /** The page's view name; only the console's template resolver resolves {@code slotpool-console/*}. */
    static final String VIEW = "slotpool-console/console";

    private final ConsolePools pools;
    private final ConsoleSettings settings;
    private final ConsoleToken token;

    public SlotPoolConsoleController(ConsolePools pools, ConsoleSettings settings, ConsoleToken token) {
        this.pools = pools;
        this.settings = settings;
        this.token = token;
    }

    /**
     * The page of the pool named {@code pool} (the first pool when none is named), with a picker when several;
     * with the buttons and the actions' token only for a reader who may act.
     */
    @GetMapping({"", "/"})
    public String page(@RequestParam(required = false) String pool, Model model, HttpServletRequest request,
                       HttpServletResponse response) {
        ConsolePool shown = pools.get(pool).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND,
                "unknown pool"));
        boolean mayAct = ConsoleAccess.mayAct(settings, request);
        model.addAttribute("console", shown.views().view());
        model.addAttribute("consolePath", settings.path());
        model.addAttribute("drainTimeoutDefault", PoolActions.print(PoolActions.DEFAULT_DRAIN_TIMEOUT));
        model.addAttribute("actionsEnabled", mayAct);
        model.addAttribute("consoleToken", mayAct ? token.issue(request, response) : null);
        model.addAttribute("consoleTokenHeader", ConsoleToken.HEADER);
        model.addAttribute("pools", pools.several() ? pools.keys() : List.of());
        model.addAttribute("poolKey", pools.several() ? shown.key() : null);
        model.addAttribute("eventTypes", Arrays.stream(PoolEvent.Type.values()).map(Enum::name).toList());
        return VIEW;
    }

    @GetMapping(path = "/snapshot", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    public ResponseEntity<Object> snapshot(@RequestParam(required = false) String pool) {
        return withPool(pool, HttpStatus.NOT_FOUND, p -> ResponseEntity.ok(p.views().view()));
    }

    /**
     * A stream of {@code snapshot} events (one now, then every second); 429 when this client (its user, or its
     * address or IPv6 /64 when nobody logged in) has {@link ConsoleStreams#DEFAULT_MAX_STREAMS_PER_CLIENT} open, 503 when
     * {@link ConsoleStreams#DEFAULT_MAX_STREAMS} are open; both with {@code Retry-After}.
     */
    @GetMapping(path = "/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public ResponseEntity<?> stream(@RequestParam(required = false) String pool, HttpServletRequest request) {
        Optional<ConsolePool> p = pools.get(pool);
        if (p.isEmpty()) {
            return ResponseEntity.notFound().build();
        }
        ConsoleStreams.Opened opened = p.get().streams().open(client(request));
        if (opened.emitter() != null) {
            return ResponseEntity.ok(opened.emitter());
        }
        return ResponseEntity.status(opened.refusal() == ConsoleStreams.Refusal.CLIENT_LIMIT
                ? HttpStatus.TOO_MANY_REQUESTS : HttpStatus.SERVICE_UNAVAILABLE).header("Retry-After", "5").build();
    }

    /**
     * Whose stream this is: the logged-in user, else the remote address, an IPv6 address by its /64 (one site's
     * network, whose every address one host may use).
     */
    private static String client(HttpServletRequest request) {
        java.security.Principal user = request.getUserPrincipal();
        return user != null && user.getName() != null ? "user:" + user.getName()
                : "address:" + network(request.getRemoteAddr());
    }

    /** An IPv4 address itself, an IPv6 address's /64; the remote address is always a literal, so no lookup. */
    private static String network(String address) {
        if (address == null || address.indexOf(':') < 0) {
            return address;
        }
        try {
            byte[] a = InetAddress.getByName(address).getAddress();
            if (a.length != 16) {
                return InetAddress.getByAddress(a).getHostAddress(); // IPv4-mapped: the IPv4 address
            }
            StringBuilder prefix = new StringBuilder();
            for (int i = 0; i < 8; i += 2) {
                prefix.append(Integer.toHexString(((a[i] & 0xff) << 8) | (a[i + 1] & 0xff))).append(':');
            }
            return prefix.append(":/64").toString();
        } catch (UnknownHostException notALiteral) {
            return address;
        }
    }

    /** The chart's history: one point a second over the last 15 minutes, oldest first. */
    @GetMapping(path = "/history", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    public ResponseEntity<Object> history(@RequestParam(required = false) String pool) {
        return withPool(pool, HttpStatus.NOT_FOUND, p -> ResponseEntity.ok(p.history().history()));
    }

    /**
     * The event log as a JSON download, newest first, filtered by {@code origin} and {@code type} (each repeated
     * or comma-separated; {@link EventFilter}); a bad filter answers 400. Each event as every reader may see it,
     * as in the page ({@link ConsoleViews#forReaders}).
     */
    @GetMapping(path = "/events", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    public ResponseEntity<Object> events(@RequestParam(required = false) String pool,
                                         @RequestParam(required = false) List<String> origin,
                                         @RequestParam(required = false) List<String> type) {
        return withPool(pool, HttpStatus.NOT_FOUND, p -> {
            List<EventRow> log = p.views().events().recent();
            Set<String> known = new LinkedHashSet<>();
            p.views().snapshot().origins().forEach(o -> known.add(o.name()));
            log.stream().map(EventRow::origin).filter(Objects::nonNull).forEach(known::add);
            EventFilter filter;
            try {
                filter = EventFilter.of(origin, type, known);
            } catch (IllegalArgumentException e) {
                return problem(HttpStatus.BAD_REQUEST, e.getMessage());
            }
            List<EventRow> rows = log.stream().filter(filter).map(p.views()::forReaders).toList();
            return ResponseEntity.ok()
                    .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment()
                            .filename("slotpool-events-" + p.key() + ".json", StandardCharsets.UTF_8).build().toString())
                    .body(new EventLog(p.key(), filter.origins(), filter.types(), rows));
        });
    }

    @GetMapping(path = "/origins/{origin}/slots/{index}", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    public ResponseEntity<Object> slot(@PathVariable String origin, @PathVariable int index,
                                       @RequestParam(required = false) String pool, HttpServletRequest request) {
        return withPool(pool, HttpStatus.NOT_FOUND, p -> {
            PoolSnapshot s = p.views().snapshot();
            PoolViews.Reader reader = p.views().reader(ConsoleAccess.maySeeHolders(settings, request));
            return s.origin(origin)
                    .flatMap(o -> o.slots().stream().filter(x -> x.index() == index).findFirst())
                    .<ResponseEntity<Object>>map(x -> ResponseEntity.ok(PoolViews.slotDetail(x, reader)))
                    .orElseGet(() -> problem(HttpStatus.NOT_FOUND, s.origin(origin).isEmpty()
                            ? PoolActionInput.unknownOrigin(origin, s)
                            : "origin '" + origin + "' holds no connection in slot " + index));
        });
    }

    /**
     * Back to the configured weights (no or blank {@code weights}), or to {@code weights=east=70,west=30}. Only a
     * form body (415 otherwise): in a body of another type the fields would be missed, and no weights means
     * "configured".
     */
    @PostMapping(path = "/actions/rebalance", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    public ResponseEntity<Object> rebalance(@RequestParam(required = false) String weights,
                                            @RequestParam(required = false) String pool, HttpServletRequest request) {
        return refusal(request).orElseGet(() -> withPool(pool, HttpStatus.BAD_REQUEST, p -> answer(p, request,
                PoolActions.apply(p.pool(), null, () -> PoolActionInput.rebalance(blankToNull(weights)), caller(request)))));
    }

    /**
     * A planned drain within {@code timeout} (Boot duration syntax; blank means
     * {@link PoolActions#DEFAULT_DRAIN_TIMEOUT}). Only a form body, as rebalance.
     */
    @PostMapping(path = "/origins/{origin}/drain", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    public ResponseEntity<Object> drain(@PathVariable String origin, @RequestParam(required = false) String timeout,
                                        @RequestParam(required = false) String pool, HttpServletRequest request) {
        return refusal(request).orElseGet(() -> withPool(pool, HttpStatus.BAD_REQUEST, p -> answer(p, request,
                PoolActions.apply(p.pool(), origin, () -> Action.drain(PoolActionInput.drainTimeout(blankToNull(timeout))),
                        caller(request)))));
    }

    @PostMapping(path = "/origins/{origin}/down", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    public ResponseEntity<Object> down(@PathVariable String origin, @RequestParam(required = false) String pool,
                                       HttpServletRequest request) {
        return refusal(request).orElseGet(() -> withPool(pool, HttpStatus.BAD_REQUEST,
                p -> answer(p, request, PoolActions.apply(p.pool(), origin, Action.down(), caller(request)))));
    }

    @PostMapping(path = "/origins/{origin}/up", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    public ResponseEntity<Object> up(@PathVariable String origin, @RequestParam(required = false) String pool,
                                     HttpServletRequest request) {
        return refusal(request).orElseGet(() -> withPool(pool, HttpStatus.BAD_REQUEST,
                p -> answer(p, request, PoolActions.apply(p.pool(), origin, Action.up(), caller(request)))));
    }

    /**
     * A planned switchover from this primary to the standby {@code to} within {@code timeout} (blank: as a drain's
     * default), answering once the standby has caught up, with what the operator does next (docs/failover.md,
     * "Planned switchover"). Only a form body, as rebalance: a missed {@code to} would be refused, a missed
     * {@code timeout} read as the default.
     */
    @PostMapping(path = "/origins/{origin}/switchover", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    public ResponseEntity<Object> switchover(@PathVariable String origin, @RequestParam(required = false) String to,
                                             @RequestParam(required = false) String timeout,
                                             @RequestParam(required = false) String pool, HttpServletRequest request) {
        return refusal(request).orElseGet(() -> withPool(pool, HttpStatus.BAD_REQUEST, p -> answer(p, request,
                PoolActions.apply(p.pool(), origin, () -> PoolActionInput.switchover(blankToNull(to),
                        blankToNull(timeout)), caller(request)))));
    }

    /**
     * Pins the origin's adaptive limit at {@code limit} (a whole number, or {@code fixed}: its ceiling), or hands it
     * back to the controller ({@code adaptive}); refused under fixed sizing. Only a form body, as rebalance: a
     * missed {@code limit} is refused, not guessed.
     */
    @PostMapping(path = "/origins/{origin}/limit", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    public ResponseEntity<Object> limit(@PathVariable String origin, @RequestParam(required = false) String limit,
                                        @RequestParam(required = false) String pool, HttpServletRequest request) {
        return refusal(request).orElseGet(() -> withPool(pool, HttpStatus.BAD_REQUEST, p -> answer(p, request,
                PoolActions.apply(p.pool(), origin, () -> PoolActions.limitAction(PoolActionInput.limit(limit)),
                        caller(request)))));
    }

    /**
     * Runs the request on the pool named {@code key}, the first pool when null; an unknown key answers
     * {@code unknown} (404 for a read, 400 for an action).
     */
    private ResponseEntity<Object> withPool(String key, HttpStatus unknown,
                                            Function<ConsolePool, ResponseEntity<Object>> request) {
        return pools.get(key).map(request).orElseGet(() -> problem(unknown, "unknown pool '"
                + PoolActionInput.quoted(key) + "' (known pools: " + String.join(", ", pools.keys()) + ")"));
    }

    /** An action's answer, as the endpoint's: the outcome with the pool's view after it, or the refusal. */
    private ResponseEntity<Object> answer(ConsolePool pool, HttpServletRequest request, PoolActions.Result result) {
        if (result instanceof Outcome o) {
            return ResponseEntity.ok(o.showing(PoolViews.pool(pool.views().snapshot(),
                    pool.views().reader(ConsoleAccess.maySeeHolders(settings, request)))));
        }
        return answer(result);
    }

    private static ResponseEntity<Object> answer(PoolActions.Result result) {
        Problem p = (Problem) result;
        return ResponseEntity.status(p.status()).contentType(MediaType.APPLICATION_JSON).body(p);
    }

    /** Who asks, for the audit line: the user the request's principal names, if any. */
    private static PoolActions.Caller caller(HttpServletRequest request) {
        return PoolActions.Caller.of("console", request.getUserPrincipal());
    }

    /** A form field left blank means "not given" (configured weights, the default drain timeout). */
    private static String blankToNull(String field) {
        return StringUtils.hasText(field) ? field.trim() : null;
    }

    /**
     * Why this action is refused (403), or empty: first who may act ({@link ConsoleAccess}), then the page's token
     * ({@link ConsoleToken}), so no request from another site acts, whatever its body or the chain.
     */
    private Optional<ResponseEntity<Object>> refusal(HttpServletRequest request) {
        if (!ConsoleAccess.mayAct(settings, request)) {
            String nobody = settings.nobodyActsBecause();
            return Optional.of(problem(HttpStatus.FORBIDDEN, (nobody != null ? nobody
                    : "console action refused: only a user with one of the roles slotpool.operator-roles names ("
                            + String.join(", ", settings.policy().operatorRoles()) + ") may act")
                    + " (slotpool reference: The admin console, Security model)"));
        }
        String crossSite = token.refusal(request);
        return crossSite == null ? Optional.empty() : Optional.of(problem(HttpStatus.FORBIDDEN, crossSite
                + " (slotpool reference: The admin console, Security model)"));
    }

    private static ResponseEntity<Object> problem(HttpStatus status, String message) {
        return answer(new Problem(status.value(), status.getReasonPhrase(), message));
    }
}
