package dev.slotpool.sample;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.PgBouncerServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The pooler's view on the console page (docs/console.md, The pooler's view), in a real browser ({@link Chromium})
 * against the whole sample app, with origin east behind a real PgBouncer ({@link PgBouncerServer}, transaction
 * mode) in front of an embedded PostgreSQL ({@link PostgresServers}); west and north stay on H2, without a pooler.
 * A viewer opens the console: east's card shows PgBouncer's {@code SHOW POOLS} (clients, servers, max wait, when
 * read), the others none. A transaction the test holds open on east takes a server session, and the page shows it
 * and its end without a reload; PgBouncer stopped, the card says its console does not answer; started again, the
 * view is back. The meters of the same view are on {@code /actuator/prometheus}. The console user's password (in
 * east's {@code pooler-admin-url}) reaches no page, no JSON and no meter. Screenshots go to
 * {@code target/screenshots/}.
 *
 * <p>Every wait is a condition with {@link SampleApp#PATIENCE}; none is a fixed sleep. Same database password and
 * context handling as {@link ConsoleBrowserTest}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sample.load.enabled=false",
        "spring.datasource.password=" + SampleApp.DB_PASSWORD})
@DirtiesContext
@ExtendWith(Chromium.Present.class)
class PoolerConsoleBrowserTest {

    /** The console user of {@link #bouncer}: read-only ({@code stats_users}), what east's pooler-admin-url carries. */
    private static final String STATS_USER = "poolstats";

    /** The console user's password: in east's pooler-admin-url, and nowhere the app shows. */
    private static final String STATS_PASSWORD = "Stats-pw-8Vm4-never-shown";

    private static final String MARKER = "slotpoolPoolerConsoleBrowserTest";

    /** First, so it is checked last: its check of processes left counts every child of this JVM (PgBouncer's). */
    @RegisterExtension
    @Order(1)
    static final Chromium.Session browser = new Chromium.Session("PoolerConsoleBrowserTest");

    @RegisterExtension
    @Order(2)
    static final PostgresServers SERVERS = new PostgresServers(List.of("east"), SampleApp.DB_PASSWORD);

    /**
     * In front of east, after the extensions above started it and before Spring reads {@link #origins}; stopped
     * before they stop. Logins take passwords: the app's role with the app's (which PgBouncer also uses to log in
     * to the server), and the console user with its own.
     */
    private static PgBouncerServer bouncer;

    @BeforeAll
    static void startPgBouncer() throws IOException {
        bouncer = PgBouncerServer.builder("sample", SERVERS.port("east")).database(PostgresServers.DATABASE)
                .authType("md5").user(PostgresServers.ROLE, SampleApp.DB_PASSWORD).user(STATS_USER, STATS_PASSWORD)
                .statsUser(STATS_USER).setting("max_client_conn", "100").build();
        bouncer.start();
    }

    @AfterAll
    static void closePgBouncer() throws IOException {
        if (bouncer != null) {
            bouncer.close();
        }
    }

    /** East through PgBouncer with its console; west and north as application.yml has them (the whole list: Boot
     * replaces a list bound from a higher source). */
    @DynamicPropertySource
    static void origins(DynamicPropertyRegistry registry) {
        registry.add("slotpool.origins[0].name", () -> "east");
        registry.add("slotpool.origins[0].url", () -> bouncer.url());
        registry.add("slotpool.origins[0].username", () -> PostgresServers.ROLE);
        registry.add("slotpool.origins[0].pooler", () -> "transaction");
        registry.add("slotpool.origins[0].pooler-admin-url", () -> bouncer.adminUrl(STATS_USER));
        registry.add("slotpool.origins[0].weight", () -> 50);
        for (String origin : List.of("west", "north")) {
            String prefix = "slotpool.origins[" + (origin.equals("west") ? 1 : 2) + "].";
            registry.add(prefix + "name", () -> origin);
            registry.add(prefix + "url", () -> "jdbc:h2:mem:" + origin
                    + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000;INIT=RUNSCRIPT FROM 'classpath:db/schema.sql'");
            registry.add(prefix + "weight", () -> SampleApp.CONFIGURED_WEIGHTS.get(origin));
        }
    }

    @LocalServerPort
    private int port;

    @Autowired
    private SlotPoolDataSource pool;

    @Test
    void aViewerSeesThePoolersViewOfEastLiveAndItsConsoleGoneAndBack() throws Exception {
        String base = "http://localhost:" + port;
        WebDriverWait wait = new WebDriverWait(browser.driver(), SampleApp.PATIENCE, Duration.ofMillis(100));
        wait.ignoring(StaleElementReferenceException.class);

        // 1. The viewer logs in and opens the console: east's card shows the pooler's view, the others none.
        browser.driver().get(base + "/login");
        browser.driver().findElement(By.name("username")).sendKeys("viewer");
        browser.driver().findElement(By.name("password")).sendKeys("viewer-demo");
        browser.driver().findElement(By.cssSelector("form button[type=submit]")).click();
        wait.until(d -> !d.getCurrentUrl().startsWith(base + "/login"));
        browser.driver().get(base + "/slotpool");
        wait.until(ExpectedConditions.textToBe(By.id("stream-state"), "live"));
        wait.until(d -> poolerBox("east").isDisplayed() && number("east", "pooler.clientsActive") > 0);
        assertThat(poolerBox("east").getAttribute("aria-label")).isEqualTo("pooler view of east");
        assertThat(poolerBox("east").findElement(By.cssSelector(".pooler-error")).isDisplayed()).isFalse();
        assertThat(text("east", "[data-pooler='maxWait']")).matches("\\d+(\\.\\d+)? s");
        // When it was read: a clock time in the browser's zone, the instant itself in datetime.
        assertThat(text("east", "[data-pooler='readAt']")).matches("\\d{1,2}:\\d\\d:\\d\\d( ?[AP]M)?");
        assertThat(poolerBox("east").findElement(By.cssSelector("[data-pooler='readAt']")).getAttribute("datetime"))
                .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");
        for (String origin : List.of("west", "north")) {
            assertThat(poolerBox(origin).isDisplayed()).as("pooler block of %s", origin).isFalse();
        }
        js().executeScript("window[arguments[0]] = 'same page';", MARKER);
        browser.screenshot("pooler-1-east-behind-pgbouncer");

        // 2. A transaction held open on east takes one of PgBouncer's server sessions (transaction mode): the page
        //    shows it active, and free again once it commits, with no reload. When it was read moves on too.
        String firstRead = text("east", "[data-pooler='readAt']");
        try (Connection held = holdAConnectionOfEast()) {
            held.setAutoCommit(false);
            try (Statement st = held.createStatement()) {
                st.execute("SELECT 1");
            }
            wait.until(d -> number("east", "pooler.serversActive") >= 1);
            browser.screenshot("pooler-2-a-transaction-on-a-server-session");
            held.commit();
        }
        wait.until(d -> number("east", "pooler.serversActive") == 0 && !text("east", "[data-pooler='readAt']")
                .equals(firstRead));
        assertSamePage();

        // 3. PgBouncer stops: east's card says its console does not answer, in words, and shows no stale view.
        bouncer.stop();
        // A read that meets PgBouncer mid-shutdown sees its connection cut (EOFException) before the port refuses.
        wait.until(d -> poolerBox("east").findElement(By.cssSelector(".pooler-error")).isDisplayed()
                && poolerBox("east").findElement(By.cssSelector(".pooler-error")).getText().contains("refused"));
        assertThat(poolerBox("east").findElement(By.cssSelector(".pooler-view")).isDisplayed()).isFalse();
        assertThat(poolerBox("east").findElement(By.cssSelector(".pooler-error")).getText())
                .startsWith("admin console not answering: ").containsIgnoringCase("refused");
        browser.screenshot("pooler-3-console-not-answering");

        // 4. Started again on the same port, the view comes back.
        bouncer.start();
        wait.until(d -> poolerBox("east").findElement(By.cssSelector(".pooler-view")).isDisplayed()
                && !poolerBox("east").findElement(By.cssSelector(".pooler-error")).isDisplayed());
        assertSamePage();

        // 5. The same view as meters, for east only; the console's password nowhere.
        Http.Session viewer = new Http(port).login(Http.User.VIEWER);
        String prometheus = viewer.get("/actuator/prometheus").body();
        assertThat(prometheus).contains("slotpool_pooler_clients{origin=\"east\",pool=\"shop\",state=\"active\"}",
                        "slotpool_pooler_clients{origin=\"east\",pool=\"shop\",state=\"waiting\"}",
                        "slotpool_pooler_servers{origin=\"east\",pool=\"shop\",state=\"idle\"}",
                        "slotpool_pooler_max_wait_seconds{origin=\"east\",pool=\"shop\"}")
                .doesNotContain("slotpool_pooler_clients{origin=\"west\"")
                .doesNotContain(STATS_PASSWORD);
        for (String path : List.of("/slotpool", "/slotpool/snapshot", "/actuator/pool", "/actuator/pool/east")) {
            assertThat(viewer.get(path).body()).as(path).doesNotContain(STATS_PASSWORD);
        }
        assertThat(browser.driver().getPageSource()).doesNotContain(STATS_PASSWORD);
    }

    /** Borrows until it holds one of east's connections (the others are H2's), returning the others. */
    private Connection holdAConnectionOfEast() throws SQLException {
        long deadline = System.nanoTime() + SampleApp.PATIENCE.toNanos();
        List<Connection> others = new ArrayList<>();
        try {
            while (System.nanoTime() < deadline) {
                Connection c = pool.getConnection();
                if (c.getMetaData().getURL().startsWith("jdbc:postgresql:")) {
                    return c;
                }
                others.add(c);
                if (others.size() == 3) { // holding these makes the next borrow pick another connection
                    for (Connection o : others) {
                        o.close();
                    }
                    others.clear();
                }
            }
        } finally {
            for (Connection o : others) {
                o.close();
            }
        }
        return fail("no connection of east within " + SampleApp.PATIENCE);
    }

    private static WebElement poolerBox(String origin) {
        return browser.driver().findElement(By.cssSelector("article.origin[data-origin='" + origin + "'] .pooler"));
    }

    private static String text(String origin, String selector) {
        return poolerBox(origin).findElement(By.cssSelector(selector)).getText();
    }

    /** A count of the pooler's view as the card shows it; -1 while it shows none. */
    private static int number(String origin, String field) {
        String t = text(origin, "[data-o='" + field + "']");
        return t.matches("\\d+") ? Integer.parseInt(t) : -1;
    }

    private static void assertSamePage() {
        assertThat(js().executeScript("return window[arguments[0]];", MARKER)).as("the page's marker").isEqualTo("same page");
    }

    private static JavascriptExecutor js() {
        return browser.driver();
    }
}
