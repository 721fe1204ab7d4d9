package dev.slotpool.sample;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Headless Debian Chromium driven through its chromedriver by Selenium, for the console's browser tests
 * (docs/console.md, Browser test). Chromium is looked up as {@code chromium} on the {@code PATH}, then in
 * {@code /usr/bin}; the system property {@value #BROWSER_PROPERTY} names another binary (a missing one skips the
 * test, which is how to see the skip). A test is skipped only when there is no Chromium; Chromium without
 * {@code chromedriver} (looked up the same way, or {@value #DRIVER_PROPERTY}) fails it. Both paths are given to
 * Selenium, so Selenium Manager never runs and nothing is downloaded. Screenshots go to
 * {@code target/screenshots/}.
 */
final class Chromium implements AutoCloseable {

    /** System property: the Chromium binary to drive instead of {@code chromium} on the PATH. */
    static final String BROWSER_PROPERTY = "console.browser";

    /** System property: the chromedriver binary instead of {@code chromedriver} on the PATH. */
    static final String DRIVER_PROPERTY = "console.chromedriver";

    /** The page area of the browser window, and so the screenshots' size. */
    private static final Dimension VIEWPORT = new Dimension(1400, 1000);

    private final ChromeDriver driver;
    private final Path screenshots;

    private Chromium(ChromeDriver driver, Path screenshots) {
        this.driver = driver;
        this.screenshots = screenshots;
    }

    /**
     * Starts a browser whose page area is 1400×1000; {@code test} names it in the log; {@code arguments} are
     * Chromium's switches besides the headless ones (such as {@code --host-resolver-rules}).
     */
    static Chromium start(String test, String... arguments) throws IOException {
        Optional<Path> chromium = executable(BROWSER_PROPERTY, "chromium");
        assumeTrue(chromium.isPresent(), Present::reason); // Present skipped the class already
        Path chromedriver = executable(DRIVER_PROPERTY, "chromedriver").orElseGet(() -> fail(
                "Chromium is at " + chromium.get() + " but there is no chromedriver (" + where(DRIVER_PROPERTY,
                        "chromedriver") + "): install Debian's chromium-driver (.ci/run does), or set -D"
                        + DRIVER_PROPERTY + "=/path/to/chromedriver"));

        Path screenshots = Path.of(System.getProperty("basedir", "."), "target", "screenshots");
        Files.createDirectories(screenshots);

        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.get().toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-dev-shm-usage", "--window-size=1400,1000");
        options.addArguments(arguments);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        // --window-size sizes the window, whose page area is smaller: grow it so pages (and screenshots) are 1400×1000.
        Dimension window = driver.manage().window().getSize();
        List<?> page = (List<?>) driver.executeScript("return [window.innerWidth, window.innerHeight];");
        driver.manage().window().setSize(new Dimension(window.width + VIEWPORT.width - ((Number) page.get(0)).intValue(),
                window.height + VIEWPORT.height - ((Number) page.get(1)).intValue()));
        System.out.println(test + ": running against Chromium " + driver.getCapabilities().getBrowserVersion()
                + " (" + chromium.get() + ", " + chromedriver + ")");
        return new Chromium(driver, screenshots);
    }

    ChromeDriver driver() {
        return driver;
    }

    void screenshot(String name) throws IOException {
        Files.write(screenshots.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
    }

    /** Quits the driver and checks that no Chromium or chromedriver process outlives it. */
    @Override
    public void close() {
        List<ProcessHandle> browserProcesses;
        try {
            browserProcesses = ProcessHandle.current().descendants().toList();
        } finally {
            driver.quit();
        }
        assertThat(browserProcesses).as("chromedriver's and Chromium's processes while the driver ran").isNotEmpty();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(browserProcesses.stream()
                .filter(ProcessHandle::isAlive).map(p -> p.pid() + " " + p.info().command().orElse("?")))
                .as("Chromium or chromedriver processes left after quit").isEmpty());
    }

    /**
     * One browser for a test class: started before its first test, quit (and checked gone) after its last. Register
     * it as a static {@code @RegisterExtension} field, next to {@code @ExtendWith(Chromium.Present.class)}.
     */
    static final class Session implements BeforeAllCallback, AfterAllCallback {

        private final String test;
        private final String[] arguments;
        private Chromium chromium;

        Session(String test, String... arguments) {
            this.test = test;
            this.arguments = arguments;
        }

        @Override
        public void beforeAll(ExtensionContext context) throws IOException {
            chromium = start(test, arguments);
        }

        @Override
        public void afterAll(ExtensionContext context) {
            if (chromium != null) {
                try {
                    chromium.close();
                } finally {
                    chromium = null;
                }
            }
        }

        ChromeDriver driver() {
            return chromium.driver();
        }

        void screenshot(String name) throws IOException {
            chromium.screenshot(name);
        }
    }

    /**
     * Skips the class when there is no Chromium, before the app starts (an assumption in {@code @BeforeAll} would
     * skip it too, but Surefire then reports no test at all rather than a skipped one).
     */
    static final class Present implements ExecutionCondition {

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            Optional<Path> chromium = executable(BROWSER_PROPERTY, "chromium");
            if (chromium.isPresent()) {
                return ConditionEvaluationResult.enabled("Chromium at " + chromium.get());
            }
            System.out.println(context.getDisplayName() + ": " + reason());
            return ConditionEvaluationResult.disabled(reason());
        }

        static String reason() {
            return "SKIPPED, no Chromium binary (" + where(BROWSER_PROPERTY, "chromium")
                    + "); install Debian's chromium and chromium-driver (.ci/run does)";
        }
    }

    /** The property's path when set (empty when it is not an executable), else the name on the PATH or in /usr/bin. */
    static Optional<Path> executable(String property, String name) {
        String configured = System.getProperty(property);
        if (configured != null && !configured.isBlank()) {
            return Optional.of(Path.of(configured)).filter(Files::isExecutable);
        }
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Stream.concat(Stream.of(path.split(File.pathSeparator)), Stream.of("/usr/bin"))
                .filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, name))
                .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p))
                .findFirst();
    }

    private static String where(String property, String name) {
        String configured = System.getProperty(property);
        return configured != null && !configured.isBlank() ? "-D" + property + "=" + configured + " is not an executable"
                : "no " + name + " on the PATH or in /usr/bin";
    }
}
