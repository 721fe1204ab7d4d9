package dev.slotpool.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real HTTP against the running app: requests as {@link User#ANONYMOUS}, or with HTTP Basic as a demo user, or in
 * a {@link Session} opened through the login form (a session cookie and CSRF tokens read from the pages).
 * Redirects are not followed, so tests see the 302 to the login page.
 */
final class Http {

    /** The demo users with the passwords README.md documents. */
    enum User {
        ANONYMOUS(null, null), VIEWER("viewer", "viewer-demo"), ADMIN("admin", "admin-demo");

        final String name;
        final String password;

        User(String name, String password) {
            this.name = name;
            this.password = password;
        }
    }

    record Response(int status, Map<String, List<String>> headers, String body) {

        Optional<String> header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream()).findFirst();
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    private static final Pattern CSRF_INPUT = Pattern.compile("<input[^>]*name=\"_csrf\"[^>]*>");
    private static final Pattern VALUE = Pattern.compile("value=\"([^\"]+)\"");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    Http(int port) {
        this.base = "http://localhost:" + port;
    }

    Response get(String path, User user) {
        return send(request(path, user, null).GET());
    }

    Response head(String path, User user) {
        return send(request(path, user, null).method("HEAD", HttpRequest.BodyPublishers.noBody()));
    }

    Response postJson(String path, String json, User user) {
        return post(path, "application/json", json, user);
    }

    Response post(String path, String contentType, String body, User user) {
        return send(request(path, user, null).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** A POST whose body has no declared length: the client sends it chunked. */
    Response postChunked(String path, String contentType, String body, User user) {
        return send(request(path, user, null).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new java.io.ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)))));
    }

    Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r = client.send(request.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.headers().map(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpRequest.Builder request(String path, User user, String cookie) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path));
        if (user.name != null) {
            String credentials = user.name + ":" + user.password;
            b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return b;
    }

    /** A browser session that has not logged in. */
    Session session() {
        return new Session(null);
    }

    /** Logs in through the form as a browser does: fetch the login page, post it with its CSRF token. */
    Session login(User user) {
        Session anonymous = new Session(null);
        Response page = anonymous.get("/login");
        assertThat(page.status()).as("login page").isEqualTo(200);
        Response done = anonymous.postForm("/login", Map.of("username", user.name, "password", user.password,
                "_csrf", csrfToken(page.body())));
        assertThat(done.status()).as("login answer %s", done).isEqualTo(302);
        assertThat(done.header("Location")).as("no login error").hasValueSatisfying(l -> assertThat(l).doesNotContain("error"));
        assertThat(anonymous.cookie).as("session cookie").isNotNull();
        return anonymous;
    }

    /** The CSRF token of the first form on the page. */
    static String csrfToken(String html) {
        // A page without forms (the console for a viewer) carries the token in its _csrf meta tag.
        Matcher meta = java.util.regex.Pattern.compile("<meta name=\"_csrf\" content=\"([^\"]+)\"").matcher(html);
        if (!CSRF_INPUT.matcher(html).find() && meta.find()) {
            return meta.group(1);
        }
        Matcher input = CSRF_INPUT.matcher(html);
        assertThat(input.find()).as("a form with a CSRF token in %s", html).isTrue();
        Matcher value = VALUE.matcher(input.group());
        assertThat(value.find()).as("a token value in %s", input.group()).isTrue();
        return value.group(1);
    }

    static String form(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    /**
     * A browser session: keeps the session cookie the app sets (it changes at login), and as a browser running the
     * console page does, the console's cookie and token (docs/console.md, Security model), which it sends with
     * every post below {@code /slotpool/}.
     */
    final class Session {

        private static final java.util.regex.Pattern CONSOLE_TOKEN =
                java.util.regex.Pattern.compile("<meta name=\"slotpool-console-token\" content=\"([^\"]+)\"");

        private String cookie;
        private String consoleCookie;
        private String consoleToken;

        private Session(String cookie) {
            this.cookie = cookie;
        }

        Response get(String path) {
            Response r = keepCookie(send(request(path, User.ANONYMOUS, cookies()).GET()));
            java.util.regex.Matcher token = CONSOLE_TOKEN.matcher(r.body());
            if (token.find()) {
                consoleToken = token.group(1);
            }
            return r;
        }

        /** A request of any method without a body, as this session. */
        Response call(String method, String path) {
            return keepCookie(Http.this.send(request(path, User.ANONYMOUS, cookies())
                    .method(method, HttpRequest.BodyPublishers.noBody())));
        }

        private String cookies() {
            return consoleCookie == null ? cookie : cookie == null ? consoleCookie : cookie + "; " + consoleCookie;
        }

        Response postForm(String path, Map<String, String> fields) {
            return post(path, "application/x-www-form-urlencoded", form(fields));
        }

        Response post(String path, String contentType, String body) {
            return post(path, contentType, body, Map.of());
        }

        Response post(String path, String contentType, String body, Map<String, String> headers) {
            HttpRequest.Builder r = request(path, User.ANONYMOUS, cookies()).header("Content-Type", contentType);
            headers.forEach(r::header);
            if (consoleToken != null && path.startsWith("/slotpool/")) {
                r.header("X-Slotpool-Console-Token", consoleToken);
            }
            return keepCookie(send(r.POST(HttpRequest.BodyPublishers.ofString(body))));
        }

        /**
         * The start of a server-sent event stream up to its first complete event (the lines up to the first blank
         * line after a {@code data:} line); the stream is closed then.
         */
        Response firstEvent(String path) {
            try {
                HttpResponse<java.io.InputStream> r = client.send(request(path, User.ANONYMOUS, cookies())
                        .header("Accept", "text/event-stream").timeout(TIMEOUT).GET().build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                StringBuilder event = new StringBuilder();
                try (java.io.BufferedReader lines = new java.io.BufferedReader(
                        new java.io.InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                    boolean data = false;
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        event.append(line).append('\n');
                        data |= line.startsWith("data:");
                        if (data && line.isEmpty()) {
                            break;
                        }
                    }
                }
                return new Response(r.statusCode(), r.headers().map(), event.toString());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        /** Fetches a page and returns the CSRF token of its first form. */
        String csrfTokenOf(String page) {
            Response r = get(page);
            assertThat(r.status()).as("GET %s", page).isEqualTo(200);
            return csrfToken(r.body());
        }

        private Response keepCookie(Response r) {
            r.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("Set-Cookie"))
                    .flatMap(e -> e.getValue().stream())
                    .forEach(c -> {
                        String pair = c.substring(0, c.indexOf(';') < 0 ? c.length() : c.indexOf(';'));
                        if (c.startsWith("JSESSIONID=")) {
                            cookie = pair;
                        } else if (c.startsWith("SLOTPOOL_CONSOLE=")) {
                            consoleCookie = pair;
                        }
                    });
            return r;
        }
    }
}
