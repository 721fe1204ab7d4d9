package dev.slotpool.autoconfigure;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The matrix of invalid values: each {@link Row} starts a real {@link SpringApplication} with one bad setting and
 * checks that startup fails with Boot's failure report naming the property as written, the value (credentials
 * redacted) and the reason, and that no password reaches the output or the exception. The rows are the table
 * "Invalid values (each row is a test)" of docs/configuration.md, which {@link #theDocsTableListsExactlyTheseRows}
 * keeps in step.
 */
@ExtendWith(OutputCaptureExtension.class)
class InvalidValuesAtStartupTest {

    /** The shared password of every start; no output may contain it. */
    private static final String SECRET = "Matrix-pw-7Qe2";

    /** A password written into a URL's credentials; the report shows the URL redacted. */
    private static final String URL_SECRET = "Url-pw-4Zt9";

    private static final String ORIGINS_EAST_WEST = "slotpool.origins[0].name=east, slotpool.origins[1].name=west";

    @SpringBootConfiguration
    @ImportAutoConfiguration({SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class})
    static class App {
    }

    /**
     * One invalid configuration.
     *
     * @param set        what the row sets, as {@code key=value} pairs separated by {@code ", "}
     * @param defaultUrl whether spring.datasource.url (a stub database) is set too
     * @param property   the property the report names
     * @param shown      the value the report shows
     * @param reason     (the start of) the report's reason
     */
    record Row(String set, boolean defaultUrl, String property, String shown, String reason) {

        Row(String set, String property, String shown, String reason) {
            this(set, true, property, shown, reason);
        }

        List<String> args() {
            return Arrays.stream(set.split(", ")).map(a -> "--" + a).toList();
        }

        /** The docs table's row for this case. */
        String markdown() {
            String what = Arrays.stream(set.split(", ")).map(a -> "`" + a + "`").collect(Collectors.joining(", "));
            boolean noUrl = !defaultUrl && !set.contains("spring.datasource.url=");
            return "| " + what + (noUrl ? " (no `spring.datasource.url`)" : "") + " | `" + property + "` | `" + shown
                    + "` | `" + reason + "` |";
        }

        @Override
        public String toString() {
            return set + (defaultUrl ? "" : " without spring.datasource.url");
        }
    }

    static List<Row> rows() {
        return List.of(
                new Row("slotpool.min-size=-1", "slotpool.min-size", "-1", "must be ≥ 0"),
                new Row("slotpool.max-size=0", "slotpool.max-size", "0", "must be between 1 and 100000"),
                new Row("slotpool.max-size=100001", "slotpool.max-size", "100001", "must be between 1 and 100000"),
                new Row("slotpool.min-size=5, slotpool.max-size=3", "slotpool.min-size", "5", "must be ≤ maxSize (3)"),
                new Row("slotpool.initial-size=8, slotpool.max-size=5", "slotpool.initial-size", "8",
                        "must be between minSize (2) and maxSize (5)"),
                new Row("slotpool.borrow-timeout=-5s", "slotpool.borrow-timeout", "-5s", "must not be negative"),
                new Row("slotpool.housekeeping-period=0", "slotpool.housekeeping-period", "0s",
                        "must be between 10ms and 10m"),
                new Row("slotpool.validation-timeout=100ms", "slotpool.validation-timeout", "100ms",
                        "must be between 1s and 10m"),
                new Row("slotpool.down-grace-period=-1s", "slotpool.down-grace-period", "-1s", "must not be negative"),
                new Row("slotpool.max-lifetime=500ms", "slotpool.max-lifetime", "500ms", "must be ≥ 1s (or 0 to disable)"),
                new Row("slotpool.creator-threads=0", "slotpool.creator-threads", "0", "must be between 1 and 64"),
                new Row("slotpool.statement-cache-size=-1", "slotpool.statement-cache-size", "-1",
                        "must be between 0 and 10000"),
                new Row("slotpool.validation-query=", "slotpool.validation-query", "''",
                        "must not be blank (leave it unset to use isValid)"),
                new Row("slotpool.oracle.default-row-prefetch=0", "slotpool.oracle.default-row-prefetch", "0",
                        "must be ≥ 1"),
                new Row(ORIGINS_EAST_WEST + ", slotpool.origins[2].name=east", "slotpool.origins[2].name", "east",
                        "duplicate origin name"),
                new Row("slotpool.origins[0].url=" + StubDatabase.reset("matrix-nameless").url(),
                        "slotpool.origins[0].name", "null", "must not be blank"),
                new Row(ORIGINS_EAST_WEST + ", slotpool.origins[1].weight=-3", "slotpool.origins[1].weight", "-3",
                        "must be ≥ 0"),
                new Row(ORIGINS_EAST_WEST + ", slotpool.origins[0].weight=0, slotpool.origins[1].weight=0",
                        "slotpool.origins[*].weight", "0", "at least one origin needs a weight > 0"),
                new Row(ORIGINS_EAST_WEST + ", slotpool.origins[0].weight=999999999, slotpool.origins[1].weight=999999999",
                        "slotpool.origins[*].weight", "1999999998", "the weights add up to more than 1000000"),
                new Row("slotpool.origins[0].name=east/../west", "slotpool.origins[0].name", "east/../west",
                        "must be 1 to 100 letters, digits, '.', '_', ':' or '-', start with a letter, digit or '_', "
                                + "and hold no '..' (it is a path segment of the console's and the endpoint's URLs)"),
                new Row(ORIGINS_EAST_WEST + ", slotpool.origins[1].max-connections=-1",
                        "slotpool.origins[1].max-connections", "-1", "must be ≥ 0 (0 = no cap but maxSize)"),
                new Row("slotpool.origins[0].name=east, slotpool.origins[0].url=postgresql://admin:" + URL_SECRET
                        + "@db:5432/shop", "slotpool.origins[0].url", "postgresql://***:***@db:5432/shop",
                        "must be a JDBC URL (jdbc:<subprotocol>:...)"),
                new Row("spring.datasource.url=mysql://db/shop?password=" + URL_SECRET, false,
                        "spring.datasource.url", "mysql://db/shop?password=***",
                        "must be a JDBC URL (jdbc:<subprotocol>:...)"),
                new Row("slotpool.origins[0].name=east", false, "slotpool.origins[0].url", "null",
                        "is required (neither the origin nor the pool has a url)"),
                new Row("spring.datasource.driver-class-name=org.example.NoSuchDriver",
                        "spring.datasource.driver-class-name", "org.example.NoSuchDriver",
                        "class not found on the class path"),
                new Row("slotpool.transaction-isolation=read-comitted", "slotpool.transaction-isolation",
                        "read-comitted", "must be READ_UNCOMMITTED, READ_COMMITTED, REPEATABLE_READ or SERIALIZABLE "
                        + "(also as TRANSACTION_READ_COMMITTED or read-committed)"),
                new Row("slotpool.schema=", "slotpool.schema", "''",
                        "must not be blank (leave it unset to keep the driver's)"),
                new Row("slotpool.connection-init-sql=", "slotpool.connection-init-sql", "''",
                        "must not be blank (leave it unset to run nothing)"),
                new Row("slotpool.leak-detection-threshold=500ms", "slotpool.leak-detection-threshold", "500ms",
                        "must be ≥ 1s (or 0 to disable)"),
                new Row("slotpool.initialization-fail-timeout=11m", "slotpool.initialization-fail-timeout", "11m",
                        "must be ≤ 10m (or negative to start without waiting)"),
                new Row("slotpool.max-size=lots", "slotpool.max-size", "\"lots\"",
                        "failed to convert java.lang.String to java.lang.Integer"),
                new Row(ORIGINS_EAST_WEST + ", slotpool.origins[1].weight=heavy", "slotpool.origins[1].weight",
                        "\"heavy\"", "failed to convert java.lang.String to java.lang.Integer"),
                new Row("slotpool.borrow-timeout=5 seconds", "slotpool.borrow-timeout", "\"5 seconds\"",
                        "failed to convert java.lang.String to java.time.Duration"),
                new Row("slotpool.leak-tracing=sometimes", "slotpool.leak-tracing", "\"sometimes\"",
                        "failed to convert java.lang.String to java.lang.Boolean"),
                new Row("slotpool.max-sise=5", "slotpool.max-sise", "\"5\"",
                        "The elements [slotpool.max-sise] were left unbound."),
                new Row(ORIGINS_EAST_WEST + ", slotpool.origins[0].wieght=5", "slotpool.origins[0].wieght", "\"5\"",
                        "The elements [slotpool.origins[0].wieght] were left unbound."));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void startupFailsNamingThePropertyAndTheValue(Row row, CapturedOutput output) {
        List<String> args = new ArrayList<>(row.args());
        args.add("--spring.datasource.password=" + SECRET);
        if (row.defaultUrl()) {
            args.add("--spring.datasource.url=" + StubDatabase.reset("matrix").url());
        }
        Throwable failure = catchThrowable(() -> app().run(args.toArray(String[]::new)).close());
        assertThat(failure).as("the startup failure").isNotNull();
        assertThat(stackTrace(failure)).doesNotContain(SECRET, URL_SECRET);

        String report = report(output.getAll());
        assertThat(report).as("the failure report").contains("Property: " + row.property() + "\n")
                .contains("Value: " + row.shown() + "\n")
                .containsPattern("Reason: .*" + Pattern.quote(row.reason()));
        assertThat(output.getAll()).doesNotContain(SECRET, URL_SECRET);
    }

    /** Values that look wrong but mean something (docs: "Not invalid"): startup succeeds with each. */
    @Test
    void zeroesThatMeanSomethingStart() {
        try (ConfigurableApplicationContext ctx = app().run("--spring.datasource.url=" + StubDatabase.reset("zeroes").url(),
                "--slotpool.min-size=0", "--slotpool.borrow-timeout=0", "--slotpool.turn-duration=0",
                "--slotpool.inactive-timeout=0", "--slotpool.max-lifetime=0", "--slotpool.keepalive-interval=0",
                "--slotpool.validate-after-idle=0", "--slotpool.shutdown-timeout=0", "--slotpool.down-grace-period=0",
                "--slotpool.down-after-failures=0", "--slotpool.origins[0].name=a", "--slotpool.origins[0].weight=0",
                "--slotpool.origins[0].max-connections=0", "--slotpool.origins[1].name=b",
                "--slotpool.leak-detection-threshold=0", "--slotpool.initialization-fail-timeout=0",
                "--slotpool.statement-cache-size=0")) {
            assertThat(ctx.isActive()).isTrue();
        }
    }

    @Test
    void theDocsTableListsExactlyTheseRows() throws Exception {
        String doc = Files.readString(Path.of("../docs/configuration.md"));
        int start = doc.indexOf("## Invalid values (each row is a test)");
        assertThat(start).as("section in configuration.md").isNotNegative();
        int end = doc.indexOf("\n## ", start + 3);
        List<String> documented = (end < 0 ? doc.substring(start) : doc.substring(start, end)).lines()
                .filter(l -> l.startsWith("| `")).toList();
        assertThat(documented).containsExactlyElementsOf(rows().stream().map(Row::markdown).toList());
    }

    private static SpringApplication app() {
        SpringApplication app = new SpringApplication(App.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        app.setBannerMode(Banner.Mode.OFF);
        return app;
    }

    /** From Boot's "APPLICATION FAILED TO START" banner to the end of the output. */
    private static String report(String output) {
        int at = output.indexOf("APPLICATION FAILED TO START");
        assertThat(at).as("Boot's failure report in:%n%s", output).isNotNegative();
        return output.substring(at).replace("\r\n", "\n");
    }

    private static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}
