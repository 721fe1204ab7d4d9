package dev.slotpool.console;

import dev.slotpool.autoconfigure.SlotPoolProperties;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpMethod;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.context.support.WebApplicationContextUtils;

import java.util.Enumeration;

/**
 * Request matchers for an application's security chain, at the configured {@code slotpool.console.path}
 * (read from the request's application context on first use, so the chain need not know it). The library
 * registers no chain; docs/console.md shows the recommended one: viewers read, admins act, CSRF on.
 * With Spring Security and {@code slotpool.console.actions-enabled} unset, the console acts only on a request that
 * the chain's authorization matched with {@link #toConsoleActions()} (and then granted): no other rule, however
 * permissive, enables an action.
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

    /**
     * {@link AuthorizationFilter} sets a request attribute {@code <filter name>.APPLIED} while it authorizes a
     * request (and until the request leaves it); its name is the class name, or the filter's bean name, which
     * HttpSecurity makes {@code AuthorizationFilter@<hash>}. A match seen with it present is the rule the chain's
     * authorization applies. Should a Spring Security version name it otherwise, no request is marked and every
     * action is refused (ConsoleSecurityTest fails): the safe side.
     */
    private static final String AUTHORIZING_PREFIX = AuthorizationFilter.class.getName();
    private static final String AUTHORIZING_SUFFIX = ".APPLIED";

    /** Every request to the console: the page, its snapshot, stream, slot details, assets and actions. */
    public static RequestMatcher toConsole() {
        return new ConsoleMatcher(false);
    }

    /**
     * What only those who may act get: every POST below the console's path (the actions) and a slot's detail
     * ({@code GET {path}/origins/{origin}/slots/{index}}, which names the holder thread and its borrow stack).
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
            boolean matches = d.matches(request);
            if (matches && actions && authorizing(request)) {
                // The chain authorizes this request by the rule of this matcher; if it is refused, the
                // request never reaches the console.
                request.setAttribute(ConsoleAccess.GRANTED, Boolean.TRUE);
            }
            return matches;
        }

        private static boolean authorizing(HttpServletRequest request) {
            Enumeration<String> names = request.getAttributeNames();
            while (names.hasMoreElements()) {
                String name = names.nextElement();
                if (name.startsWith(AUTHORIZING_PREFIX) && name.endsWith(AUTHORIZING_SUFFIX)) {
                    return true;
                }
            }
            return false;
        }

        private RequestMatcher build(String path) {
            PathPatternRequestMatcher.Builder paths = PathPatternRequestMatcher.withDefaults();
            return actions ? new OrRequestMatcher(paths.matcher(HttpMethod.POST, path + "/**"),
                    paths.matcher(HttpMethod.GET, path + "/origins/*/slots/*"))
                    : paths.matcher(path + "/**");
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
