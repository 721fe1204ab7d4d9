package dev.slotpool.sample.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Caps every request body at {@link #MAX_BODY} bytes, before Spring Security or anything else reads it. Every
 * body this app takes (a login, the load form, a pool action as JSON or as a console form) is a few short fields;
 * neither Spring MVC nor the library caps a JSON body, so without this a 5 MB action with padding would be read
 * in full and served. A declared length above the cap answers 413 at once; a chunked body fails its read past the
 * cap (Spring MVC answers 400). Form bodies are parsed by Tomcat itself, which also caps them
 * ({@code server.tomcat.max-http-form-post-size}, 2 MB by default).
 */
@Configuration(proxyBeanMethods = false)
class RequestSizeLimit {

    static final int MAX_BODY = 64 * 1024;

    /** Before Spring Security's chain (order -100), so no filter parses an oversized form for a CSRF token. */
    static final int ORDER = -200;

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> requestSizeLimitFilter() {
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(new Limit());
        registration.setOrder(ORDER);
        return registration;
    }

    private static final class Limit extends OncePerRequestFilter {

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            long declared = request.getContentLengthLong();
            if (declared > MAX_BODY) {
                response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
                response.setContentType(MediaType.APPLICATION_JSON_VALUE);
                response.setCharacterEncoding(StandardCharsets.UTF_8.name());
                response.getWriter().write("{\"status\":413,\"error\":\"Content Too Large\",\"message\":\"the body is "
                        + declared + " bytes; this app reads at most " + MAX_BODY + "\"}");
                return;
            }
            chain.doFilter(declared < 0 ? new Bounded(request) : request, response);
        }
    }

    /** A body of unknown length whose reads fail once they pass the cap. */
    private static final class Bounded extends HttpServletRequestWrapper {

        Bounded(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            ServletInputStream in = super.getInputStream();
            return new ServletInputStream() {
                private long read;

                @Override
                public int read() throws IOException {
                    int b = in.read();
                    count(b < 0 ? 0 : 1);
                    return b;
                }

                @Override
                public int read(byte[] buffer, int offset, int length) throws IOException {
                    int n = in.read(buffer, offset, length);
                    count(Math.max(n, 0));
                    return n;
                }

                private void count(int n) throws IOException {
                    read += n;
                    if (read > MAX_BODY) {
                        throw new IOException("request body above " + MAX_BODY + " bytes");
                    }
                }

                @Override
                public boolean isFinished() {
                    return in.isFinished();
                }

                @Override
                public boolean isReady() {
                    return in.isReady();
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    in.setReadListener(listener);
                }
            };
        }
    }
}
