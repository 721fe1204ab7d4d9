package dev.slotpool.autoconfigure.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Refuses (403, {@code {"status", "error", "message"}}) a request other than GET, HEAD or OPTIONS to the paths it
 * is mapped to (the console and the pool endpoint) unless {@link TrustedHosts} accepts its {@code Host} and
 * {@code Origin}. Mapped by the container, so it sees the path as the container dispatches it.
 */
final class ActionHostFilter extends HttpFilter {

    private final TrustedHosts hosts;

    ActionHostFilter(TrustedHosts hosts) {
        this.hosts = hosts;
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String method = request.getMethod();
        String refusal = method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS") ? null
                : hosts.refusal(request.getHeader("Host"), request.getHeader("Origin"));
        if (refusal == null) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        response.setContentType("application/json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write("{\"status\":403,\"error\":\"Forbidden\",\"message\":\"" + json(refusal
                + " (slotpool reference: The admin console, Security model)") + "\"}");
    }

    private static String json(String text) {
        StringBuilder b = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
