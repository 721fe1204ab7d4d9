package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.metrics.SlotPoolMetricsAutoConfiguration;
import dev.slotpool.testsupport.StubDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.yaml.snakeyaml.Yaml;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped Prometheus alert rules (docs/prometheus/slotpool-alerts.yml, shown whole in docs/operations.md) use
 * only series a real pool exposes: every metric name in every
 * {@code expr}, with each label it filters on (and the value, for an equality), and every label an annotation or
 * a {@code by} clause names, is checked against the Prometheus scrape of a registry that a pool's
 * {@code SlotPoolMetrics} registered into.
 */
class AlertRulesDocTest {

    private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL);
    /** PromQL words that are not metric names. */
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right", "bool", "and", "or", "unless", "offset", "inf", "nan");
    private static final Pattern GROUPING = Pattern.compile("\\b(by|without|on|ignoring)\\s*\\(([^)]*)\\)");
    private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*(\\{([^}]*)})?\\s*(\\()?");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!=|!~|=)\\s*\"([^\"]*)\"");
    private static final Pattern ANNOTATION_LABEL = Pattern.compile("\\$labels\\.([a-zA-Z_][a-zA-Z0-9_]*)");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+\\S+.*$");
    private static final Pattern SAMPLE_LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** One alert rule of the doc. */
    private record Rule(String alert, String expr, String annotations) {
    }

    /** One series of the scrape: its name and labels. */
    private record Series(String name, Map<String, String> labels) {
    }

    @Test
    void everyExpressionUsesSeriesThatARealPoolExposes() throws Exception {
        List<Rule> rules = rules();
        assertThat(rules).extracting(Rule::alert).contains("SlotPoolBorrowTimeouts", "SlotPoolOriginDown",
                "SlotPoolBorrowersWaiting", "SlotPoolCreationFailures", "SlotPoolSaturated",
                "SlotPoolOriginRefusingNewSessions", "SlotPoolReplicaLag");
        List<Series> scrape = scrape();
        for (Rule rule : rules) {
            String expr = rule.expr();
            Set<String> grouping = new HashSet<>();
            Matcher g = GROUPING.matcher(expr);
            while (g.find()) {
                for (String label : g.group(2).split(",")) {
                    grouping.add(label.trim());
                }
            }
            Set<String> names = new HashSet<>();
            // Label matchers and groupings are read apart; durations and strings hold no metric name.
            String selectors = GROUPING.matcher(expr).replaceAll(" ").replaceAll("\\[[^]]*]", " ");
            Matcher m = SELECTOR.matcher(selectors);
            while (m.find()) {
                String name = m.group(1);
                boolean function = m.group(4) != null && m.group(2) == null;
                if (function || KEYWORDS.contains(name.toLowerCase()) || afterADigit(selectors, m.start())) {
                    continue;
                }
                names.add(name);
                List<Series> series = scrape.stream().filter(s -> s.name().equals(name)).toList();
                assertThat(series).as("%s: metric %s in a real pool's scrape", rule.alert(), name).isNotEmpty();
                Matcher l = MATCHER.matcher(m.group(3) == null ? "" : m.group(3));
                while (l.find()) {
                    String label = l.group(1);
                    String value = l.group(3);
                    boolean equality = "=".equals(l.group(2));
                    assertThat(series).as("%s: %s with label %s%s", rule.alert(), name, label,
                                    equality ? "=\"" + value + "\"" : "")
                            .anyMatch(s -> s.labels().containsKey(label)
                                    && (!equality || value.equals(s.labels().get(label))));
                }
            }
            assertThat(names).as("%s: metric names in %s", rule.alert(), expr).isNotEmpty();
            Set<String> labels = new HashSet<>(grouping);
            Matcher a = ANNOTATION_LABEL.matcher(rule.annotations());
            while (a.find()) {
                labels.add(a.group(1));
            }
            for (String label : labels) {
                assertThat(scrape).as("%s: label %s on every metric of %s", rule.alert(), label, expr)
                        .filteredOn(s -> names.contains(s.name()))
                        .allMatch(s -> s.labels().containsKey(label));
            }
        }
    }

    /** An identifier right after a digit is part of a number (1e3), not a name. */
    private static boolean afterADigit(String text, int at) {
        return at > 0 && Character.isDigit(text.charAt(at - 1));
    }

    static final Path RULES = Path.of("../docs/prometheus/slotpool-alerts.yml");

    @Test
    void operationsMdShowsTheShippedRulesWhole() throws Exception {
        String doc = Files.readString(Path.of("../docs/operations.md"));
        int start = doc.indexOf("## Prometheus alert rules");
        assertThat(start).as("section in operations.md").isNotNegative();
        Matcher block = YAML_BLOCK.matcher(doc);
        assertThat(block.find(start)).as("a yaml block in the section").isTrue();
        String shipped = Files.readString(RULES).lines().filter(l -> !l.startsWith("#"))
                .collect(Collectors.joining("\n", "", "\n"));
        assertThat(block.group(1)).isEqualTo(shipped);
    }

    @SuppressWarnings("unchecked")
    private static List<Rule> rules() throws Exception {
        Map<String, Object> yaml = new Yaml().load(Files.readString(RULES));
        List<Rule> rules = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) yaml.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                assertThat(rule).containsKeys("alert", "expr", "annotations");
                rules.add(new Rule((String) rule.get("alert"), String.valueOf(rule.get("expr")),
                        String.valueOf(rule.get("annotations"))));
            }
        }
        return rules;
    }

    /** The scrape of a registry a real pool's SlotPoolMetrics registered into, after one borrow. */
    private static List<Series> scrape() {
        List<Series> series = new ArrayList<>();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class,
                        DataSourceAutoConfiguration.class, MetricsAutoConfiguration.class,
                        SlotPoolMetricsAutoConfiguration.class))
                .withBean(MeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                .withPropertyValues("slotpool.name=alerts", "slotpool.min-size=1", "slotpool.max-size=2",
                        "slotpool.origins[0].name=east",
                        "slotpool.origins[0].url=" + StubDatabase.reset("alerts-east").url(),
                        "slotpool.origins[1].name=west",
                        "slotpool.origins[1].url=" + StubDatabase.reset("alerts-west").url())
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    try (Connection c = ctx.getBean(SlotPoolDataSource.class).getConnection()) {
                        assertThat(c.isValid(1)).isTrue();
                    }
                    String text = ((PrometheusMeterRegistry) ctx.getBean(MeterRegistry.class)).scrape();
                    for (String line : text.split("\n")) {
                        Matcher m = SAMPLE.matcher(line);
                        if (line.startsWith("#") || !m.matches()) {
                            continue;
                        }
                        Map<String, String> labels = new LinkedHashMap<>();
                        Matcher l = SAMPLE_LABEL.matcher(m.group(3) == null ? "" : m.group(3));
                        while (l.find()) {
                            labels.put(l.group(1), l.group(2));
                        }
                        series.add(new Series(m.group(1), labels));
                    }
                });
        assertThat(series).as("series in the scrape").isNotEmpty();
        return series;
    }
}
