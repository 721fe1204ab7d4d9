package dev.slotpool.console;

import dev.slotpool.PoolEvent;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import java.sql.Connection;
import java.time.Instant;

import static dev.slotpool.console.ConsoleTestSupport.PATIENCE;
import static dev.slotpool.console.ConsoleTestSupport.awaitWarm;
import static dev.slotpool.console.ConsoleTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.oneOf;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code GET {path}/history} and {@code GET {path}/events} through MockMvc, without security filters (who may
 * read them is {@link ConsoleSecurityTest}'s).
 */
class ConsoleHistoryEndpointsTest {

    private static final String LEAK_DETAIL = "connection held by thread 'worker-7' for 61000 ms; left with its "
            + "holder; borrowed at:\n\tat shop.Orders.place(Orders.java:42)";

    @Test
    void theHistoryHasThePoolsSecondsSampledWithoutAnyPageOpen() throws Exception {
        runner("history").run(ctx -> {
            assertThat(ctx).hasNotFailed();
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            awaitWarm(pool);
            try (Connection c = pool.getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
            ConsoleHistory history = ctx.getBean(ConsolePools.class).get(null).orElseThrow().history();
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (history.history().points().size() < 3) {
                if (System.nanoTime() > deadline) {
                    fail("fewer than 3 points within " + PATIENCE + ": " + history.history());
                }
                Thread.sleep(50);
            }
            MockMvc mvc = MockMvcBuilders.webAppContextSetup(ctx).build();
            mvc.perform(get("/slotpool/history")).andExpect(status().isOk())
                    .andExpect(jsonPath("$.intervalMillis").value(1000))
                    .andExpect(jsonPath("$.capacity").value(900))
                    .andExpect(jsonPath("$.points.length()").value(greaterThanOrEqualTo(3)))
                    .andExpect(jsonPath("$.points[-1].pool.waiting").value(0))
                    .andExpect(jsonPath("$.points[-1].pool.available").value(greaterThanOrEqualTo(1)))
                    .andExpect(jsonPath("$.points[-1].origins.east.borrowRate").isNumber())
                    .andExpect(jsonPath("$.points[-1].origins.east.waiting").doesNotExist())
                    .andExpect(jsonPath("$.points[-1].origins.north.closing").value(0));
            mvc.perform(get("/slotpool/history").param("pool", "nope")).andExpect(status().isNotFound());
        });
    }

    @Test
    void underLazyInitializationTheSamplerStillStartsWithTheContext() {
        runner("sampler-lazy").withInitializer(ctx -> ctx.addBeanFactoryPostProcessor(
                new LazyInitializationBeanFactoryPostProcessor())).run(ctx -> {
            assertThat(ctx).hasNotFailed();
            assertThat(ctx.getBeanFactory().containsSingleton("slotPoolConsoleSampler"))
                    .as("the sampler was created at startup, before any page asked for history").isTrue();
        });
    }

    @Test
    void theSamplerStopsWithTheContext() throws InterruptedException {
        ConsoleSampler[] sampler = new ConsoleSampler[1];
        runner("sampler-stops").run(ctx -> {
            assertThat(ctx).hasNotFailed().hasSingleBean(ConsoleSampler.class);
            sampler[0] = ctx.getBean(ConsoleSampler.class);
            assertThat(sampler[0].stopped()).isFalse();
        });
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!sampler[0].stopped()) {
            assertThat(System.nanoTime()).as("sampler stopped after context close").isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    @Test
    void theEventLogDownloadsFilteredByOriginAndKind() {
        runner("events").run(ctx -> {
            assertThat(ctx).hasNotFailed();
            awaitWarm(ctx.getBean(SlotPoolDataSource.class));
            ctx.getBean(ConsoleEventLog.class).onEvent(new PoolEvent(PoolEvent.Type.ORIGIN_STATE, "west", null,
                    "UP -> DOWN (marked down)", Instant.now()));
            MockMvc mvc = MockMvcBuilders.webAppContextSetup(ctx).build();
            mvc.perform(get("/slotpool/events")).andExpect(status().isOk())
                    .andExpect(header().string("Content-Disposition", containsString("attachment")))
                    .andExpect(header().string("Content-Disposition",
                            containsString("filename=\"slotpool-events-console-events.json\"")))
                    .andExpect(jsonPath("$.origins.length()").value(0))
                    .andExpect(jsonPath("$.events[?(@.type == 'CREATED')]").isNotEmpty())
                    .andExpect(jsonPath("$.events[?(@.type == 'ORIGIN_STATE')]").isNotEmpty());
            mvc.perform(get("/slotpool/events").param("origin", "east").param("type", "CREATED"))
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.origins[0]").value("east"))
                    .andExpect(jsonPath("$.types[0]").value("CREATED"))
                    .andExpect(jsonPath("$.events").isNotEmpty())
                    .andExpect(jsonPath("$.events[*].origin", everyItem(is("east"))))
                    .andExpect(jsonPath("$.events[*].type", everyItem(is("CREATED"))));
            // Repeated or comma-separated, any case for a type; blank values are values not given.
            mvc.perform(get("/slotpool/events").param("origin", "west,east").param("type", "origin_state", " "))
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.types.length()").value(1))
                    .andExpect(jsonPath("$.events.length()").value(1))
                    .andExpect(jsonPath("$.events[0].origin").value("west"));
            mvc.perform(get("/slotpool/events").param("origin", "east").param("type", "CLOSED,CREATED"))
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.events[*].type", everyItem(oneOf("CLOSED", "CREATED"))));
        });
    }

    @Test
    void aBadFilterAnswers400NamingTheProblem() {
        runner("events-bad").run(ctx -> {
            assertThat(ctx).hasNotFailed();
            MockMvc mvc = MockMvcBuilders.webAppContextSetup(ctx).build();
            mvc.perform(get("/slotpool/events").param("origin", "south")).andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.status").value(400))
                    .andExpect(jsonPath("$.message").value(containsString(
                            "unknown origin 'south' (known origins: east, west, north")));
            mvc.perform(get("/slotpool/events").param("type", "CREATED,EXPLODED")).andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.message").value("unknown type 'EXPLODED' (types: CREATED, CREATION_FAILED, "
                            + "CLOSED, TIMEOUT, LEAK, ORIGIN_STATE, REBALANCE, LIMIT)"));
            mvc.perform(get("/slotpool/events").param("type", "x".repeat(500))).andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.message").value(containsString("(500 characters)")));
            mvc.perform(get("/slotpool/events").param("pool", "nope")).andExpect(status().isNotFound())
                    .andExpect(jsonPath("$.message").value(containsString("unknown pool 'nope'")));
        });
    }

    /** A LEAK event names the holder's thread and stack: not in the console's log, whoever reads it. */
    @Test
    void aLeaksHolderIsNotInTheConsolesLog() {
        runner("events-leak").withPropertyValues("slotpool.console.actions-enabled=true").run(ctx -> {
            assertThat(ctx).hasNotFailed();
            ctx.getBean(ConsoleEventLog.class).onEvent(new PoolEvent(PoolEvent.Type.LEAK, "east", null, LEAK_DETAIL,
                    Instant.now()));
            MockMvc mvc = MockMvcBuilders.webAppContextSetup(ctx).build();
            for (String read : new String[] {"/slotpool/events", "/slotpool/snapshot", "/slotpool"}) {
                String body = mvc.perform(get(read)).andExpect(status().isOk()).andReturn().getResponse()
                        .getContentAsString();
                assertThat(body).as(read).contains("LEAK").doesNotContain("worker-7").doesNotContain("Orders.java");
            }
            mvc.perform(get("/slotpool/events").param("type", "LEAK"))
                    .andExpect(jsonPath("$.events[0].detail").value(ConsoleViews.LEAK_WITHHELD));
        });
    }

    /**
     * Event and failure texts go to every reader of the page's data, so they carry no client address or user name
     * (docs/console.md, Security model); the application's log has them whole.
     */
    @Test
    void eventTextsNameNoClientAddressOrUser() {
        runner("events-addresses").run(ctx -> {
            assertThat(ctx).hasNotFailed();
            ctx.getBean(ConsoleEventLog.class).onEvent(new PoolEvent(PoolEvent.Type.CREATION_FAILED, "east", null,
                    "origin 'east': could not connect: FATAL: no pg_hba.conf entry for host \"10.20.30.40\", user "
                            + "\"shopper\", database \"shop\"", Instant.now()));
            MockMvc mvc = MockMvcBuilders.webAppContextSetup(ctx).build();
            for (String read : new String[] {"/slotpool/events", "/slotpool/snapshot", "/slotpool"}) {
                String body = mvc.perform(get(read)).andExpect(status().isOk()).andReturn().getResponse()
                        .getContentAsString();
                assertThat(body).as(read).contains("no pg_hba.conf entry for host").doesNotContain("10.20.30.40")
                        .doesNotContain("shopper");
            }
        });
    }
}
