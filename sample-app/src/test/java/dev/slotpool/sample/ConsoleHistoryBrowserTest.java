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
        assertThat(linePoints("rate")).as("borrows/s points").hasSizeGreaterThanOrEqualTo(MIN_POINTS);
        assertThat(linePoints("rate")).as("a second with borrows is above the baseline").anyMatch(y -> y < 135);
        assertThat(linePoints("borrowed")).hasSizeGreaterThanOrEqualTo(MIN_POINTS);
        assertThat(browser.driver().findElement(By.id("chart-title")).getText()).isEqualTo("Last 15 minutes");
        wait.until(ExpectedConditions.textToBe(By.id("stream-state"), "live"));
        int opened = chartAttribute("data-points");
        wait.until(d -> chartAttribute("data-points") > opened); // live points join the history
        browser.screenshot("history-1-chart-on-open");

        // 3. The chart of one origin: its borrows/s; waiting is the pool's only.
        new Select(browser.driver().findElement(By.id("chart-of"))).selectByValue("east");
        wait.until(d -> linePoints("waiting").isEmpty() && linePoints("rate").size() >= MIN_POINTS);

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
        assertThat(load.status().failed()).as("failed transactions; last: %s", load.status().lastFailure()).isZero();
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

    /** The y of each point of a chart line (135 is zero, 5 the line's maximum). */
    private static List<Double> linePoints(String line) {
        String points = browser.driver().findElement(By.cssSelector("#chart .line-" + line)).getAttribute("points").trim();
        return points.isEmpty() ? List.of() : java.util.Arrays.stream(points.split(" "))
                .map(p -> Double.parseDouble(p.substring(p.indexOf(',') + 1))).toList();
    }

    private static List<String> eventRows() {
        return browser.driver().findElements(By.cssSelector("#events li")).stream().map(WebElement::getText).toList();
    }
}
