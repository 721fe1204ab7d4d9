package dev.slotpool;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every link in README.md, CHANGELOG.md and docs/*.md resolves: a relative link names a file of the repository, and
 * its {@code #anchor} a heading (or an {@code id}/{@code name} anchor) of the Markdown file it points to; an
 * http(s) link is well-formed (it is not fetched). Links inside code blocks and code spans are not links.
 */
class DocLinksTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern INLINE = Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\[\\]]*\\])*\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s+\"[^\"]*\")?\\s*$",
            Pattern.MULTILINE);
    private static final Pattern AUTOLINK = Pattern.compile("<((?:https?|mailto):[^>\\s]*)>");
    private static final Pattern HTML_ATTRIBUTE = Pattern.compile("<(?:a|img)\\s[^>]*?(?:href|src)=\"([^\"]*)\"");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$", Pattern.MULTILINE);
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s[^>]*?(?:id|name)=\"([^\"]+)\"");
    private static final Pattern FENCE = Pattern.compile("^\\s{0,3}(```|~~~).*?^\\s{0,3}\\1\\s*$",
            Pattern.MULTILINE | Pattern.DOTALL);
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?!`).*?(?<!`)\\1(?!`)", Pattern.DOTALL);

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void everyLinkInTheReadmeTheChangelogAndTheDocsResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path doc : documents()) {
            for (String target : links(Files.readString(doc))) {
                String problem = problem(doc, target);
                if (problem != null) {
                    broken.add(ROOT.relativize(doc) + ": (" + target + ") " + problem);
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void aBrokenFileAnAnchorThatNoHeadingMakesAndAMalformedUrlAreEachFound() throws IOException {
        Path doc = ROOT.resolve("docs/benchmarks.md");
        assertThat(problem(doc, "architecture.md#turns-fair-and-fast-under-contention")).isNull();
        assertThat(problem(doc, "#at-a-glance")).isNull();
        assertThat(problem(doc, "../README.md")).isNull();
        assertThat(problem(doc, "https://github.com/brettwooldridge/HikariCP")).isNull();
        assertThat(problem(doc, "no-such-file.md")).contains("no such file");
        assertThat(problem(doc, "architecture.md#no-such-heading")).contains("no heading");
        assertThat(problem(doc, "#no-such-heading")).contains("no heading");
        assertThat(problem(doc, "https://exa mple.com/")).contains("malformed");
        assertThat(problem(doc, "https:///path-only")).contains("malformed");
        assertThat(links("see [a](x.md), `[b](y.md)` and\n```\n[c](z.md)\n```\n![d](img/e.png) <https://f.org>"))
                .containsExactly("x.md", "img/e.png", "https://f.org");
    }

    @Test
    void anchorsAreTheHeadingsAsGitHubSpellsThem() {
        assertThat(slug("`turnDuration` on PostgreSQL: throughput bought with the tail"))
                .isEqualTo("turnduration-on-postgresql-throughput-bought-with-the-tail");
        assertThat(slug("10,000 threads: the kernel's futex table, not the pool"))
                .isEqualTo("10000-threads-the-kernels-futex-table-not-the-pool");
        assertThat(slug("[Unreleased]")).isEqualTo("unreleased");
        assertThat(slug("[1.0.0-M1] - 2026-12-01")).isEqualTo("100-m1---2026-12-01");
        assertThat(slug("Set up")).isEqualTo("set-up");
    }

    private static List<Path> documents() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CHANGELOG.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        for (Path doc : docs) {
            assertThat(doc).as("a document the links are checked in").isRegularFile();
        }
        return docs;
    }

    static List<String> links(String markdown) {
        String text = CODE_SPAN.matcher(FENCE.matcher(markdown).replaceAll("")).replaceAll("");
        List<String> found = new ArrayList<>();
        for (Pattern p : List.of(INLINE, REFERENCE, AUTOLINK, HTML_ATTRIBUTE)) {
            Matcher m = p.matcher(text);
            while (m.find()) {
                found.add(m.group(1));
            }
        }
        return found;
    }

    /** What is wrong with the link, or null if it resolves. */
    private String problem(Path doc, String target) throws IOException {
        if (target.isEmpty()) {
            return "empty link";
        }
        if (target.matches("(?i)[a-z][a-z0-9+.-]*:.*")) {
            return wellFormed(target) ? null : "malformed URL";
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        Path file = path.isEmpty() ? doc : doc.getParent().resolve(path).normalize();
        if (!file.startsWith(ROOT) || !Files.exists(file)) {
            return "no such file";
        }
        if (hash < 0) {
            return null;
        }
        String anchor = target.substring(hash + 1);
        if (!file.toString().endsWith(".md")) {
            return "an anchor into a file that is not Markdown";
        }
        return anchorsOf(file).contains(anchor) ? null : "no heading makes this anchor in " + ROOT.relativize(file);
    }

    private static boolean wellFormed(String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            if (scheme.equals("mailto")) {
                return uri.getSchemeSpecificPart().contains("@");
            }
            return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private Set<String> anchorsOf(Path file) throws IOException {
        Set<String> known = anchors.get(file);
        if (known == null) {
            String text = FENCE.matcher(Files.readString(file)).replaceAll("");
            known = new HashSet<>();
            Map<String, Integer> seen = new HashMap<>();
            Matcher h = HEADING.matcher(text);
            while (h.find()) {
                String slug = slug(h.group(1));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                known.add(n == 0 ? slug : slug + "-" + n);
            }
            Matcher a = HTML_ANCHOR.matcher(text);
            while (a.find()) {
                known.add(a.group(1));
            }
            anchors.put(file, known);
        }
        return known;
    }

    /** GitHub's anchor for a heading: its text without links' targets, lower case, punctuation dropped, spaces as -. */
    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "");
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "").replace(' ', '-');
    }
}
