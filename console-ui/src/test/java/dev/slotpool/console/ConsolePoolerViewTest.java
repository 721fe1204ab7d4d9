package dev.slotpool.console;

import dev.slotpool.OriginSnapshot;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.slotpool.console.ConsoleTestSupport.awaitPool;
import static dev.slotpool.console.ConsoleTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The pooler's view on the console (docs/console.md, The pooler's view): an origin whose pooler console answers
 * shows its clients, servers, max wait and when it was read; one whose console does not answer shows why; one
 * without a console shows no pooler block. The consoles' URLs carry a password that neither the page nor its data
 * may show. East's console is a {@link FakePoolerConsole}; west's a loopback port nothing listens on.
 */
class ConsolePoolerViewTest {

    private static final String CONSOLE_PASSWORD = "Console-pw-5Hn1-never-shown";

    private static final Pattern ARTICLE = Pattern.compile("<article class=\"origin\" data-origin=\"(\\w+)\".*?</article>",
            Pattern.DOTALL);

    @Test
    void eachOriginWithAPoolerConsoleShowsItsViewOrWhyThereIsNone() throws Exception {
        try (FakePoolerConsole east = new FakePoolerConsole(100, 7, 10, 0, 2, 1_500_000)) {
            String westUrl = "postgresql://127.0.0.1:" + closedLoopbackPort() + "/pgbouncer?user=stats&password="
                    + CONSOLE_PASSWORD;
            runner("pooler").withPropertyValues("slotpool.origins[0].pooler-admin-url=" + east.adminUrl(CONSOLE_PASSWORD),
                    "slotpool.origins[1].pooler-admin-url=" + westUrl).run(ctx -> {
                SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
                awaitPool(pool, "both consoles read", s -> s.origin("east").map(OriginSnapshot::pooler).isPresent()
                        && s.origin("west").map(OriginSnapshot::poolerError).isPresent());
                MockMvc mvc = MockMvcBuilders.webAppContextSetup(ctx).build();

                String html = mvc.perform(get("/slotpool")).andExpect(status().isOk()).andReturn().getResponse()
                        .getContentAsString();
                assertThat(article(html, "east")).contains("<div class=\"pooler\" role=\"group\" aria-label=\"pooler view of east\">",
                        "<dl class=\"counts pooler-view\">",
                        "<span data-o=\"pooler.clientsActive\">100</span> / <span data-o=\"pooler.clientsWaiting\">7</span>",
                        "<span data-o=\"pooler.serversActive\">10</span> / <span data-o=\"pooler.serversIdle\">0</span>"
                                + " / <span data-o=\"pooler.serversUsed\">2</span>",
                        "<dd data-pooler=\"maxWait\">1.5 s</dd>", "<p class=\"pooler-error\" hidden=\"hidden\">")
                        .containsPattern("<time data-pooler=\"readAt\" datetime=\"\\d{4}-[^\"]+Z\">\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ</time>");
                assertThat(article(html, "west")).contains("aria-label=\"pooler view of west\">",
                        "<dl class=\"counts pooler-view\" hidden=\"hidden\">", "<p class=\"pooler-error\">")
                        .containsPattern("admin console not answering:\\s*<span data-o=\"poolerError\">Connection refused");
                assertThat(article(html, "north")).contains("aria-label=\"pooler view of north\" hidden=\"hidden\">");
                assertThat(html).doesNotContain(CONSOLE_PASSWORD);

                String json = mvc.perform(get("/slotpool/snapshot")).andExpect(status().isOk())
                        .andExpect(jsonPath("$.pool.origins[0].pooler.clientsActive").value(100))
                        .andExpect(jsonPath("$.pool.origins[0].pooler.clientsWaiting").value(7))
                        .andExpect(jsonPath("$.pool.origins[0].pooler.serversUsed").value(2))
                        .andExpect(jsonPath("$.pool.origins[0].pooler.maxWaitMicros").value(1_500_000))
                        .andExpect(jsonPath("$.pool.origins[0].pooler.readAt").isString())
                        .andExpect(jsonPath("$.pool.origins[0].poolerError").doesNotExist())
                        .andExpect(jsonPath("$.pool.origins[1].pooler").doesNotExist())
                        .andExpect(jsonPath("$.pool.origins[1].poolerError").value("Connection refused"))
                        .andExpect(jsonPath("$.pool.origins[2].pooler").doesNotExist())
                        .andReturn().getResponse().getContentAsString();
                assertThat(json).doesNotContain(CONSOLE_PASSWORD);
            });
        }
    }

    private static String article(String html, String origin) {
        Matcher m = ARTICLE.matcher(html);
        while (m.find()) {
            if (m.group(1).equals(origin)) {
                return m.group();
            }
        }
        throw new AssertionError("no card of " + origin + " in " + html);
    }

    /** A loopback port nothing listens on: connecting to it is refused at once. */
    private static int closedLoopbackPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
