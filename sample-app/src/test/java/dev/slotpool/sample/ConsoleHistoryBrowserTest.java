package dev.slotpool.sample;

import dev.slotpool.sample.load.LoadGenerator;
import dev.slotpool.sample.load.LoadSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's chart opens on the server's history (docs/console.md, Chart and history) and its event log filters
 * and downloads, in a real browser ({@link Chromium}) against the whole sample app. The load generator runs
 * before any page is open, until the console's history holds {@value #MIN_POINTS} seconds with borrows; a viewer
 * then opens the console and the chart shows those seconds at once: drawn from {@code {path}/history}, not from the
 * stream events since the page opened. A screenshot goes to {@code target/screenshots/}.
 *
 * <p>Every wait is a condition with {@link SampleApp#PATIENCE}; none is a fixed sleep. Same database password and
 * context handling as {@link ConsoleBrowserTest}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sample.load.enabled=false",
        "spring.datasource.password=" + SampleApp.DB_PASSWORD})
@DirtiesContext
@ExtendWith(Chromium.Present.class)
class ConsoleHistoryBrowserTest {

    /** Seconds of history with borrows the app collects before the page opens. */
    private static final int MIN_POINTS = 10;

    private static final Pattern POOL_RATE = Pattern.compile("\"pool\":\\{\"borrowRate\":([0-9.]+)");

    @RegisterExtension
    static final Chromium.Session browser = new Chromium.Session("ConsoleHistoryBrowserTest");

    @LocalServerPort
    private int port;

    @Autowired
    private LoadGenerator load;

    @AfterEach
    void stopTheLoad() {
        load.stopWorkers();
    }

    @Test
    void aViewerOpensTheConsoleOnTheLastMinutesAndFiltersAndDownloadsTheEventLog() throws Exception {
        String base = "http://localhost:" + port;
        WebDriverWait wait = new WebDriverWait(browser.driver(), SampleApp.PATIENCE, Duration.ofMillis(100));
        wait.ignoring(StaleElementReferenceException.class);

        // 1. Traffic with no page open, until the server's history holds MIN_POINTS seconds with borrows.
        load.apply(new LoadSettings(4, Duration.ofMillis(20)));
        Http.Session viewer = new Http(port).login(Http.User.VIEWER);
        wait.until(d -> secondsWithBorrows(viewer.get("/slotpool/history").body()) >= MIN_POINTS);

        // 2. The viewer logs in (not through the console, which would open it) and then opens the console: the
        //    chart draws the history at once, then goes on with the stream.
        browser.driver().get(base + "/login");
        browser.driver().findElement(By.name("username")).sendKeys("viewer");
        browser.driver().findElement(By.name("password")).sendKeys("viewer-demo");
        browser.driver().findElement(By.cssSelector("form button[type=submit]")).click();
        wait.until(d -> !d.getCurrentUrl().startsWith(base + "/login"));
        browser.driver().get(base + "/slotpool");
        wait.until(d -> chartAttribute("data-history") >= MIN_POINTS);
        assertThat(chartAttribute("data-points")).as("points drawn").isGreaterThanOrEqualTo(MIN_POINTS);
        assertThat(drawn("rate", "borrowRate")).as("borrows/s points").isGreaterThanOrEqualTo(MIN_POINTS);
        assertThat(panelMax("rate")).as("the borrows/s axis rises above one a second").isGreaterThan(1.0);
        assertThat(drawn("connections", "borrowed")).isGreaterThanOrEqualTo(MIN_POINTS);
        assertThat(browser.driver().findElement(By.id("chart-title")).getText()).isEqualTo("Last 15 minutes");
        // Each unit its own panel with both axes; the time axis spans the seconds present (not a 15-minute frame
        // with the data against its right edge) and its labels are clock times in the browser's zone and locale.
        for (String panel : List.of("connections", "rate", "wait", "waiting")) {
            Map<?, ?> svg = panel(panel);
            assertThat(svg.get("xAxes")).as(panel + " x axis").isEqualTo(1L);
            assertThat(svg.get("yAxes")).as(panel + " y axis").isEqualTo(1L);
            assertThat((List<?>) svg.get("times")).as(panel + " time labels").hasSizeGreaterThanOrEqualTo(2)
                    .allMatch(t -> String.valueOf(t).matches("\\d{1,2}:\\d\\d(:\\d\\d)?( ?[AP]M)?"));
            assertThat((List<?>) svg.get("values")).as(panel + " value labels").hasSizeGreaterThanOrEqualTo(2)
                    .allMatch(v -> String.valueOf(v).matches("\\d+(\\.\\d)?"));
        }
        // The sample app sizes its pool fixed: no limit block on a card, no limit chart.
        assertThat(browser.driver().findElements(By.cssSelector("#chart [data-panel='limit'], article.origin .limit")))
                .as("limit blocks and chart under fixed sizing").isEmpty();
        int span = chartAttribute("data-span-seconds");
        assertThat(span).as("seconds the time axis spans").isBetween(MIN_POINTS - 1, 600);
        assertThat(browser.driver().findElement(By.cssSelector("[data-panel='connections'] figcaption")).getText())
                .startsWith("connections");
        assertNoHorizontalOverflow(1400);
        // A viewer may not open a slot's detail (the chain refuses it), so the cells are not buttons to click.
        assertThat(browser.driver().findElements(By.cssSelector("ul.slots button.slot"))).as("slot buttons").isEmpty();
        assertThat(browser.driver().findElements(By.cssSelector("ul.slots span.slot[data-borrows]"))).isNotEmpty();
        // The whole page at 1,400 px, as docs/img/console.png shows it.
        org.openqa.selenium.Dimension window = browser.driver().manage().window().getSize();
        int page = ((Number) browser.driver().executeScript("return document.documentElement.scrollHeight;")).intValue();
        browser.driver().manage().window().setSize(new org.openqa.selenium.Dimension(window.width, window.height + page - 1000));
        browser.screenshot("history-0-whole-page");
        browser.driver().manage().window().setSize(window);
        wait.until(ExpectedConditions.textToBe(By.id("stream-state"), "live"));
        int opened = chartAttribute("data-points");
        wait.until(d -> chartAttribute("data-points") > opened); // live points join the history
        browser.screenshot("history-1-chart-on-open");

        // 3. The chart of one origin: its borrows/s; waiting is the pool's only, so its panel goes.
        new Select(browser.driver().findElement(By.id("chart-of"))).selectByValue("east");
        wait.until(d -> !browser.driver().findElement(By.cssSelector("[data-panel='waiting']")).isDisplayed()
                && drawn("rate", "borrowRate") >= MIN_POINTS);

        // 4. The event log filtered in the page: only east's CREATED events; the download link has the filters.
        WebElement filters = browser.driver().findElement(By.id("event-filters"));
        new Select(filters.findElement(By.name("origin"))).selectByValue("east");
        new Select(filters.findElement(By.name("type"))).selectByValue("CREATED");
        wait.until(d -> {
            List<String> rows = eventRows();
            return !rows.isEmpty() && rows.stream().allMatch(r -> r.contains(" CREATED ") && r.contains(" east"));
        });
        String href = browser.driver().findElement(By.id("events-download")).getAttribute("href");
        assertThat(href).isEqualTo(base + "/slotpool/events?origin=east&type=CREATED");
        assertThat(browser.driver().findElement(By.id("events-download")).getAttribute("download")).isNotNull();
        browser.screenshot("history-2-filtered-log");

        // 5. What the link downloads: JSON of the same events, filters stated.
        String json = (String) browser.driver().executeAsyncScript("var done = arguments[arguments.length - 1];"
                + "fetch(arguments[0], {credentials: 'same-origin'}).then(function (r) { return r.text(); })"
                + ".then(done, function (e) { done('failed: ' + e); });", href);
        assertThat(json).startsWith("{\"pool\":").contains("\"origins\":[\"east\"]", "\"types\":[\"CREATED\"]",
                "\"type\":\"CREATED\"").doesNotContain("\"type\":\"CLOSED\"").doesNotContain("\"origin\":\"west\"");
        // 6. Event times are clock times with milliseconds in the browser's zone and locale (12 or 24 h), the instant kept in datetime.
        WebElement time = browser.driver().findElement(By.cssSelector("#events li time"));
        assertThat(time.getText()).matches("\\d{1,2}:\\d\\d:\\d\\d[.,]\\d{3}( ?[AP]M)?");
        assertThat(time.getAttribute("datetime")).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");

        // 7. At a narrow laptop's width the panels stack and nothing overflows; the screenshot shows them.
        browser.driver().manage().window().setSize(new org.openqa.selenium.Dimension(800, 1000));
        new Select(browser.driver().findElement(By.id("chart-of"))).selectByValue("");
        wait.until(d -> ((Number) browser.driver().executeScript("return window.innerWidth;")).intValue() <= 800);
        assertNoHorizontalOverflow(800);
        browser.driver().findElement(By.id("chart-title")).click();
        browser.screenshot("history-3-chart-at-800px");
        assertThat(load.status().failed()).as("failed transactions; last: %s", load.status().lastFailure()).isZero();
    }

    /** Nothing on the page is wider than the window, nor any chart's labels than its panel. */
    private static void assertNoHorizontalOverflow(int width) {
        Number overflow = (Number) browser.driver().executeScript(
                "return document.documentElement.scrollWidth - window.innerWidth;");
        assertThat(overflow.intValue()).as("horizontal overflow at %d px", width).isLessThanOrEqualTo(0);
        Number outside = (Number) browser.driver().executeScript(
                "var n = 0; document.querySelectorAll('#chart svg').forEach(function (svg) {"
                + " var box = svg.getBoundingClientRect();"
                + " svg.querySelectorAll('text').forEach(function (t) { var r = t.getBoundingClientRect();"
                + "  if (r.left < box.left - 1 || r.right > box.right + 1) { n++; } }); }); return n;");
        assertThat(outside.intValue()).as("chart labels outside their panel at %d px", width).isZero();
    }

    /** Points of the history whose pool borrowed at least once a second. */
    private static int secondsWithBorrows(String history) {
        Matcher m = POOL_RATE.matcher(history);
        int n = 0;
        while (m.find()) {
            if (Double.parseDouble(m.group(1)) > 0) {
                n++;
            }
        }
        return n;
    }

    private static int chartAttribute(String name) {
        return Integer.parseInt(browser.driver().findElement(By.id("chart")).getAttribute(name));
    }

    /**
     * A panel as drawn now, read in one script (the page redraws its chart every second, so elements found in
     * one command may be gone in the next): its axes, time and value labels, the top of its value axis and the
     * points each line draws.
     */
    private static Map<?, ?> panel(String panel) {
        return (Map<?, ?>) browser.driver().executeScript("var svg = document.querySelector("
                + "'#chart [data-panel=\"' + arguments[0] + '\"] svg'); var drawn = {};"
                + "svg.querySelectorAll('path[data-series]').forEach(function (p) {"
                + " drawn[p.getAttribute('data-series')] = Number(p.getAttribute('data-drawn')); });"
                + "function texts(sel) { return Array.from(svg.querySelectorAll(sel), function (t) { return t.textContent; }); }"
                + "return { xAxes: svg.querySelectorAll('.x-axis').length, yAxes: svg.querySelectorAll('.y-axis').length,"
                + " times: texts('.x-tick'), values: texts('.y-tick'), max: Number(svg.getAttribute('data-max')), drawn: drawn };",
                panel);
    }

    /** How many points a panel's line for one value draws. */
    private static int drawn(String panel, String series) {
        return ((Number) ((Map<?, ?>) panel(panel).get("drawn")).get(series)).intValue();
    }

    /** The top of a panel's value axis. */
    private static double panelMax(String panel) {
        return ((Number) panel(panel).get("max")).doubleValue();
    }

    private static List<String> eventRows() {
        return browser.driver().findElements(By.cssSelector("#events li")).stream().map(WebElement::getText).toList();
    }
}
