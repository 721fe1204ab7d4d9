package dev.slotpool.sample;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a browser decides, in headless Chromium (docs/console.md, Browser test), against a plain Boot app without
 * Spring Security ({@link PlainBootApp}: actions enabled, the endpoint unrestricted): a page on a rebound DNS name
 * (Chromium resolves {@value PlainBootConsoleTest#REBOUND} to this machine, as a rebinding attacker's DNS would)
 * reads the console and its token and posts as the console's own script does, to the console and the endpoint;
 * another site's page frames the console. The same script on the console's loopback name still acts.
 */
@ExtendWith(Chromium.Present.class)
class PlainBootConsoleBrowserTest {

    @RegisterExtension
    static final Chromium.Session browser = new Chromium.Session("PlainBootConsoleBrowserTest",
            "--host-resolver-rules=MAP " + PlainBootConsoleTest.REBOUND + " 127.0.0.1");

    private static PlainBootApp app;
    private static HttpServer otherSite;

    @BeforeAll
    static void start() throws IOException {
        app = PlainBootApp.start("plain-browser");
        // Another site: 127.0.0.1 is not the console's localhost, a page of its own framing the console.
        otherSite = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        otherSite.createContext("/", exchange -> {
            byte[] page = ("<!doctype html><title>another site</title><iframe id=\"console\" width=\"1200\" "
                    + "height=\"800\" onload=\"window.framed = true\" src=\"http://localhost:" + app.port()
                    + "/slotpool\"></iframe>").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, page.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(page);
            }
        });
        otherSite.start();
    }

    @AfterAll
    static void stop() {
        if (otherSite != null) {
            otherSite.stop(0);
        }
        if (app != null) {
            app.close();
        }
    }

    /** In the open page: the console's token from its meta tag, then a POST as the console's script sends it. */
    private static final String POST_AS_THE_PAGE = """
            var done = arguments[arguments.length - 1];
            var meta = document.querySelector('meta[name=slotpool-console-token]');
            var headers = {'Content-Type': arguments[1]};
            if (meta) { headers['X-Slotpool-Console-Token'] = meta.content; }
            fetch(arguments[0], {method: 'POST', headers: headers, body: arguments[2], credentials: 'same-origin'})
                .then(r => r.text().then(t => done(r.status + ' ' + t)))
                .catch(e => done('failed ' + e));
            """;

    private static String post(String path, String contentType, String body) {
        return String.valueOf(browser.driver().executeAsyncScript(POST_AS_THE_PAGE, path, contentType, body));
    }

    private static void open(String base) {
        browser.driver().get(base + "/slotpool");
        new WebDriverWait(browser.driver(), SampleApp.PATIENCE).until(d -> d.getTitle().endsWith("slotpool console"));
    }

    @Test
    void aPageOnAReboundNameCannotActButTheConsolesOwnPageCan() throws Exception {
        browser.driver().manage().timeouts().scriptTimeout(SampleApp.PATIENCE);
        open("http://" + PlainBootConsoleTest.REBOUND + ":" + app.port());
        browser.screenshot("plain-1-rebound-page");
        String drain = post("/slotpool/origins/east/drain", "application/x-www-form-urlencoded", "timeout=5s");
        assertThat(drain).as("the console's drain from the rebound page").startsWith("403 ")
                .contains(PlainBootConsoleTest.REBOUND);
        String down = post("/actuator/pool/west", "application/json", "{\"action\":\"down\"}");
        assertThat(down).as("the endpoint's down from the rebound page").startsWith("403 ");
        assertThat(app.pool().snapshot().origin("east").orElseThrow().state().name()).isEqualTo("UP");
        assertThat(app.pool().snapshot().origin("west").orElseThrow().state().name()).isEqualTo("UP");

        open("http://localhost:" + app.port());
        assertThat(post("/slotpool/origins/north/down", "application/x-www-form-urlencoded", ""))
                .as("the console's own page").startsWith("200 ");
        assertThat(post("/actuator/pool/north", "application/json", "{\"action\":\"up\"}"))
                .as("the endpoint from the console's own page").startsWith("200 ");
        assertThat(app.pool().snapshot().origin("north").orElseThrow().state().name()).isEqualTo("UP");
    }

    @Test
    void anotherSiteCannotFrameTheConsole() throws Exception {
        browser.driver().get("http://127.0.0.1:" + otherSite.getAddress().getPort() + "/");
        new WebDriverWait(browser.driver(), SampleApp.PATIENCE, Duration.ofMillis(100))
                .until(d -> Boolean.TRUE.equals(browser.driver().executeScript("return window.framed === true")));
        browser.screenshot("plain-2-framed-by-another-site");
        browser.driver().switchTo().frame("console");
        try {
            assertThat(browser.driver().findElements(By.cssSelector("[data-origin], form.action button")))
                    .as("the console's cards and buttons inside another site's frame").isEmpty();
        } finally {
            browser.driver().switchTo().defaultContent();
        }
    }
}
