package dev.slotpool.bench.jmh;

import dev.slotpool.bench.PoolKind;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns a JMH JSON result file ({@code -rf json -rff FILE}) into a Markdown table, printed and written to
 * {@code summary.md}, and a bar chart {@code jmh.png}: score ± error per benchmark and pool, bytes allocated per
 * operation when the run had {@code -prof gc}, and each pool's speed relative to HikariCP.
 *
 * <p>Usage: {@code JmhReport [result.json [outDir]]}, by default {@code target/jmh-result.json} (JMH does not
 * create folders, and {@code target/} exists after a build) and {@code results/jmh}. The result file is copied
 * into {@code outDir} too, so the raw numbers stay next to the summary.
 */
public final class JmhReport {

    static final String BASELINE = PoolKind.HIKARI.id();
    /** Benchmarks without a pool parameter (OriginsBenchmark) run on slotpool alone. */
    static final String DEFAULT_POOL = PoolKind.SLOTPOOL.id();

    private JmhReport() {
    }

    public static void main(String[] args) throws IOException {
        Path json = Path.of(args.length > 0 ? args[0] : "target/jmh-result.json");
        Path outDir = Path.of(args.length > 1 ? args[1] : "results/jmh");
        System.out.print(write(json, outDir));
    }

    /** Writes {@code summary.md}, {@code jmh.png} and a copy of the result file into {@code outDir}. */
    public static String write(Path json, Path outDir) throws IOException {
        List<Row> rows = read(json);
        String markdown = markdown(rows);
        Files.createDirectories(outDir);
        Path copy = outDir.resolve("jmh-result.json");
        if (!Files.exists(copy) || !Files.isSameFile(json, copy)) {
            Files.copy(json, copy, StandardCopyOption.REPLACE_EXISTING);
        }
        Files.writeString(outDir.resolve("summary.md"), markdown);
        List<CategoryChart> charts = charts(rows);
        BitmapEncoder.saveBitmap(charts, charts.size(), 1, outDir.resolve("jmh.png").toString(),
                BitmapEncoder.BitmapFormat.PNG);
        return markdown;
    }

    /**
     * One result.
     *
     * @param benchmark  short name: class without "Benchmark", method, and parameters other than the pool
     * @param bytesPerOp gc.alloc.rate.norm, NaN without {@code -prof gc}
     */
    record Row(String benchmark, String pool, String mode, double score, double error, String unit,
               double bytesPerOp) {
    }

    @SuppressWarnings("unchecked")
    static List<Row> read(Path json) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (Object o : (List<Object>) Json.parse(Files.readString(json))) {
            Map<String, Object> result = (Map<String, Object>) o;
            Map<String, Object> params = (Map<String, Object>) result.getOrDefault("params", Map.of());
            Map<String, Object> primary = (Map<String, Object>) result.get("primaryMetric");
            Map<String, Object> secondary = (Map<String, Object>) result.getOrDefault("secondaryMetrics", Map.of());
            Map<String, Object> alloc = (Map<String, Object>) secondary.get("gc.alloc.rate.norm");
            rows.add(new Row(label((String) result.get("benchmark"), params),
                    (String) params.getOrDefault("pool", DEFAULT_POOL), (String) result.get("mode"),
                    number(primary.get("score")), number(primary.get("scoreError")), (String) primary.get("scoreUnit"),
                    alloc == null ? Double.NaN : number(alloc.get("score"))));
        }
        // JMH lists benchmarks by name, then parameters as given; pools in PoolKind order read best.
        List<String> benchmarks = rows.stream().map(Row::benchmark).distinct().toList();
        rows.sort(Comparator.comparingInt((Row r) -> benchmarks.indexOf(r.benchmark()))
                .thenComparingInt(r -> poolOrder(r.pool())));
        return rows;
    }

    private static String label(String benchmark, Map<String, Object> params) {
        String[] parts = benchmark.split("\\.");
        StringBuilder sb = new StringBuilder(parts[parts.length - 2].replaceFirst("Benchmark$", ""))
                .append('.').append(parts[parts.length - 1]);
        params.forEach((k, v) -> {
            if (!k.equals("pool")) {
                sb.append(' ').append(k).append('=').append(v);
            }
        });
        return sb.toString();
    }

    private static int poolOrder(String pool) {
        for (PoolKind k : PoolKind.values()) {
            if (k.id().equals(pool)) {
                return k.ordinal();
            }
        }
        return PoolKind.values().length;
    }

    static String markdown(List<Row> rows) {
        StringBuilder sb = new StringBuilder()
                .append("| Benchmark | Pool | Score | ± Error | Unit | B/op | vs HikariCP |\n")
                .append("|---|---|--:|--:|---|--:|--:|\n");
        for (Row r : rows) {
            sb.append("| ").append(r.benchmark()).append(" | ").append(r.pool()).append(" | ")
                    .append(format(r.score())).append(" | ").append(format(r.error())).append(" | ")
                    .append(r.unit()).append(" | ").append(format(r.bytesPerOp())).append(" | ")
                    .append(versusBaseline(r, rows)).append(" |\n");
        }
        return sb.append("\nError: JMH's 99.9 % confidence half-width. B/op: gc.alloc.rate.norm (-prof gc). ")
                .append("vs HikariCP: how many times as fast as HikariCP on the same benchmark ")
                .append("(score ratio for throughput, inverted for time per operation).\n").toString();
    }

    private static String versusBaseline(Row r, List<Row> rows) {
        for (Row b : rows) {
            if (b.pool().equals(BASELINE) && b.benchmark().equals(r.benchmark()) && b.mode().equals(r.mode())) {
                double ratio = r.mode().equals("thrpt") ? r.score() / b.score() : b.score() / r.score();
                return String.format(Locale.ROOT, "%.2f×", ratio);
            }
        }
        return "—";
    }

    private static String format(double v) {
        if (Double.isNaN(v)) {
            return "—";
        }
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%,.0f" : Math.abs(v) >= 1 ? "%.2f" : "%.4f", v);
    }

    /**
     * One bar chart per benchmark class (its methods and parameters as groups, a colour per pool), stacked in one
     * image. Log scale: scores span four decades, from UCP to slotpool.
     */
    static List<CategoryChart> charts(List<Row> rows) {
        Map<String, List<Row>> byClass = new LinkedHashMap<>();
        rows.forEach(r -> byClass.computeIfAbsent(r.benchmark().substring(0, r.benchmark().indexOf('.')),
                k -> new ArrayList<>()).add(r));
        List<CategoryChart> charts = new ArrayList<>();
        byClass.forEach((name, classRows) -> charts.add(chart(name, classRows)));
        return charts;
    }

    private static CategoryChart chart(String name, List<Row> classRows) {
        String unit = classRows.get(0).unit();
        List<Row> shown = classRows.stream().filter(r -> r.unit().equals(unit)).toList();
        List<String> benchmarks = shown.stream().map(Row::benchmark).distinct().toList();
        Set<String> pools = new LinkedHashSet<>();
        shown.forEach(r -> pools.add(r.pool()));
        CategoryChart chart = new CategoryChartBuilder().width(1400).height(450)
                .title(name + " (" + unit + (unit.endsWith("/op") ? ", lower" : ", higher") + " is better)")
                .yAxisTitle(unit).build();
        chart.getStyler().setYAxisLogarithmic(true);
        // Bars start at the axis minimum, which a log axis needs above zero; halving keeps the lowest bar visible.
        double lowest = shown.stream().mapToDouble(r -> r.score() - (Double.isNaN(r.error()) ? 0 : r.error()))
                .filter(v -> v > 0).min().orElse(1);
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(lowest / 2))));
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setYAxisDecimalPattern("#,##0.#");
        // A pool missing from a group (a partial run) gets no bar: null, which XChart takes only without error bars.
        boolean complete = shown.size() == benchmarks.size() * pools.size();
        for (String pool : pools) {
            List<Double> scores = new ArrayList<>();
            List<Double> errors = new ArrayList<>();
            for (String b : benchmarks) {
                Row r = shown.stream().filter(x -> x.pool().equals(pool) && x.benchmark().equals(b))
                        .findFirst().orElse(null);
                scores.add(r == null ? null : r.score());
                errors.add(r == null || Double.isNaN(r.error()) ? 0.0 : r.error());
            }
            List<String> groups = benchmarks.stream().map(b -> b.substring(name.length() + 1)).toList();
            if (complete) {
                chart.addSeries(pool, groups, scores, errors);
            } else {
                chart.addSeries(pool, groups, scores);
            }
        }
        return chart;
    }

    private static double number(Object o) {
        if (o instanceof Number n) {
            return n.doubleValue();
        }
        // JMH writes NaN and infinities as strings, JSON having no literal for them.
        return o instanceof String s ? Double.parseDouble(s) : Double.NaN;
    }

    /** Just enough JSON for JMH's result file: objects, arrays, strings, numbers, true, false and null. */
    static final class Json {

        private final String text;
        private int pos;

        private Json(String text) {
            this.text = text;
        }

        static Object parse(String text) {
            Json json = new Json(text);
            Object value = json.value();
            json.skipWhitespace();
            if (json.pos != text.length()) {
                throw json.error("trailing characters");
            }
            return value;
        }

        private Object value() {
            skipWhitespace();
            if (pos >= text.length()) {
                throw error("unexpected end");
            }
            char c = text.charAt(pos);
            return switch (c) {
                case '{' -> object();
                case '[' -> array();
                case '"' -> string();
                case 't' -> literal("true", Boolean.TRUE);
                case 'f' -> literal("false", Boolean.FALSE);
                case 'n' -> literal("null", null);
                default -> number();
            };
        }

        private Map<String, Object> object() {
            Map<String, Object> map = new LinkedHashMap<>();
            pos++;
            if (peek() == '}') {
                pos++;
                return map;
            }
            while (true) {
                skipWhitespace();
                String key = string();
                expect(':');
                map.put(key, value());
                if (next() == '}') {
                    return map;
                }
                pos--;
                expect(',');
            }
        }

        private List<Object> array() {
            List<Object> list = new ArrayList<>();
            pos++;
            if (peek() == ']') {
                pos++;
                return list;
            }
            while (true) {
                list.add(value());
                if (next() == ']') {
                    return list;
                }
                pos--;
                expect(',');
            }
        }

        private String string() {
            if (pos >= text.length() || text.charAt(pos) != '"') {
                throw error("expected a string");
            }
            StringBuilder sb = new StringBuilder();
            for (pos++; pos < text.length(); pos++) {
                char c = text.charAt(pos);
                if (c == '"') {
                    pos++;
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = text.charAt(++pos);
                switch (e) {
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(text.substring(pos + 1, pos + 5), 16));
                        pos += 4;
                    }
                    default -> sb.append(e);
                }
            }
            throw error("unterminated string");
        }

        private Object literal(String word, Object value) {
            if (!text.startsWith(word, pos)) {
                throw error("expected " + word);
            }
            pos += word.length();
            return value;
        }

        private Double number() {
            int start = pos;
            while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
                pos++;
            }
            if (start == pos) {
                throw error("unexpected character");
            }
            return Double.valueOf(text.substring(start, pos));
        }

        private char peek() {
            skipWhitespace();
            return pos < text.length() ? text.charAt(pos) : 0;
        }

        private char next() {
            char c = peek();
            pos++;
            return c;
        }

        private void expect(char c) {
            if (next() != c) {
                throw error("expected '" + c + "'");
            }
        }

        private void skipWhitespace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("JSON: " + what + " at offset " + pos);
        }
    }
}
