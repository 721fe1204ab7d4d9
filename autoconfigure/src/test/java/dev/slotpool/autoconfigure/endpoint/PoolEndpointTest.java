package dev.slotpool.autoconfigure.endpoint;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.Sizing;
import dev.slotpool.SlotState;
import dev.slotpool.autoconfigure.PoolAccessPolicy;
import dev.slotpool.autoconfigure.PoolActions.Problem;
import dev.slotpool.autoconfigure.SlotPools;
import dev.slotpool.autoconfigure.PoolActions.Outcome;
import dev.slotpool.autoconfigure.PoolViews;
import dev.slotpool.autoconfigure.PoolSettings;
import dev.slotpool.autoconfigure.PoolViews.OriginView;
import dev.slotpool.autoconfigure.PoolViews.PoolView;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import tools.jackson.databind.json.JsonMapper;

import java.sql.Connection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The endpoint's operations called as Actuator calls them; over HTTP in the sample app's tests. */
class PoolEndpointTest {

    private static final String SECRET = "endpoint-secret-pw";

    private SlotPoolDataSource pool;
    private PoolEndpoint endpoint;

    @BeforeEach
    void start() throws Exception {
        pool = SlotPoolDataSource.builder().name("ep").minSize(3).maxSize(6).password(SECRET)
                .origin(OriginConfig.named("east").url(StubDatabase.reset("ep-east").url()).weight(50).host("db1"))
                .origin(OriginConfig.named("west").url(StubDatabase.reset("ep-west").url()).weight(30))
                .origin(OriginConfig.named("north").url(StubDatabase.reset("ep-north").url()).weight(20))
                .build();
        endpoint = endpoint(pool);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (pool.snapshot().available() < 3) {
            assertThat(System.nanoTime()).as("3 connections opened").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @AfterEach
    void stop() {
        pool.close();
    }

    /**
     * The endpoint as an application with write access, Spring Security and operator role {@code OPS} has it: an
     * {@link #OPERATOR} sees holders; URLs always shown. What other readers see is {@link PoolEndpointReadersTest}'s.
     */
    private static PoolEndpoint endpoint(SlotPoolDataSource pool) {
        return new PoolEndpoint(SlotPools.of(Map.of("dataSource", pool)),
                new PoolAccessPolicy(null, List.of("OPS"), true), Show.ALWAYS, Set.of(), new Sanitizer(),
                new PoolSettings());
    }

    private static final SecurityContext OPERATOR = new SecurityContext() {
        @Override
        public java.security.Principal getPrincipal() {
            return () -> "operator";
        }

        @Override
        public boolean isUserInRole(String role) {
            return "OPS".equals(role);
        }
    };

    private Map<String, Integer> weights() {
        Map<String, Integer> w = new LinkedHashMap<>();
        pool.snapshot().origins().forEach(o -> w.put(o.name(), o.weight()));
        return w;
    }

    private OriginState state(String origin) {
        return pool.snapshot().origin(origin).map(OriginSnapshot::state).orElseThrow();
    }

    private static String message(WebEndpointResponse<Object> r) {
        return ((Problem) r.getBody()).message();
    }

    @Test
    void readsTheWholePoolWithEveryOriginAndSlot() throws Exception {
        try (Connection held = pool.getConnection()) {
            PoolView view = (PoolView) endpoint.pool(SecurityContext.NONE, null).getBody();
            assertThat(view.name()).isEqualTo("ep");
            assertThat(view.sizes().max()).isEqualTo(6);
            assertThat(view.sizes().borrowed()).isEqualTo(1);
            assertThat(view.borrows()).isEqualTo(1);
            assertThat(view.origins()).extracting(PoolViews.OriginView::name).containsExactly("east", "west", "north");
            assertThat(view.origins()).allSatisfy(o -> assertThat(o.state()).isEqualTo(OriginState.UP));
            assertThat(view.origins()).as("no standby kept for reads").allSatisfy(o -> assertThat(o.reads()).isNull());
            assertThat(view.origins().get(0).dimensions().host()).isEqualTo("db1");
            assertThat(view.origins().get(0).targetShare()).isEqualTo(50.0);
            assertThat(view.origins().stream().flatMap(o -> o.slots().stream()))
                    .anySatisfy(s -> assertThat(s.state()).isEqualTo(SlotState.BORROWED));
            String json = JsonMapper.builder().build().writeValueAsString(view);
            assertThat(json).contains("\"origins\"", "\"slots\"", "\"borrowCount\"").doesNotContain(SECRET);
        }
    }

    @Test
    void showsEachOriginsStatementCacheCounts() throws Exception {
        try (SlotPoolDataSource cached = SlotPoolDataSource.builder().name("ep-cached").minSize(1).maxSize(1)
                .statementCacheSize(4).url(StubDatabase.reset("ep-cached").url()).build()) {
            try (Connection c = cached.getConnection()) {
                c.prepareStatement("select 1").close();
                c.prepareStatement("select 1").close();
            }
            PoolEndpoint ep = endpoint(cached);
            PoolView view = (PoolView) ep.pool(SecurityContext.NONE, null).getBody();
            assertThat(view.origins().get(0).statementCache()).isEqualTo(new PoolViews.StatementCacheCounts(1, 1, 0));
            String json = JsonMapper.builder().build().writeValueAsString(view);
            assertThat(json).contains("\"statementCache\":{\"hits\":1,\"misses\":1,\"evictions\":0}");
        }
    }

    @Test
    void readsOneOriginWithSlotDetailsAndAnswers404ForAnUnknownOne() throws Exception {
        try (Connection held = pool.getConnection()) {
            String holder = Thread.currentThread().getName();
            List<OriginView> details = new java.util.ArrayList<>();
            for (String name : List.of("east", "west", "north")) {
                WebEndpointResponse<Object> r = endpoint.origin(OPERATOR, name, null);
                assertThat(r.getStatus()).isEqualTo(200);
                details.add((OriginView) r.getBody());
            }
            assertThat(details.stream().flatMap(d -> d.slots().stream()))
                    .anySatisfy(s -> {
                        assertThat(s.state()).isEqualTo(SlotState.BORROWED);
                        assertThat(s.holder().thread()).isEqualTo(holder);
                        assertThat(s.heldMillis()).isGreaterThanOrEqualTo(0);
                        assertThat(s.ageMillis()).isGreaterThanOrEqualTo(0);
                    });
        }
        WebEndpointResponse<Object> missing = endpoint.origin(SecurityContext.NONE, "south", null);
        assertThat(missing.getStatus()).isEqualTo(404);
        assertThat(message(missing)).contains("unknown origin 'south'", "east, west, north");
    }

    @Test
    void rebalancesToGivenWeightsAndBackToTheConfiguredOnes() {
        WebEndpointResponse<Object> r = endpoint.poolAction(SecurityContext.NONE, "rebalance", " east=70, west = 20,north=10", null);
        assertThat(r.getStatus()).isEqualTo(200);
        assertThat(((Outcome) r.getBody()).action()).isEqualTo("rebalance");
        assertThat(weights()).isEqualTo(Map.of("east", 70, "west", 20, "north", 10));

        assertThat(endpoint.poolAction(SecurityContext.NONE, "REBALANCE", null, null).getStatus()).isEqualTo(200);
        assertThat(weights()).isEqualTo(Map.of("east", 50, "west", 30, "north", 20));
    }

    @Test
    void badRebalancesAnswer400AndChangeNothing() {
        Map<String, Integer> before = weights();
        List<String> bad = List.of("east=-1,west=50", "east=0,west=0,north=0", "east=lots", "east=1.5", "east=true",
                "south=10", "", "east", "east=70,", "=5", "east=1,east=2", "east=99999999999");
        for (String weights : bad) {
            WebEndpointResponse<Object> r = endpoint.poolAction(SecurityContext.NONE, "rebalance", weights, null);
            assertThat(r.getStatus()).as("weights %s", weights).isEqualTo(400);
            assertThat(message(r)).as("weights %s", weights).isNotBlank();
            assertThat(weights()).as("unchanged after %s", weights).isEqualTo(before);
        }
        WebEndpointResponse<Object> unknownAction = endpoint.poolAction(SecurityContext.NONE, "shuffle", null, null);
        assertThat(unknownAction.getStatus()).isEqualTo(400);
        assertThat(message(unknownAction)).contains("shuffle", "rebalance");
    }

    @Test
    void theLimitActionPinsAndReleasesAnAdaptiveLimitAndTheReadShowsIt() throws Exception {
        SlotPoolDataSource adaptive = SlotPoolDataSource.builder().name("ep-adaptive").minSize(1).maxSize(8)
                .sizing(Sizing.ADAPTIVE).url(StubDatabase.reset("ep-adaptive").url()).build();
        try {
            PoolEndpoint e = endpoint(adaptive);
            WebEndpointResponse<Object> pinned = e.originAction(SecurityContext.NONE, "default", "limit", null, null,
                    "5", null);
            assertThat(pinned.getStatus()).isEqualTo(200);
            assertThat(((Outcome) pinned.getBody()).outcome()).isEqualTo("limit pinned at 5");
            assertThat(adaptive.limits().get(0).pinned()).isEqualTo(5);
            WebEndpointResponse<Object> fixed = e.originAction(SecurityContext.NONE, "default", "limit", null, null,
                    "FIXED", null);
            assertThat(((Outcome) fixed.getBody()).outcome()).isEqualTo("limit pinned at 8");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (adaptive.limits().get(0).limit() != 8) {
                assertThat(System.nanoTime()).as("the pin applied").isLessThan(deadline);
                Thread.sleep(20);
            }
            PoolViews.PoolView view = (PoolViews.PoolView) e.pool(SecurityContext.NONE, null).getBody();
            assertThat(view.limits()).singleElement().satisfies(l -> {
                assertThat(l.origin()).isEqualTo("default");
                assertThat(l.limit()).isEqualTo(8);
                assertThat(l.reason()).isEqualTo("pinned at 8 by an operator");
                assertThat(l.history()).isNotEmpty();
            });
            assertThat(((Outcome) e.originAction(SecurityContext.NONE, "default", "limit", null, null, "adaptive",
                    null).getBody()).outcome()).isEqualTo("limit handed back to the controller");
            assertThat(adaptive.limits().get(0).pinned()).isZero();

            WebEndpointResponse<Object> tooHigh = e.originAction(SecurityContext.NONE, "default", "limit", null, null,
                    "9", null);
            assertThat(tooHigh.getStatus()).isEqualTo(400);
            assertThat(message(tooHigh)).contains("between 1 and 8");
            assertThat(message(e.originAction(SecurityContext.NONE, "default", "limit", null, null, "lots", null)))
                    .contains("bad limit 'lots'");
            assertThat(message(e.originAction(SecurityContext.NONE, "default", "limit", null, null, null, null)))
                    .contains("needs 'limit'");
            assertThat(message(e.originAction(SecurityContext.NONE, "default", "down", null, null, "3", null)))
                    .contains("'limit' applies to the limit action only");
            assertThat(message(e.originAction(SecurityContext.NONE, "nowhere", "limit", null, null, "3", null)))
                    .contains("no configured origin named 'nowhere'");
        } finally {
            adaptive.close();
        }
        // This fixture's pool has fixed sizing: nothing to pin, and its read shows no limits.
        WebEndpointResponse<Object> fixedPool = endpoint.originAction(SecurityContext.NONE, "east", "limit", null,
                null, "3", null);
        assertThat(fixedPool.getStatus()).isEqualTo(400);
        assertThat(message(fixedPool)).contains("sizing FIXED");
        assertThat(((PoolViews.PoolView) endpoint.pool(SecurityContext.NONE, null).getBody()).limits()).isEmpty();
    }

    @Test
    void drainDownAndUpChangeTheOriginAndRepeatsAreHarmless() {
        assertThat(endpoint.originAction(SecurityContext.NONE, "north", "drain", "2s", null, null, null).getStatus()).isEqualTo(200);
        assertThat(state("north")).isEqualTo(OriginState.DRAINING);
        assertThat(endpoint.originAction(SecurityContext.NONE, "north", "drain", "2s", null, null, null).getStatus()).isEqualTo(200);
        assertThat(state("north")).isEqualTo(OriginState.DRAINING);
        assertThat(endpoint.originAction(SecurityContext.NONE, "north", "up", null, null, null, null).getStatus()).isEqualTo(200);
        assertThat(state("north")).isEqualTo(OriginState.UP);
        assertThat(endpoint.originAction(SecurityContext.NONE, "west", "down", null, null, null, null).getStatus()).isEqualTo(200);
        assertThat(state("west")).isEqualTo(OriginState.DOWN);
        assertThat(endpoint.originAction(SecurityContext.NONE, "west", "down", null, null, null, null).getStatus()).isEqualTo(200);
        assertThat(endpoint.originAction(SecurityContext.NONE, "west", "up", null, null, null, null).getStatus()).isEqualTo(200);
        assertThat(endpoint.originAction(SecurityContext.NONE, "west", "up", null, null, null, null).getStatus()).isEqualTo(200);
        assertThat(state("west")).isEqualTo(OriginState.UP);
        Outcome drained = (Outcome) endpoint.originAction(SecurityContext.NONE, "east", "drain", null, null, null, null).getBody();
        assertThat(drained.outcome()).isEqualTo("draining within 30s");
    }

    @Test
    void originActionsTakeDimensionSelectors() {
        assertThat(endpoint.originAction(SecurityContext.NONE, "host=db1", "down", null, null, null, null).getStatus()).isEqualTo(200);
        assertThat(state("east")).isEqualTo(OriginState.DOWN);
        assertThat(state("west")).isEqualTo(OriginState.UP);
        assertThat(endpoint.originAction(SecurityContext.NONE, "name=east", "up", null, null, null, null).getStatus()).isEqualTo(200);
        assertThat(state("east")).isEqualTo(OriginState.UP);
        WebEndpointResponse<Object> none = endpoint.originAction(SecurityContext.NONE, "host=db9", "down", null, null, null, null);
        assertThat(none.getStatus()).isEqualTo(400);
        assertThat(message(none)).startsWith("no origin matches 'host=db9'");
        WebEndpointResponse<Object> badKey = endpoint.originAction(SecurityContext.NONE, "rack=r1", "down", null, null, null, null);
        assertThat(badKey.getStatus()).isEqualTo(400);
        assertThat(message(badKey)).contains("bad origin selector 'rack=r1'");
        assertThat(pool.snapshot().origins()).extracting(OriginSnapshot::state).containsOnly(OriginState.UP);
    }

    @Test
    void badOriginActionsAnswer400AndChangeNothing() {
        record Case(String origin, String action, String timeout, String to, String expected) {
        }
        List<Case> cases = List.of(
                new Case("south", "drain", "1s", null, "unknown origin 'south'"),
                new Case("east", "explode", null, null, "unknown origin action 'explode'"),
                new Case("east", "drain", "soon", null, "not a duration"),
                new Case("east", "drain", "-5s", null, "≥ 0"),
                new Case("east", "up", "5s", null, "applies to drain and switchover only"),
                new Case("east", "down", null, "west", "'to' applies to switchover only"),
                new Case("east", "switchover", "5s", null, "a switchover needs 'to'"),
                new Case("east", "switchover", "soon", "west", "not a duration"),
                new Case("east", "switchover", null, "south", "unknown origin 'south'"),
                new Case("east", "switchover", null, "west", "'east' is not a primary in service"),
                new Case("east", null, null, null, "unknown origin action"));
        for (Case c : cases) {
            WebEndpointResponse<Object> r = endpoint.originAction(SecurityContext.NONE, c.origin(), c.action(), c.timeout(), c.to(), null, null);
            assertThat(r.getStatus()).as("%s", c).isEqualTo(400);
            assertThat(message(r)).as("%s", c).contains(c.expected());
        }
        assertThat(pool.snapshot().origins()).allSatisfy(o -> assertThat(o.state()).isEqualTo(OriginState.UP));
    }

    /**
     * Input far larger than any real action is refused with 400 and a short message: long text is quoted by its
     * start and length, the engine's list of problems is cut, and weights above 64 KiB are not parsed at all.
     */
    @Test
    void hugeInputIsRefusedWithAShortMessageAndChangesNothing() {
        Map<String, Integer> before = weights();
        StringBuilder unknown = new StringBuilder();
        for (int i = 0; unknown.length() < dev.slotpool.autoconfigure.PoolActionInput.MAX_WEIGHTS_LENGTH - 100; i++) {
            unknown.append(i == 0 ? "" : ",").append("origin-").append(i).append("=1");
        }
        String fiveMegabytes = "7".repeat(5 * 1024 * 1024);
        List<WebEndpointResponse<Object>> answers = List.of(
                endpoint.poolAction(SecurityContext.NONE, "rebalance", "east=" + fiveMegabytes, null),
                endpoint.poolAction(SecurityContext.NONE, "rebalance", unknown.toString(), null),
                endpoint.poolAction(SecurityContext.NONE, "rebalance", "east=1,x" + fiveMegabytes.substring(0, 1000) + "=oops", null),
                endpoint.poolAction(SecurityContext.NONE, fiveMegabytes, null, null),
                endpoint.originAction(SecurityContext.NONE, "north", "drain", fiveMegabytes + "s", null, null, null),
                endpoint.originAction(SecurityContext.NONE, "north", fiveMegabytes, null, null, null, null),
                endpoint.originAction(SecurityContext.NONE, "x".repeat(100_000), "down", null, null, null, null));
        for (WebEndpointResponse<Object> r : answers) {
            assertThat(r.getStatus()).isEqualTo(400);
            assertThat(message(r)).hasSizeLessThan(2100);
        }
        assertThat(message(answers.get(0))).isEqualTo("weights are 5242885 characters long; at most 65536 are read");
        assertThat(message(answers.get(1))).startsWith("rebalance rejected: unknown origin 'origin-0'")
                .endsWith("characters)");
        assertThat(message(answers.get(4))).startsWith("timeout '7777").endsWith("… (5242881 characters)' is not a "
                + "duration (e.g. 30s, 2m, PT30S)");
        assertThat(weights()).isEqualTo(before);
        assertThat(pool.snapshot().origins()).allSatisfy(o -> assertThat(o.state()).isEqualTo(OriginState.UP));
    }
}
