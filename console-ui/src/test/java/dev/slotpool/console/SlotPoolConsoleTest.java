package dev.slotpool.console;

import dev.slotpool.OriginState;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.stereotype.Controller;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.RequestPostProcessor;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;

import java.sql.Connection;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.slotpool.console.ConsoleTestSupport.CONFIGURED_WEIGHTS;
import static dev.slotpool.console.ConsoleTestSupport.PATIENCE;
import static dev.slotpool.console.ConsoleTestSupport.awaitPool;
import static dev.slotpool.console.ConsoleTestSupport.awaitWarm;
import static dev.slotpool.console.ConsoleTestSupport.bareRunner;
import static dev.slotpool.console.ConsoleTestSupport.consoleToken;
import static dev.slotpool.console.ConsoleTestSupport.forged;
import static dev.slotpool.console.ConsoleTestSupport.runner;
import static dev.slotpool.console.ConsoleTestSupport.states;
import static dev.slotpool.console.ConsoleTestSupport.weights;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

/**
 * The console's controller and page through MockMvc, without security filters (who may call what is
 * {@link ConsoleSecurityTest}'s). Spring Security is on this module's test class path, so the console acts only
 * for an operator role (none here) unless a test sets {@code slotpool.console.actions-enabled=true}; every action
 * carries the page's token ({@link ConsoleTestSupport#consoleToken}).
 */
class SlotPoolConsoleTest {

    private static final String ACTIONS_ON = "slotpool.console.actions-enabled=true";
    private static final FilteredClassLoader NO_SECURITY = new FilteredClassLoader("org.springframework.security");

    /** A slot's cell as a reader who may not act gets it: no button, since a slot's detail is for who may act. */
    private static final Pattern SLOT_CELL = Pattern.compile("<span role=\"img\" class=\"slot slot-(\\w+)\" data-index=\"\\d+\""
            + " title=\"[^\"]+\" aria-label=\"[^\"]+\" data-borrows=\"\\d+\">");

    /** A POST with a form body, as the page's forms and script send. */
    private static MockHttpServletRequestBuilder form(String path) {
        return post(path).contentType(MediaType.APPLICATION_FORM_URLENCODED);
    }

    private static MockMvc mvc(AssertableWebApplicationContext ctx) {
        assertThat(ctx).hasNotFailed();
        return MockMvcBuilders.webAppContextSetup(ctx).build();
    }

    @Test
    void thePageDrawsEveryOriginWithItsSlotsAndStateLabels() {
        runner("page").run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            int connections = awaitWarm(pool).total();
            MvcResult r = mvc(ctx).perform(get("/slotpool")).andExpect(status().isOk())
                    .andExpect(view().name(SlotPoolConsoleController.VIEW)).andReturn();
            String html = r.getResponse().getContentAsString();
            for (String origin : new String[] {"east", "west", "north"}) {
                assertThat(html).contains("data-origin=\"" + origin + "\"", "aria-label=\"origin " + origin + "\"");
            }
            assertThat(html).contains("class=\"badge badge-up\"", ">UP</span>",
                    "<div><dt>instance</dt><dd data-o=\"dimensions.instance\" data-hide-empty>east-1</dd></div>",
                    "<div><dt>host</dt><dd data-o=\"dimensions.host\" data-hide-empty>db-east</dd></div>",
                    "<span class=\"pool-name\">console-page</span>");
            // A field without a value is not shown (console.js keeps it so), and an open pool says nothing of closing.
            assertThat(html).contains("<div hidden=\"hidden\"><dt>reads</dt>", "<div hidden=\"hidden\"><dt>service</dt>",
                    "<div hidden=\"hidden\"><dt>database</dt>", "<div hidden=\"hidden\"><dt>role</dt>",
                    "<span class=\"badge badge-down\" data-closed hidden=\"hidden\">CLOSED</span>")
                    .doesNotContain("<dt>closed</dt>");
            // Every connection is a cell with its state as class, a letter and a text title for hover and focus.
            Matcher cells = SLOT_CELL.matcher(html);
            int count = 0;
            while (cells.find()) {
                assertThat(cells.group(1)).isIn("reserved", "available", "held", "borrowed", "closing", "retiring");
                count++;
            }
            assertThat(count).as("slot cells").isGreaterThanOrEqualTo(connections);
            assertThat(html).as("a reader who may not act gets no slot button").doesNotContain("<button type=\"button\" class=\"slot");
            // Slots no origin holds are drawn too, one empty cell each, matching the count the page states.
            Matcher free = Pattern.compile("data-live=\"freeSlots\">(\\d+)<").matcher(html);
            assertThat(free.find()).isTrue();
            int freeCells = html.split("<span class=\"slot slot-empty\" title=\"free slot\">", -1).length - 1;
            assertThat(freeCells).as("free slot cells").isEqualTo(Math.min(256, Integer.parseInt(free.group(1))))
                    .isPositive();
            assertThat(html).containsPattern("title=\"slot \\d+: available, \\d+ borrows?\"")
                    .containsPattern("aria-label=\"slot \\d+: available, \\d+ borrows?\"");
            // Nobody may act here (no operator role): no buttons, no token; the asset links under the path.
            assertThat(html).doesNotContain("action=\"/slotpool/origins/east/drain\"", "slotpool-console-token")
                    .contains("href=\"/slotpool/assets/console.css\"", "src=\"/slotpool/assets/console.js\"");
            assertThat(html).doesNotContain("name=\"_csrf\"").as("no CsrfToken attribute without a security chain");
        });
    }

    @Test
    void theSnapshotIsJsonOfTheViewRecords() {
        runner("snapshot").run(ctx -> {
            awaitWarm(ctx.getBean(SlotPoolDataSource.class));
            mvc(ctx).perform(get("/slotpool/snapshot")).andExpect(status().isOk())
                    .andExpect(jsonPath("$.pool.name").value("console-snapshot"))
                    .andExpect(jsonPath("$.pool.closed").value(false))
                    .andExpect(jsonPath("$.pool.sizes.max").value(6))
                    .andExpect(jsonPath("$.pool.waiting").value(0))
                    .andExpect(jsonPath("$.live.waitP50Millis").doesNotExist())
                    .andExpect(jsonPath("$.pool.origins.length()").value(3))
                    .andExpect(jsonPath("$.pool.origins[0].name").value("east"))
                    .andExpect(jsonPath("$.pool.origins[0].state").value("UP"))
                    .andExpect(jsonPath("$.pool.origins[0].weight").value(50))
                    .andExpect(jsonPath("$.pool.origins[0].targetShare").value(50.0))
                    .andExpect(jsonPath("$.pool.origins[0]").value(org.hamcrest.Matchers.hasEntry("reads", null)))
                    .andExpect(jsonPath("$.live.origins.east.borrowRate").exists())
                    .andExpect(jsonPath("$.events[?(@.type == 'CREATED')]").isNotEmpty());
        });
    }

    @Test
    void theStreamSendsSnapshotEventsAndDropsAClosedStream() {
        runner("stream").run(ctx -> {
            ConsoleStreams streams = ctx.getBean(ConsolePools.class).get(null).orElseThrow().streams();
            MvcResult r = mvc(ctx).perform(get("/slotpool/stream")).andExpect(request().asyncStarted()).andReturn();
            assertThat(streams.openStreams()).isEqualTo(1);
            MockHttpServletResponse response = r.getResponse();
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (!response.getContentAsString().contains("\"origins\":[")) {
                if (System.nanoTime() > deadline) {
                    fail("no snapshot event within " + PATIENCE + ": " + response.getContentAsString());
                }
                Thread.sleep(20);
            }
            assertThat(response.getContentType()).startsWith("text/event-stream");
            assertThat(response.getContentAsString()).startsWith("event:snapshot\ndata:{\"pool\":{\"name\":\"console-stream\"");

            r.getRequest().getAsyncContext().complete(); // the page went away
            assertThat(streams.openStreams()).isZero();
        });
    }

    @Test
    void actionsChangeThePool() {
        runner("actions").withPropertyValues(ACTIONS_ON).run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            MockMvc mvc = mvc(ctx);
            mvc.perform(form("/slotpool/actions/rebalance").with(consoleToken(mvc)).param("weights", "east=70, west=20,north=10"))
                    .andExpect(status().isOk()).andExpect(jsonPath("$.action").value("rebalance"))
                    .andExpect(jsonPath("$.outcome").value("moving toward {east=70, west=20, north=10}"));
            assertThat(weights(pool)).isEqualTo(Map.of("east", 70, "west", 20, "north", 10));
            mvc.perform(form("/slotpool/actions/rebalance").with(consoleToken(mvc)).param("weights", " ")).andExpect(status().isOk())
                    .andExpect(jsonPath("$.outcome").value("moving toward the configured weights"));
            assertThat(weights(pool)).isEqualTo(CONFIGURED_WEIGHTS);

            mvc.perform(form("/slotpool/origins/north/drain").with(consoleToken(mvc)).param("timeout", "5s")).andExpect(status().isOk())
                    .andExpect(jsonPath("$.origin").value("north"))
                    .andExpect(jsonPath("$.outcome").value("draining within 5s"))
                    // The endpoint's answer: the pool after the action, as this reader sees it.
                    .andExpect(jsonPath("$.pool.origins[?(@.name == 'north')].state").value(
                            org.hamcrest.Matchers.contains(org.hamcrest.Matchers.not("UP"))));
            assertThat(pool.snapshot().origin("north").orElseThrow().state()).isNotEqualTo(OriginState.UP);
            awaitPool(pool, "north drained", s -> s.origin("north").orElseThrow().state() == OriginState.DOWN);

            mvc.perform(form("/slotpool/origins/west/down").with(consoleToken(mvc))).andExpect(status().isOk())
                    .andExpect(jsonPath("$.outcome").value("marked DOWN"));
            assertThat(states(pool)).containsEntry("west", "DOWN").containsEntry("east", "UP");
            mvc.perform(form("/slotpool/origins/west/up").with(consoleToken(mvc))).andExpect(status().isOk());
            mvc.perform(form("/slotpool/origins/north/up").with(consoleToken(mvc))).andExpect(status().isOk());
            assertThat(states(pool)).isEqualTo(Map.of("east", "UP", "west", "UP", "north", "UP"));

            // A selector over the dimensions, as the Actuator endpoint takes: every origin on host db-east.
            mvc.perform(form("/slotpool/origins/host=db-east/down").with(consoleToken(mvc))).andExpect(status().isOk())
                    .andExpect(jsonPath("$.origin").value("host=db-east"))
                    .andExpect(jsonPath("$.outcome").value("marked DOWN"));
            assertThat(states(pool)).isEqualTo(Map.of("east", "DOWN", "west", "UP", "north", "UP"));
            mvc.perform(form("/slotpool/origins/host=db-east/up").with(consoleToken(mvc))).andExpect(status().isOk());
            assertThat(states(pool)).isEqualTo(Map.of("east", "UP", "west", "UP", "north", "UP"));

            // The event log saw the drain and the rebalances.
            mvc.perform(get("/slotpool/snapshot"))
                    .andExpect(jsonPath("$.events[?(@.type == 'REBALANCE')]").isNotEmpty())
                    .andExpect(jsonPath("$.events[?(@.type == 'ORIGIN_STATE' && @.origin == 'north')]").isNotEmpty());
        });
    }

    @Test
    void badInputIsRefusedWithAMessageAndThePoolUnchanged() {
        runner("bad").withPropertyValues(ACTIONS_ON).run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            MockMvc mvc = mvc(ctx);
            Map<String, String> states = states(pool);
            String[][] refused = {
                    {"/slotpool/actions/rebalance", "weights", "east=lots",
                            "weights must be origin=weight pairs with whole numbers ≥ 0, separated by commas (e.g. east=70,west=30); 'east=lots' is not"},
                    {"/slotpool/actions/rebalance", "weights", "south=10", "rebalance rejected: unknown origin 'south'"},
                    {"/slotpool/actions/rebalance", "weights", "east=0,west=0,north=0", "at least one origin needs a weight > 0"},
                    {"/slotpool/actions/rebalance", "weights", "east=1,east=2", "origin 'east' is given twice in weights"},
                    {"/slotpool/origins/east/drain", "timeout", "soon", "timeout 'soon' is not a duration (e.g. 30s, 2m, PT30S)"},
                    {"/slotpool/origins/east/drain", "timeout", "-5s", "timeout must be ≥ 0 (was -5s)"},
                    {"/slotpool/origins/south/drain", "timeout", "5s", "unknown origin 'south' (known origins: east, west, north)"},
                    {"/slotpool/origins/south/down", "x", "", "unknown origin 'south' (known origins: east, west, north)"},
                    {"/slotpool/origins/host=db9/down", "x", "", "no origin matches 'host=db9' (known origins: east, west, north)"},
                    {"/slotpool/origins/rack=r1/up", "x", "", "bad origin selector 'rack=r1'"}};
            for (String[] c : refused) {
                MvcResult r = mvc.perform(form(c[0]).with(consoleToken(mvc)).param(c[1], c[2])).andExpect(status().isBadRequest())
                        .andExpect(jsonPath("$.status").value(400)).andReturn();
                assertThat(r.getResponse().getContentAsString()).as("%s %s=%s", c[0], c[1], c[2]).contains(c[3]);
                assertThat(weights(pool)).isEqualTo(CONFIGURED_WEIGHTS);
                assertThat(states(pool)).isEqualTo(states);
            }
        });
    }

    /** Fields in a JSON body would be missed and read as "configured weights" or "30s": 415, nothing changes. */
    @Test
    void aBodyThatIsNotAFormIsRefused() {
        runner("not-a-form").withPropertyValues(ACTIONS_ON).run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            pool.rebalance(Map.of("east", 10, "west", 10, "north", 80));
            MockMvc mvc = mvc(ctx);
            for (String path : new String[] {"/slotpool/actions/rebalance", "/slotpool/origins/north/drain"}) {
                mvc.perform(post(path).contentType(MediaType.APPLICATION_JSON).content("{\"weights\":\"east=70\"}"))
                        .andExpect(status().isUnsupportedMediaType());
                mvc.perform(post(path)).andExpect(status().isUnsupportedMediaType());
            }
            assertThat(weights(pool)).isEqualTo(Map.of("east", 10, "west", 10, "north", 80));
            assertThat(states(pool)).containsEntry("north", "UP");
        });
    }

    @Test
    void withoutSpringSecurityTheConsoleIsOffUnlessEnabled() {
        bareRunner("off").withClassLoader(NO_SECURITY).run(ctx -> {
            assertThat(ctx).hasNotFailed().hasSingleBean(SlotPoolDataSource.class)
                    .doesNotHaveBean(SlotPoolConsoleController.class).doesNotHaveBean(ConsolePools.class);
            mvc(ctx).perform(get("/slotpool")).andExpect(status().isNotFound());
        });
    }

    /**
     * Like Boot's H2 console, Spring Security on the class path turns nothing on: it says nothing of whether the
     * application's chains cover the console's path (a chain over /api/** only, or permitAll).
     */
    @Test
    void withSpringSecurityTheConsoleIsOffUnlessEnabled() {
        bareRunner("off-security").run(ctx -> {
            assertThat(ctx).hasNotFailed().hasSingleBean(SlotPoolDataSource.class)
                    .doesNotHaveBean(SlotPoolConsoleController.class).doesNotHaveBean(ConsolePools.class);
            MockMvc mvc = mvc(ctx);
            for (String read : new String[] {"/slotpool", "/slotpool/snapshot", "/slotpool/stream", "/slotpool/history",
                    "/slotpool/events"}) {
                mvc.perform(get(read)).andExpect(status().isNotFound());
            }
        });
    }

    /**
     * The cross-site attack (docs/console.md, "Security model"): a page of another site posts to the console of an app without Spring Security whose
     * actions are on. Every action needs the token the console's page gave this browser, whatever the body.
     */
    @Test
    void aCrossSitePostIsRefusedWithoutSpringSecurity() {
        runner("cross-site").withClassLoader(NO_SECURITY).withPropertyValues(ACTIONS_ON).run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            MockMvc mvc = mvc(ctx);
            mvc.perform(post("/slotpool/origins/east/down").header("Origin", "http://evil.example")
                            .header("Sec-Fetch-Site", "cross-site"))
                    .andExpect(status().isForbidden())
                    .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString("cross-site request")));
            // Without the browser's marker: a form body, or none, and no token.
            mvc.perform(form("/slotpool/origins/east/down")).andExpect(status().isForbidden())
                    .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString("no console token")));
            mvc.perform(form("/slotpool/origins/east/drain").param("timeout", "1s")).andExpect(status().isForbidden());
            mvc.perform(form("/slotpool/actions/rebalance").param("weights", "east=1,west=1,north=98"))
                    .andExpect(status().isForbidden());
            mvc.perform(post("/slotpool/origins/east/up")).andExpect(status().isForbidden());
            mvc.perform(form("/slotpool/origins/east/switchover").param("to", "west")).andExpect(status().isForbidden())
                    .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString("no console token")));
            mvc.perform(form("/slotpool/origins/east/switchover").param("to", "west").header("Sec-Fetch-Site",
                    "cross-site")).andExpect(status().isForbidden());
            // A token without its browser's cookie (another user's), or a made-up one.
            RequestPostProcessor token = consoleToken(mvc);
            MockHttpServletRequest carrier = token.postProcessRequest(new MockHttpServletRequest());
            mvc.perform(form("/slotpool/origins/east/down").header(ConsoleToken.HEADER,
                    carrier.getHeader(ConsoleToken.HEADER))).andExpect(status().isForbidden());
            mvc.perform(form("/slotpool/origins/east/down").cookie(carrier.getCookies())
                    .header(ConsoleToken.HEADER, forged(carrier.getHeader(ConsoleToken.HEADER))))
                    .andExpect(status().isForbidden())
                    .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString("not this browser's")));
            assertThat(states(pool)).isEqualTo(Map.of("east", "UP", "west", "UP", "north", "UP"));
            assertThat(weights(pool)).isEqualTo(CONFIGURED_WEIGHTS);
            // The page's own request.
            mvc.perform(form("/slotpool/origins/east/down").with(token).header("Sec-Fetch-Site", "same-origin"))
                    .andExpect(status().isOk());
            assertThat(states(pool)).containsEntry("east", "DOWN");
        });
    }

    /** The console obeys the pool endpoint's access: read-only there is read-only here, even with actions on. */
    @Test
    void aReadOnlyEndpointMeansAReadOnlyConsole() {
        for (String[] readOnly : new String[][] {{"management.endpoint.pool.access=read-only"},
                {"management.endpoints.access.max-permitted=read-only"},
                {"management.endpoint.pool.access=", "management.endpoints.access.default=read-only"}}) {
            runner("endpoint-ro").withPropertyValues(ACTIONS_ON).withPropertyValues(readOnly).run(ctx -> {
                SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
                MockMvc mvc = mvc(ctx);
                assertThat(mvc.perform(get("/slotpool")).andReturn().getResponse().getContentAsString())
                        .as("%s", (Object) readOnly).doesNotContain("<form class=\"action").contains("Read-only");
                for (String action : new String[] {"/slotpool/origins/east/drain", "/slotpool/origins/east/down",
                        "/slotpool/origins/east/up", "/slotpool/origins/east/switchover", "/slotpool/actions/rebalance"}) {
                    mvc.perform(form(action).with(consoleToken(mvc))).andExpect(status().isForbidden())
                            .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString(
                                    "the pool endpoint's access is read-only")));
                }
                assertThat(states(pool)).containsEntry("east", "UP");
                assertHolderHidden(mvc, pool);
            });
        }
    }

    /** Without Actuator there is no pool endpoint and no access to obey: the console's own switch decides. */
    @Test
    void withoutActuatorTheConsolesSwitchDecides() {
        runner("no-actuator").withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
                .withPropertyValues("management.endpoint.pool.access=read-only", ACTIONS_ON).run(ctx -> {
                    MockMvc mvc = mvc(ctx);
                    mvc.perform(form("/slotpool/origins/east/down").with(consoleToken(mvc))).andExpect(status().isOk());
                    assertThat(states(ctx.getBean(SlotPoolDataSource.class))).containsEntry("east", "DOWN");
                });
    }

    /** One client (here one address, nobody logged in) holds at most 4 streams; the others still get theirs. */
    @Test
    void oneReaderCannotTakeEveryStream() {
        runner("streams-per-client").run(ctx -> {
            MockMvc mvc = mvc(ctx);
            int refused = 0;
            for (int i = 0; i < ConsoleStreams.DEFAULT_MAX_STREAMS; i++) {
                int status = mvc.perform(get("/slotpool/stream").with(address("10.0.0.66"))).andReturn().getResponse()
                        .getStatus();
                if (status == 429) {
                    refused++;
                }
            }
            assertThat(refused).as("the greedy reader's streams refused")
                    .isEqualTo(ConsoleStreams.DEFAULT_MAX_STREAMS - ConsoleStreams.DEFAULT_MAX_STREAMS_PER_CLIENT);
            mvc.perform(get("/slotpool/stream").with(address("10.0.0.77"))).andExpect(request().asyncStarted());
            mvc.perform(get("/slotpool/stream").with(address("10.0.0.66"))).andExpect(status().isTooManyRequests())
                    .andExpect(header().string("Retry-After", "5"));
        });
    }

    private static RequestPostProcessor address(String remote) {
        return request -> {
            request.setRemoteAddr(remote);
            return request;
        };
    }

    @Test
    void withoutSpringSecurityAnEnabledConsoleIsReadOnlyAndHidesHolders() {
        runner("read-only").withClassLoader(NO_SECURITY).withPropertyValues("slotpool.console.enabled=true").run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            MockMvc mvc = mvc(ctx);
            String html = mvc.perform(get("/slotpool")).andExpect(status().isOk()).andReturn().getResponse()
                    .getContentAsString();
            assertThat(html).doesNotContain("<form class=\"action").doesNotContain("/drain")
                    .contains("Read-only: you may not act", "data-actions=\"false\"");
            for (String action : new String[] {"/slotpool/origins/east/drain", "/slotpool/origins/east/down",
                    "/slotpool/origins/east/up", "/slotpool/origins/east/switchover", "/slotpool/actions/rebalance"}) {
                mvc.perform(form(action).with(consoleToken(mvc))).andExpect(status().isForbidden())
                        .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString(
                                "slotpool.console.actions-enabled=true")));
            }
            assertThat(states(pool)).containsEntry("east", "UP");
            assertHolderHidden(mvc, pool);
        });
    }

    @Test
    void withSpringSecurityAndNoOperatorRoleNobodyActs() {
        runner("no-roles").run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            MockMvc mvc = mvc(ctx);
            assertThat(mvc.perform(get("/slotpool")).andReturn().getResponse().getContentAsString())
                    .doesNotContain("action=\"/slotpool/origins/east/down\"");
            for (String action : new String[] {"/slotpool/origins/east/drain", "/slotpool/origins/east/down",
                    "/slotpool/origins/east/up", "/slotpool/origins/east/switchover", "/slotpool/actions/rebalance"}) {
                mvc.perform(form(action)).andExpect(status().isForbidden())
                        .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString(
                                "slotpool.operator-roles")));
            }
            assertThat(states(pool)).containsEntry("east", "UP");
            assertHolderHidden(mvc, pool);
        });
    }

    /**
     * {@code actions-enabled=true} lets a reader act, not see holders: only an operator sees one, as at the endpoint
     * (the one holder rule, {@code PoolAccessPolicy.maySeeHolders}; the operator's case is
     * {@code ConsoleSecurityTest.viewersReadAdminsActWithACsrfToken}).
     */
    @Test
    void whoMayActWithoutAnOperatorRoleSeesNoHolder() {
        runner("holder").withPropertyValues(ACTIONS_ON).run(ctx -> {
            MockMvc mvc = mvc(ctx);
            mvc.perform(form("/slotpool/origins/east/down").with(consoleToken(mvc))).andExpect(status().isOk());
            assertHolderHidden(mvc, ctx.getBean(SlotPoolDataSource.class));
        });
    }

    /** A borrowed slot's detail and the snapshot name no holder thread and no borrow stack. */
    private static void assertHolderHidden(MockMvc mvc, SlotPoolDataSource pool) throws Exception {
        try (Connection held = pool.getConnection()) {
            mvc.perform(get(heldSlot(pool)))
                    .andExpect(status().isOk()).andExpect(jsonPath("$.state").value("BORROWED"))
                    .andExpect(jsonPath("$.holder").doesNotExist());
            assertThat(mvc.perform(get("/slotpool/snapshot")).andReturn().getResponse().getContentAsString())
                    .doesNotContain(Thread.currentThread().getName());
        }
    }

    /** {@code /slotpool/origins/{origin}/slots/{index}} of the test thread's borrowed connection. */
    private static String heldSlot(SlotPoolDataSource pool) {
        for (dev.slotpool.OriginSnapshot o : pool.snapshot().origins()) {
            for (dev.slotpool.SlotSnapshot x : o.slots()) {
                if (Thread.currentThread().getName().equals(x.holderThread())) {
                    return "/slotpool/origins/" + o.name() + "/slots/" + x.index();
                }
            }
        }
        throw new AssertionError("no slot held by " + Thread.currentThread().getName() + ": " + pool.snapshot().summary());
    }

    @Test
    void actionsEnabledTrueTurnsActionsOnWithoutSpringSecurity() {
        runner("actions-on").withClassLoader(NO_SECURITY)
                .withPropertyValues("slotpool.console.enabled=true", ACTIONS_ON).run(ctx -> {
                    MockMvc mvc = mvc(ctx);
                    assertThat(mvc.perform(get("/slotpool")).andReturn().getResponse().getContentAsString())
                            .contains("action=\"/slotpool/origins/east/down\"");
                    mvc.perform(form("/slotpool/origins/east/down").with(consoleToken(mvc))).andExpect(status().isOk());
                    assertThat(states(ctx.getBean(SlotPoolDataSource.class))).containsEntry("east", "DOWN");
                });
    }

    @Test
    void actionsEnabledFalseTurnsActionsOffEvenWithSpringSecurity() {
        runner("actions-off").withPropertyValues("slotpool.console.actions-enabled=false").run(ctx -> {
            MockMvc mvc = mvc(ctx);
            mvc.perform(form("/slotpool/origins/east/down").with(consoleToken(mvc))).andExpect(status().isForbidden());
            mvc.perform(form("/slotpool/origins/east/switchover").param("to", "west").with(consoleToken(mvc)))
                    .andExpect(status().isForbidden());
            assertThat(states(ctx.getBean(SlotPoolDataSource.class))).containsEntry("east", "UP");
        });
    }

    @Test
    void aDisabledConsoleIsNotThere() {
        runner("disabled").withPropertyValues("slotpool.console.enabled=false").run(ctx -> {
            assertThat(ctx).hasSingleBean(SlotPoolDataSource.class).doesNotHaveBean(SlotPoolConsoleController.class)
                    .doesNotHaveBean(ConsolePools.class);
            mvc(ctx).perform(get("/slotpool")).andExpect(status().isNotFound());
        });
    }

    @Test
    void aCustomPathMovesEverything() {
        runner("path").withPropertyValues("slotpool.console.path=/ops/pool", ACTIONS_ON).run(ctx -> {
            MockMvc mvc = mvc(ctx);
            assertThat(mvc.perform(get("/ops/pool")).andExpect(status().isOk()).andReturn().getResponse()
                    .getContentAsString()).contains("action=\"/ops/pool/origins/east/drain\"",
                    "href=\"/ops/pool/assets/console.css\"", "data-base=\"/ops/pool\"");
            mvc.perform(get("/ops/pool/snapshot")).andExpect(status().isOk());
            mvc.perform(get("/ops/pool/assets/console.js")).andExpect(status().isOk())
                    .andExpect(content().string(org.hamcrest.Matchers.containsString("new EventSource(")));
            mvc.perform(get("/slotpool")).andExpect(status().isNotFound());
        });
    }

    @Test
    void aPathWithATrailingSlashFailsStartup() {
        runner("bad-path").withPropertyValues("slotpool.console.path=/ops/").run(ctx ->
                assertThat(ctx).getFailure().rootCause().hasMessageContaining("slotpool.console.path must start with '/'"));
    }

    @Test
    void theApplicationsTemplatesAreNotShadowed() {
        runner("shadow").withUserConfiguration(AppController.class).run(ctx -> {
            MockMvc mvc = mvc(ctx);
            mvc.perform(get("/app")).andExpect(status().isOk())
                    .andExpect(content().string(org.hamcrest.Matchers.containsString("the app template named console")));
            mvc.perform(get("/slotpool")).andExpect(status().isOk())
                    .andExpect(content().string(org.hamcrest.Matchers.containsString("slotpool console</small>")));
        });
    }

    /** An application controller whose view is called {@code console}, like the console's template file. */
    @Controller
    static class AppController {

        @GetMapping("/app")
        String app() {
            return "console";
        }
    }
}
