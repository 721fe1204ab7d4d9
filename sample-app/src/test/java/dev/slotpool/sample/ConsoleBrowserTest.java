package dev.slotpool.sample;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.sample.load.LoadGenerator;
import dev.slotpool.sample.load.LoadStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.ElementNotInteractableException;
import org.openqa.selenium.Keys;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The admin console in a real browser (docs/console.md): headless Debian Chromium driven through its chromedriver by
 * Selenium, against the whole sample app on a random port. As the admin it logs in through the login form, sees
 * the three origins and their slots, starts the load generator from its page, watches the console's counts move
 * without a reload, drains north and sees it turn DRAINING and then empty, marks it up and sees its slots come
 * back. A screenshot of each stage goes to {@code target/screenshots/}.
 *
 * <p>{@link Chromium} finds and starts the browser (skipped without Chromium, failed without chromedriver).
 *
 * <p>The drain: with the load running, north's borrowed connections come back within milliseconds and the
 * housekeeper turns the emptied origin DOWN within a second, which a page updated once a second may never show
 * as DRAINING. So the test holds one of north's connections, as a long transaction would, until the page has
 * shown DRAINING, then returns it and sees the drain complete. The drain timeout (20s) bounds how long the page
 * may take to show DRAINING before the deadline aborts the held connection; the test does not wait it out.
 *
 * <p>The databases' password is {@link SampleApp#DB_PASSWORD}, as in {@link SampleAppTestBase}: the in-memory H2
 * databases outlive this context in the test JVM, and the other tests open them with that password.
 * {@link DirtiesContext} closes the context after the class, so its connections are not counted by theirs.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sample.load.enabled=false",
        "spring.datasource.password=" + SampleApp.DB_PASSWORD})
@DirtiesContext
@ExtendWith(Chromium.Present.class)
class ConsoleBrowserTest {

    /** Deadline of every wait: generous for a loaded 2-core machine. */
    private static final Duration PATIENCE = SampleApp.PATIENCE;

    private static final String MARKER = "slotpoolConsoleBrowserTest";

    @RegisterExtension
    static final Chromium.Session browser = new Chromium.Session("ConsoleBrowserTest");

    @LocalServerPort
    private int port;

    @Autowired
    private SlotPoolDataSource pool;

    @Autowired
    private LoadGenerator load;

    @AfterEach
    void stopTheLoad() {
        load.stopWorkers();
    }

    @Test
    void anAdminWatchesThePoolAndDrainsAnOriginAndBringsItBack() throws Exception {
        String base = "http://localhost:" + port;
        WebDriverWait wait = new WebDriverWait(browser.driver(), PATIENCE, Duration.ofMillis(100));
        wait.ignoring(StaleElementReferenceException.class);

        // 1. The console asks for a login; the admin logs in through the form and lands on the console.
        browser.driver().get(base + "/slotpool");
        wait.until(ExpectedConditions.urlToBe(base + "/login"));
        browser.driver().findElement(By.name("username")).sendKeys("admin");
        browser.driver().findElement(By.name("password")).sendKeys("admin-demo");
        screenshot("1-login");
        browser.driver().findElement(By.cssSelector("form button[type=submit]")).click();
        wait.until(d -> d.getCurrentUrl().startsWith(base + "/slotpool"));
        assertThat(browser.driver().getTitle()).isEqualTo("shop · slotpool console");

        // 2. Three origin cards, UP, their slots drawn as cells; the stream goes live.
        wait.until(d -> originNames().equals(SampleApp.ORIGINS));
        for (String origin : SampleApp.ORIGINS) {
            assertThat(badge(origin)).as("badge of %s", origin).isEqualTo("UP");
        }
        wait.until(d -> slotCells("east") + slotCells("west") + slotCells("north") >= pool.config().minSize());
        waitForLiveStream(wait);

        // 3. The admin starts the load generator from its page.
        browser.driver().get(base + "/load");
        assertThat(browser.driver().findElement(By.id("state")).getText()).isEqualTo("stopped");
        replace(browser.driver().findElement(By.name("threads")), "8");
        replace(browser.driver().findElement(By.name("thinkTime")), "20ms");
        browser.driver().findElement(By.cssSelector("button[name=action][value=start]")).click();
        wait.until(ExpectedConditions.textToBe(By.id("state"), "running"));
        assertThat(browser.driver().findElement(By.cssSelector(".message")).getText())
                .isEqualTo("Running 8 threads, think time 20ms.");
        assertThat(load.status().running()).isTrue();

        // 4. Back on the console, the counts move with no reload: a marker set on the page survives every read.
        browser.driver().get(base + "/slotpool");
        waitForLiveStream(wait);
        js().executeScript("window[arguments[0]] = 'same page';", MARKER);
        Map<String, Long> before = borrowCounts();
        wait.until(d -> {
            Map<String, Long> now = borrowCounts();
            return SampleApp.ORIGINS.stream().allMatch(o -> now.get(o) > before.get(o));
        });
        wait.until(d -> Double.parseDouble(header("borrowRate")) > 0);
        for (String origin : SampleApp.ORIGINS) {
            wait.until(d -> slotCells(origin) > 0);
        }
        assertSamePage();
        assertNoHorizontalOverflow("at 1,400 px");
        // What an H2 origin has no value for is not shown; its role is unknown, so no switchover is offered.
        for (String origin : SampleApp.ORIGINS) {
            for (String field : List.of("role", "reads", "dimensions.service", "dimensions.database")) {
                assertThat(card(origin).findElement(By.cssSelector("[data-o='" + field + "']")).isDisplayed())
                        .as("%s of %s", field, origin).isFalse();
            }
            assertThat(card(origin).findElement(By.cssSelector("form.switchover")).isDisplayed())
                    .as("switchover on %s", origin).isFalse();
        }
        assertThat(browser.driver().findElement(By.cssSelector("[data-closed]")).isDisplayed()).as("CLOSED badge").isFalse();
        // Each cell shows its borrow count under its letter, as its title says: read in one script, so that the
        // stream's next update of the cell cannot come between the reads.
        WebElement cell = card("east").findElement(By.cssSelector("ul.slots button.slot"));
        @SuppressWarnings("unchecked")
        List<String> shown = (List<String>) js().executeScript("return [getComputedStyle(arguments[0], '::after')"
                + ".content, arguments[0].getAttribute('data-borrows'), arguments[0].getAttribute('title')];", cell);
        assertThat(shown.get(0)).isEqualTo("\"" + shown.get(1) + "\"");
        assertThat(shown.get(2)).contains(shown.get(1) + " borrow");
        // CREATED events name their slot; times are clock times in the browser's zone.
        assertThat(eventLog()).anyMatch(e -> e.matches("\\d{1,2}:\\d\\d:\\d\\d[.,]\\d{3}( ?[AP]M)? CREATED \\w+\\s+slot \\d+\\s*"));
        screenshot("2-console-with-load");

        // 5. Drain north (timeout 20s) with its button and the confirmation; its badge turns DRAINING, and the
        //    connection the test holds shows as borrowed and retiring (X).
        try (Connection held = holdAConnectionOf("north")) {
            WebElement drain = card("north").findElement(By.cssSelector("form.action[action$='/drain']"));
            replace(drain.findElement(By.name("timeout")), "20s");
            drain.findElement(By.cssSelector("button[type=submit]")).click();
            confirm(wait, "Drain origin north? (timeout 20s)");
            wait.until(ExpectedConditions.textToBe(By.id("outcome"), "north: draining within 20s"));
            wait.until(d -> badge("north").equals("DRAINING"));
            assertThat(card("north").findElement(By.cssSelector(".badge")).getAttribute("class"))
                    .isEqualTo("badge badge-draining");
            wait.until(d -> !card("north").findElements(By.cssSelector("ul.slots button.slot-retiring")).isEmpty());
            assertThat(badge("east")).isEqualTo("UP");
            assertThat(held.isClosed()).as("the held connection, before the drain's deadline").isFalse();
            screenshot("3-north-draining");
        }

        // 6. With its last borrowed connection back, north empties: no slot, no connection, DOWN (drained).
        wait.until(d -> slotCells("north") == 0 && originText("north", "sizes.total").equals("0")
                && badge("north").equals("DOWN"));
        assertThat(originText("north", "stateReason")).isEqualTo("drained");
        assertThat(slotCells("east") + slotCells("west")).isPositive();
        // The page draws the event log within a second of the change.
        wait.until(d -> eventLog().stream().anyMatch(e -> e.contains("ORIGIN_STATE") && e.contains("north")
                && e.contains("DRAINING")));
        assertSamePage();
        screenshot("4-north-empty");

        // 7. Mark north up with its button and the confirmation; it is UP and its slots come back under load.
        card("north").findElement(By.cssSelector("form.action[action$='/up'] button[type=submit]")).click();
        confirm(wait, "Mark origin north UP?");
        wait.until(ExpectedConditions.textToBe(By.id("outcome"), "north: marked UP"));
        wait.until(d -> badge("north").equals("UP"));
        // Marked up again, it says that changed nothing, and the page tells that apart from a change.
        card("north").findElement(By.cssSelector("form.action[action$='/up'] button[type=submit]")).click();
        confirm(wait, "Mark origin north UP?");
        wait.until(ExpectedConditions.textToBe(By.id("outcome"), "north: nothing changed: already UP"));
        assertThat(browser.driver().findElement(By.id("outcome")).getAttribute("class")).isEqualTo("outcome outcome-noop");
        wait.until(d -> slotCells("north") > 0 && Integer.parseInt(originText("north", "sizes.total")) > 0);
        waitForLiveStream(wait);
        assertSamePage();
        screenshot("5-north-back");

        // 8. Keyboard: a slot cell keeps its element while the stream redraws the page (a cell replaced every second
        // loses the keyboard's focus and a screen reader's place, and a WebDriver command that spans the redraw, as
        // slow ones on a busy machine do, finds it gone), and Enter on it opens its detail (age, holder, labels).
        assertSlotCellsOutliveRedraws(wait, "east");
        // The detail opens when its fetch answers, after sendKeys returned. Enter again only when a press went
        // unanswered for 2 s: once the dialog is open the cells behind it take no keys, and a press at every poll
        // would throw there and never see the dialog.
        AtomicLong lastPress = new AtomicLong(System.nanoTime() - Duration.ofSeconds(10).toNanos());
        wait.ignoring(StaleElementReferenceException.class).ignoring(ElementNotInteractableException.class).until(d -> {
            if (browser.driver().findElement(By.id("slot-dialog")).isDisplayed()) {
                return true;
            }
            if (System.nanoTime() - lastPress.get() > Duration.ofSeconds(2).toNanos()) {
                lastPress.set(System.nanoTime());
                card("east").findElement(By.cssSelector("ul.slots button.slot")).sendKeys(Keys.ENTER);
            }
            return false;
        });
        wait.until(d -> !browser.driver().findElement(By.id("slot-detail")).getText().isBlank());
        assertThat(browser.driver().findElement(By.id("slot-detail")).getText()).as("ages in human units")
                .containsPattern("age\\s+(\\d+ ms|\\d+(\\.\\d)? s|\\d+ min \\d+ s|\\d+ h \\d+ min)\\s");
        screenshot("6-slot-detail");
        browser.driver().findElement(By.cssSelector("#slot-dialog button[type=submit]")).click();

        // 9. A narrow laptop's window, then a phone's: nothing wider than the window.
        browser.driver().manage().window().setSize(new Dimension(800, 1000));
        wait.until(d -> ((Number) js().executeScript("return window.innerWidth;")).intValue() <= 800);
        assertNoHorizontalOverflow("at 800 px");
        screenshot("7-800px");
        browser.driver().manage().window().setSize(new Dimension(412, 915));
        wait.until(d -> ((Number) js().executeScript("return window.innerWidth;")).intValue() < 500);
        assertNoHorizontalOverflow("at phone width");
        screenshot("8-phone");

        // The load ran through all of it: the drain was planned, no transaction failed.
        LoadStatus status = load.status();
        assertThat(status.completed()).isPositive();
        assertThat(status.failed()).as("failed transactions; last: %s", status.lastFailure()).isZero();
    }

    /**
     * Borrows until it holds one of the origin's connections. The pool picks origins by weight; holding up to three
     * others makes the next borrows pick other connections, and returning them then leaves the load its connections.
     */
    private Connection holdAConnectionOf(String origin) throws SQLException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        List<Connection> others = new ArrayList<>();
        try {
            while (System.nanoTime() < deadline) {
                Connection c = pool.getConnection();
                if (c.getMetaData().getURL().matches("jdbc:h2:mem:" + origin + "(;.*)?")) {
                    return c;
                }
                others.add(c);
                if (others.size() == 3) { // holding these makes the next borrow pick another connection
                    closeAll(others);
                }
            }
        } finally {
            closeAll(others);
        }
        return fail("no connection of " + origin + " within " + PATIENCE);
    }

    private static void closeAll(List<Connection> connections) throws SQLException {
        for (Connection c : connections) {
            c.close();
        }
        connections.clear();
    }

    /**
     * A cell of {@code origin} found before at least three redraws of its card (the stream's snapshots, about one a
     * second, each touching the card's counts under load) is still the cell of its slot after them: the same element,
     * unless its slot emptied meanwhile.
     */
    private void assertSlotCellsOutliveRedraws(WebDriverWait wait, String origin) {
        // One script finds the cell, reads its slot and starts counting the card's changes: no redraw between them.
        List<?> found = (List<?>) js().executeScript("var card = document.querySelector(arguments[0]);"
                + "var cell = card.querySelector('ul.slots button.slot');"
                + "window.slotpoolRedraws = 0; new MutationObserver(function (m) { window.slotpoolRedraws += m.length; })"
                + ".observe(card, { subtree: true, childList: true, attributes: true, characterData: true });"
                + "return [cell, cell.getAttribute('data-index')];", "article.origin[data-origin='" + origin + "']");
        WebElement before = (WebElement) found.get(0);
        String index = (String) found.get(1);
        wait.until(d -> ((Number) js().executeScript("return window.slotpoolRedraws;")).intValue() >= 3);
        List<WebElement> now = card(origin).findElements(By.cssSelector("ul.slots button.slot[data-index='" + index + "']"));
        if (now.isEmpty()) {
            return;
        }
        try {
            assertThat(js().executeScript("return arguments[0] === arguments[1];", before, now.get(0)))
                    .as("slot %s of %s is drawn by the same element after redraws", index, origin).isEqualTo(true);
        } catch (StaleElementReferenceException e) {
            fail("slot " + index + " of " + origin + ": its cell was replaced by a redraw");
        }
    }

    private void assertNoHorizontalOverflow(String where) {
        Number overflow = (Number) js().executeScript("return document.documentElement.scrollWidth - window.innerWidth;");
        assertThat(overflow.intValue()).as("horizontal overflow %s, px", where).isLessThanOrEqualTo(0);
    }

    private void confirm(WebDriverWait wait, String question) {
        WebElement dialog = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-dialog")));
        assertThat(dialog.findElement(By.id("confirm-text")).getText()).isEqualTo(question);
        dialog.findElement(By.cssSelector("button[value=ok]")).click();
        wait.until(ExpectedConditions.invisibilityOf(dialog));
    }

    private void waitForLiveStream(WebDriverWait wait) {
        wait.until(ExpectedConditions.textToBe(By.id("stream-state"), "live"));
        assertThat(browser.driver().findElement(By.id("stream-state")).getAttribute("class")).isEqualTo("stream stream-live");
    }

    /** The page has not been reloaded or left since the marker was set. */
    private void assertSamePage() {
        assertThat(js().executeScript("return window[arguments[0]];", MARKER)).as("the page's marker").isEqualTo("same page");
    }

    private List<String> originNames() {
        return browser.driver().findElements(By.cssSelector("article.origin")).stream().map(e -> e.getAttribute("data-origin")).toList();
    }

    private WebElement card(String origin) {
        return browser.driver().findElement(By.cssSelector("article.origin[data-origin='" + origin + "']"));
    }

    private String badge(String origin) {
        return card(origin).findElement(By.cssSelector(".badge")).getText();
    }

    private int slotCells(String origin) {
        return card(origin).findElements(By.cssSelector("ul.slots button.slot")).size();
    }

    private String originText(String origin, String field) {
        return card(origin).findElement(By.cssSelector("[data-o='" + field + "']")).getText();
    }

    /** A value of the pool's header: the pool's projection ({@code data-h}) or what the console measures ({@code data-live}). */
    private String header(String field) {
        return browser.driver().findElement(By.cssSelector("section.pool [data-h='" + field + "'], section.pool [data-live='"
                + field + "']")).getText();
    }

    private Map<String, Long> borrowCounts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String origin : SampleApp.ORIGINS) {
            counts.put(origin, Long.parseLong(originText(origin, "borrows")));
        }
        return counts;
    }

    /** The event log's lines, read in one script: the log is redrawn every second, under a reading of line after line. */
    private List<String> eventLog() {
        List<?> lines = (List<?>) js().executeScript(
                "return Array.from(document.querySelectorAll('#events li'), function (li) { return li.innerText; });");
        return lines.stream().map(String::valueOf).toList();
    }

    private static void replace(WebElement input, String value) {
        input.clear();
        input.sendKeys(value);
    }

    private static JavascriptExecutor js() {
        return browser.driver();
    }

    private static void screenshot(String name) throws IOException {
        browser.screenshot(name);
    }
}
