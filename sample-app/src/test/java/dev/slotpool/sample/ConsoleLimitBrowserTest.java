package dev.slotpool.sample;

import dev.slotpool.LimitSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.sample.load.LoadGenerator;
import dev.slotpool.sample.load.LoadSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adaptive limit in the console (docs/console.md, The adaptive limit), in a real browser ({@link Chromium})
 * against the whole sample app with {@code slotpool.sizing=adaptive} under its load generator: each origin's card
 * shows its limit, floor – ceiling, lent and held back, pinned or not and the reason; the limit chart draws the
 * limit against connections lent and held back, for the pool and for one origin; the admin pins east's limit with
 * its button and releases it. Screenshots go to {@code target/screenshots/}.
 *
 * <p>Every wait is a condition with {@link SampleApp#PATIENCE}; none is a fixed sleep. Same database password and
 * context handling as {@link ConsoleBrowserTest}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sample.load.enabled=false",
        "slotpool.sizing=adaptive",
        "spring.datasource.password=" + SampleApp.DB_PASSWORD})
@DirtiesContext
@ExtendWith(Chromium.Present.class)
class ConsoleLimitBrowserTest {

    /** Points each limit line draws before the test looks at the chart. */
    private static final int MIN_POINTS = 3;

    @RegisterExtension
    static final Chromium.Session browser = new Chromium.Session("ConsoleLimitBrowserTest");

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
    void anAdminSeesEachOriginsLimitChartsItAndPinsAndReleasesIt() throws Exception {
        String base = "http://localhost:" + port;
        WebDriverWait wait = new WebDriverWait(browser.driver(), SampleApp.PATIENCE, Duration.ofMillis(100));
        wait.ignoring(StaleElementReferenceException.class);
        load.apply(new LoadSettings(4, Duration.ofMillis(20)));

        // 1. The admin logs in and opens the console; the stream goes live.
        browser.driver().get(base + "/slotpool");
        wait.until(ExpectedConditions.urlToBe(base + "/login"));
        browser.driver().findElement(By.name("username")).sendKeys("admin");
        browser.driver().findElement(By.name("password")).sendKeys("admin-demo");
        browser.driver().findElement(By.cssSelector("form button[type=submit]")).click();
        wait.until(d -> d.getCurrentUrl().startsWith(base + "/slotpool"));
        wait.until(ExpectedConditions.textToBe(By.id("stream-state"), "live"));

        // 2. Each origin's card: its limit within floor – ceiling, lent and held back, not pinned, a reason.
        for (String origin : SampleApp.ORIGINS) {
            LimitSnapshot l = limitOf(origin);
            WebElement box = card(origin).findElement(By.cssSelector(".limit"));
            assertThat(box.isDisplayed()).as("limit block of %s", origin).isTrue();
            assertThat(box.getAttribute("aria-label")).isEqualTo("limit of " + origin);
            assertThat(limitText(origin, "floor")).isEqualTo(String.valueOf(l.floor()));
            assertThat(limitText(origin, "ceiling")).isEqualTo(String.valueOf(l.ceiling()));
            assertThat(Integer.parseInt(limitText(origin, "limit"))).as("limit of %s", origin)
                    .isBetween(l.floor(), l.ceiling());
            assertThat(limitText(origin, "heldBack")).matches("\\d+");
            assertThat(box.findElement(By.cssSelector("[data-o='sizes.borrowed']")).getText()).matches("\\d+");
            assertThat(limitText(origin, "pinned")).isEqualTo("no");
            assertThat(limitText(origin, "reason")).isNotBlank().isNotEqualTo("—");
        }

        // 3. The limit chart: the pool's limit (its origins' summed) against connections lent and held back.
        WebElement panel = browser.driver().findElement(By.cssSelector("#chart [data-panel='limit']"));
        assertThat(panel.isDisplayed()).isTrue();
        assertThat(panel.findElement(By.tagName("figcaption")).getText()).startsWith("adaptive limit");
        wait.until(d -> drawn("limit") >= MIN_POINTS && drawn("borrowed") >= MIN_POINTS
                && drawn("heldBack") >= MIN_POINTS);
        assertThat(Integer.parseInt(latest("limit"))).as("the pool's latest limit")
                .isBetween(pool.limits().stream().mapToInt(LimitSnapshot::floor).sum(),
                        pool.limits().stream().mapToInt(LimitSnapshot::ceiling).sum());
        browser.screenshot("limit-1-pool-chart");

        // 4. Pinned at east's floor with its button and the confirmation: the card and east's chart follow.
        new Select(browser.driver().findElement(By.id("chart-of"))).selectByValue("east");
        wait.until(d -> drawn("limit") >= MIN_POINTS);
        int at = limitOf("east").floor();
        WebElement pin = card("east").findElement(By.cssSelector("form.limit-pin"));
        pin.findElement(By.name("limit")).sendKeys(String.valueOf(at));
        pin.findElement(By.cssSelector("button[type=submit]")).click();
        confirm(wait, "Pin the limit of origin east? The controller stops moving it until released. (limit " + at + ")");
        wait.until(ExpectedConditions.textToBe(By.id("outcome"), "east: limit pinned at " + at));
        assertThat(limitOf("east").pinned()).isEqualTo(at);
        wait.until(d -> limitText("east", "pinned").equals("at " + at) && limitText("east", "limit").equals(String.valueOf(at)));
        wait.until(d -> latest("limit").equals(String.valueOf(at)));
        browser.screenshot("limit-2-east-pinned");

        // 5. Released: the controller moves it again.
        card("east").findElement(By.cssSelector("form.limit-release button[type=submit]")).click();
        confirm(wait, "Release the limit of origin east to the controller?");
        wait.until(ExpectedConditions.textToBe(By.id("outcome"), "east: limit handed back to the controller"));
        assertThat(limitOf("east").pinned()).isZero();
        wait.until(d -> limitText("east", "pinned").equals("no"));
        assertThat(load.status().failed()).as("failed transactions; last: %s", load.status().lastFailure()).isZero();
    }

    private LimitSnapshot limitOf(String origin) {
        return pool.limits().stream().filter(l -> l.origin().equals(origin)).findFirst().orElseThrow();
    }

    private static WebElement card(String origin) {
        return browser.driver().findElement(By.cssSelector("article.origin[data-origin='" + origin + "']"));
    }

    private static String limitText(String origin, String field) {
        return card(origin).findElement(By.cssSelector(".limit [data-l='" + field + "']")).getText();
    }

    /** The newest value the limit chart's caption gives for a series. */
    private static String latest(String series) {
        return browser.driver().findElement(By.cssSelector("#chart [data-panel='limit'] [data-latest='" + series + "']"))
                .getText();
    }

    /** How many points the limit chart's line for one series draws, read in one script (the chart redraws). */
    private static int drawn(String series) {
        Object n = ((JavascriptExecutor) browser.driver()).executeScript("var p = document.querySelector("
                + "'#chart [data-panel=\"limit\"] path[data-series=\"' + arguments[0] + '\"]');"
                + " return p ? Number(p.getAttribute('data-drawn')) : 0;", series);
        return ((Number) n).intValue();
    }

    private static void confirm(WebDriverWait wait, String question) {
        WebElement dialog = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-dialog")));
        assertThat(dialog.findElement(By.id("confirm-text")).getText()).isEqualTo(question);
        dialog.findElement(By.cssSelector("button[value=ok]")).click();
        wait.until(ExpectedConditions.invisibilityOf(dialog));
    }
}
