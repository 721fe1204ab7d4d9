package dev.slotpool.console;

import dev.slotpool.LimitSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.console.ConsoleViews.HistoryPoint;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import java.util.List;
import java.util.concurrent.Callable;

import static dev.slotpool.console.ConsoleTestSupport.PATIENCE;
import static dev.slotpool.console.ConsoleTestSupport.awaitWarm;
import static dev.slotpool.console.ConsoleTestSupport.consoleToken;
import static dev.slotpool.console.ConsoleTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The adaptive limit in the console (docs/console.md, The adaptive limit): each origin's limit block and the limit
 * chart under {@code sizing=adaptive}, neither under fixed sizing, the limit in the page data and the history, and
 * the pin and release actions with the console's guard.
 */
class ConsoleLimitTest {

    private static final String ADAPTIVE = "slotpool.sizing=adaptive";
    private static final String ACTIONS_ON = "slotpool.console.actions-enabled=true";

    private static MockHttpServletRequestBuilder form(String path) {
        return post(path).contentType(MediaType.APPLICATION_FORM_URLENCODED);
    }

    private static MockMvc mvc(AssertableWebApplicationContext ctx) {
        assertThat(ctx).hasNotFailed();
        return MockMvcBuilders.webAppContextSetup(ctx).build();
    }

    private static LimitSnapshot limitOf(SlotPoolDataSource pool, String origin) {
        return pool.limits().stream().filter(l -> l.origin().equals(origin)).findFirst().orElseThrow();
    }

    @Test
    void anAdaptivePoolsPageShowsEachOriginsLimitAndTheLimitChart() {
        runner("limit-page").withPropertyValues(ADAPTIVE).run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            awaitWarm(pool);
            String html = mvc(ctx).perform(get("/slotpool")).andExpect(status().isOk()).andReturn().getResponse()
                    .getContentAsString();
            for (String origin : new String[] {"east", "west", "north"}) {
                LimitSnapshot l = limitOf(pool, origin);
                String block = between(html, "aria-label=\"limit of " + origin + "\"", "</dl>");
                assertThat(block).as(origin + "'s limit block")
                        .containsPattern("<dd data-l=\"limit\">\\d+</dd>")
                        .contains("<span data-l=\"floor\">" + l.floor() + "</span> – <span data-l=\"ceiling\">"
                                + l.ceiling() + "</span>")
                        .containsPattern("<span data-o=\"sizes.borrowed\">\\d+</span> / <span data-l=\"heldBack\">\\d+</span>")
                        .contains("<dd data-l=\"pinned\">no</dd>")
                        .containsPattern("<dd data-l=\"reason\">[^<]+</dd>");
            }
            assertThat(html).contains("<figure class=\"panel\" data-panel=\"limit\">", "<b data-latest=\"limit\">",
                    "<b data-latest=\"heldBack\">");
            // Nobody may act here (no operator role): the block shows, its buttons do not.
            assertThat(html).doesNotContain("/origins/east/limit");
        });
    }

    @Test
    void aFixedPoolsPageHasNoLimitBlockNorChart() {
        runner("limit-fixed").withPropertyValues(ACTIONS_ON).run(ctx -> {
            awaitWarm(ctx.getBean(SlotPoolDataSource.class));
            MockMvc mvc = mvc(ctx);
            String html = mvc.perform(get("/slotpool")).andExpect(status().isOk()).andReturn().getResponse()
                    .getContentAsString();
            assertThat(html).contains("data-panel=\"connections\"", "/origins/east/drain")
                    .doesNotContain("class=\"limit\"", "data-l=", "data-panel=\"limit\"", "/origins/east/limit");
            mvc.perform(get("/slotpool/snapshot")).andExpect(jsonPath("$.pool.limits").isEmpty());
            MvcResult r = mvc.perform(form("/slotpool/origins/east/limit").with(consoleToken(mvc)).param("limit", "2"))
                    .andExpect(status().isBadRequest()).andReturn();
            assertThat(r.getResponse().getContentAsString()).contains("has sizing FIXED: no limit to pin");
        });
    }

    @Test
    void theLimitIsInThePageDataAndTheHistory() {
        runner("limit-data").withPropertyValues(ADAPTIVE).run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            awaitWarm(pool);
            LimitSnapshot east = limitOf(pool, "east");
            MockMvc mvc = mvc(ctx);
            mvc.perform(get("/slotpool/snapshot"))
                    .andExpect(jsonPath("$.pool.limits[*].origin").value(
                            org.hamcrest.Matchers.contains("east", "west", "north")))
                    .andExpect(jsonPath("$.pool.limits[0].floor").value(east.floor()))
                    .andExpect(jsonPath("$.pool.limits[0].ceiling").value(east.ceiling()))
                    .andExpect(jsonPath("$.pool.limits[0].heldBack").isNumber())
                    .andExpect(jsonPath("$.pool.limits[0].reason").isString());
            ConsoleHistory history = ctx.getBean(ConsolePools.class).get(null).orElseThrow().history();
            HistoryPoint p = await("a point sampled", () -> {
                List<HistoryPoint> points = history.history().points();
                return points.isEmpty() ? null : points.get(points.size() - 1);
            });
            int sum = 0;
            for (String origin : new String[] {"east", "west", "north"}) {
                Integer limit = p.origins().get(origin).limit();
                assertThat(limit).as(origin + "'s limit").isNotNull()
                        .isBetween(limitOf(pool, origin).floor(), limitOf(pool, origin).ceiling());
                assertThat(p.origins().get(origin).heldBack()).isNotNull().isNotNegative();
                sum += limit;
            }
            assertThat(p.pool().limit()).as("the pool's limit: its origins' summed").isEqualTo(sum);
            mvc.perform(get("/slotpool/history")).andExpect(jsonPath("$.points[0].origins.east.limit").isNumber())
                    .andExpect(jsonPath("$.points[0].pool.heldBack").isNumber());
        });
    }

    @Test
    void anOperatorPinsAndReleasesALimit() {
        runner("limit-pin").withPropertyValues(ADAPTIVE, ACTIONS_ON).run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            awaitWarm(pool);
            MockMvc mvc = mvc(ctx);
            String html = mvc.perform(get("/slotpool")).andReturn().getResponse().getContentAsString();
            assertThat(html).contains("action=\"/slotpool/origins/east/limit\"", "<input type=\"hidden\" name=\"limit\" value=\"adaptive\">");
            LimitSnapshot east = limitOf(pool, "east");
            int at = east.floor();

            mvc.perform(form("/slotpool/origins/east/limit").with(consoleToken(mvc)).param("limit", String.valueOf(at)))
                    .andExpect(status().isOk()).andExpect(jsonPath("$.action").value("limit"))
                    .andExpect(jsonPath("$.origin").value("east"))
                    .andExpect(jsonPath("$.outcome").value("limit pinned at " + at));
            assertThat(limitOf(pool, "east").pinned()).isEqualTo(at);
            await("the pinned limit applied", () -> limitOf(pool, "east").limit() == at ? true : null);
            String pinned = mvc.perform(get("/slotpool")).andReturn().getResponse().getContentAsString();
            assertThat(between(pinned, "aria-label=\"limit of east\"", "</dl>"))
                    .contains("<dd data-l=\"limit\">" + at + "</dd>", "<dd data-l=\"pinned\">at " + at + "</dd>");

            mvc.perform(form("/slotpool/origins/east/limit").with(consoleToken(mvc)).param("limit", "fixed"))
                    .andExpect(status().isOk()).andExpect(jsonPath("$.outcome").value("limit pinned at " + east.ceiling()));
            assertThat(limitOf(pool, "east").pinned()).as("fixed: the ceiling").isEqualTo(east.ceiling());

            mvc.perform(form("/slotpool/origins/east/limit").with(consoleToken(mvc)).param("limit", "adaptive"))
                    .andExpect(status().isOk()).andExpect(jsonPath("$.outcome").value("limit handed back to the controller"));
            assertThat(limitOf(pool, "east").pinned()).as("released").isZero();

            // Bad input: 400 with the reason, nothing pinned.
            String[][] refused = {
                    {"east", "lots", "bad limit 'lots': a whole number from 1 to 100000, fixed or adaptive"},
                    {"east", "", "the limit action needs 'limit': a number, fixed or adaptive"},
                    {"east", String.valueOf(east.ceiling() + 1), "limit " + (east.ceiling() + 1)
                            + " for origin 'east' must be between " + east.floor() + " and " + east.ceiling()},
                    {"south", "2", "no configured origin named 'south'"}};
            for (String[] c : refused) {
                MvcResult r = mvc.perform(form("/slotpool/origins/" + c[0] + "/limit").with(consoleToken(mvc))
                        .param("limit", c[1])).andExpect(status().isBadRequest()).andReturn();
                assertThat(r.getResponse().getContentAsString()).as("%s limit=%s", c[0], c[1]).contains(c[2]);
                assertThat(pool.limits()).allSatisfy(l -> assertThat(l.pinned()).isZero());
            }
            // Without the page's token (another site's form): 403, nothing pinned.
            mvc.perform(form("/slotpool/origins/east/limit").param("limit", String.valueOf(at)))
                    .andExpect(status().isForbidden());
            assertThat(limitOf(pool, "east").pinned()).isZero();
        });
    }

    /** The text of {@code html} from {@code from} to the next {@code to}. */
    private static String between(String html, String from, String to) {
        int start = html.indexOf(from);
        assertThat(start).as("'%s' in the page", from).isNotNegative();
        int end = html.indexOf(to, start);
        assertThat(end).as("'%s' after '%s'", to, from).isPositive();
        return html.substring(start, end);
    }

    /** Polls until {@code value} is not null, failing at the deadline. */
    private static <T> T await(String what, Callable<T> value) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        T v = value.call();
        while (v == null) {
            if (System.nanoTime() > deadline) {
                fail("never: " + what);
            }
            Thread.sleep(20);
            v = value.call();
        }
        return v;
    }
}
