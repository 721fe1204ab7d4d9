package dev.slotpool.console;

import dev.slotpool.autoconfigure.SlotPoolProperties;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpMethod;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.context.support.WebApplicationContextUtils;

/**
 * Request matchers for an application's security chain, at the configured {@code slotpool.console.path}
 * (read from the request's application context on first use, so the chain need not know it). The library
 * registers no chain; docs/console.md shows the recommended one: viewers read, operators act, CSRF on.
 * A matcher only matches: who may act is decided by {@code slotpool.operator-roles} (docs/console.md, Security
 * model), so no rule that uses these matchers, however composed, grants an action by itself.
 *
 * <pre>{@code
 * .requestMatchers(SlotPoolConsoleRequest.toConsoleActions()).hasRole("ADMIN")
 * .requestMatchers(SlotPoolConsoleRequest.toConsole()).hasAnyRole("VIEWER", "ADMIN")
 * }</pre>
 *
 * Loads Spring Security classes: use it only with Spring Security on the class path.
 */
public final class SlotPoolConsoleRequest {

    private SlotPoolConsoleRequest() {
    }

    /** Every request to the console: the page, its snapshot, stream, slot details, assets and actions. */
    public static RequestMatcher toConsole() {
        return new ConsoleMatcher(false);
    }

    /**
     * What only operators get: every request below the console's path but a GET or HEAD (the actions, whatever the
     * method) and a slot's detail by any method ({@code {path}/origins/{origin}/slots/{index}}, which names the
     * holder thread, labels and borrow stack).
     */
    public static RequestMatcher toConsoleActions() {
        return new ConsoleMatcher(true);
    }

    private static final class ConsoleMatcher implements RequestMatcher {

        private final boolean actions;
        private volatile RequestMatcher delegate;

        private ConsoleMatcher(boolean actions) {
            this.actions = actions;
        }

        @Override
        public boolean matches(HttpServletRequest request) {
            RequestMatcher d = delegate;
            if (d == null) {
                // Racy but benign: two first requests may each build the same matcher.
                d = build(path(request));
                delegate = d;
            }
            return d.matches(request);
        }
        private RequestMatcher build(String path) {
            PathPatternRequestMatcher.Builder paths = PathPatternRequestMatcher.withDefaults();
            if (!actions) {
                return paths.matcher(path + "/**");
            }
            // Every method: a HEAD of a slot's detail runs its GET, and only a read (GET, HEAD) of the rest is not
            // an action.
            RequestMatcher below = paths.matcher(path + "/**");
            RequestMatcher notARead = request -> !HttpMethod.GET.matches(request.getMethod())
                    && !HttpMethod.HEAD.matches(request.getMethod()) && below.matches(request);
            return new OrRequestMatcher(notARead, paths.matcher(path + "/origins/*/slots/*"));
        }

        private static String path(HttpServletRequest request) {
            WebApplicationContext context = WebApplicationContextUtils
                    .getRequiredWebApplicationContext(request.getServletContext());
            SlotPoolProperties properties = context.getBeanProvider(SlotPoolProperties.class).getIfAvailable();
            return properties == null ? new SlotPoolProperties.Console().getPath() : properties.getConsole().getPath();
        }

        @Override
        public String toString() {
            return "SlotPoolConsoleRequest " + (actions ? "actions" : "any request") + " "
                    + (delegate == null ? "(path on first use)" : delegate);
        }
    }
}
