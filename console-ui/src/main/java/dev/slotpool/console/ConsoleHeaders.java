package dev.slotpool.console;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * The headers of every console answer, with or without Spring Security (which sends its own): no page of another
 * site may frame the console ({@code X-Frame-Options: DENY}, CSP {@code frame-ancestors 'none'}), no answer is
 * sniffed into another type ({@code nosniff}), and none but the assets is stored ({@code Cache-Control: no-store}:
 * the page carries the actions' token, its data the pool's state).
 */
final class ConsoleHeaders implements HandlerInterceptor {

    private final String assets;

    ConsoleHeaders(String path) {
        this.assets = path + "/assets/";
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Content-Security-Policy", "frame-ancestors 'none'");
        response.setHeader("X-Content-Type-Options", "nosniff");
        if (!request.getRequestURI().startsWith(request.getContextPath() + assets)) {
            response.setHeader("Cache-Control", "no-store");
        }
        return true;
    }
}
