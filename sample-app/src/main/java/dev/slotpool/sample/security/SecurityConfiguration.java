package dev.slotpool.sample.security;

import dev.slotpool.console.SlotPoolConsoleRequest;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.util.StringUtils;

import static org.springframework.security.config.Customizer.withDefaults;

/**
 * Two users and two filter chains. {@code viewer} (VIEWER) reads; {@code admin} (ADMIN) also acts on the pool
 * and the load generator. The Actuator chain answers HTTP Basic (401 when anonymous); the page chain uses a
 * login form (a redirect to {@code /login} when anonymous) and CSRF tokens. A session from the login form is
 * honoured by both, so a logged-in browser can follow the home page's links to the endpoints.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    static final String VIEWER = "VIEWER";
    static final String ADMIN = "ADMIN";

    /**
     * {@code /actuator/**}, least privilege: health for everyone; the links and GET of the endpoints a viewer needs
     * (pool, metrics, prometheus) for VIEWER or ADMIN; GET of any other exposed endpoint and POST to the pool
     * endpoint for ADMIN; nothing else. So an endpoint exposed later ({@code env}, {@code heapdump}) is never a
     * viewer's, and no other endpoint's write is anyone's, until a rule names it.
     */
    @Bean
    @Order(1)
    SecurityFilterChain actuatorChain(HttpSecurity http) throws Exception {
        http.securityMatcher(EndpointRequest.toAnyEndpoint())
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers(EndpointRequest.to("health")).permitAll()
                        .requestMatchers(EndpointRequest.toLinks()).hasAnyRole(VIEWER, ADMIN)
                        .requestMatchers(EndpointRequest.to("pool", "metrics", "prometheus")
                                .withHttpMethod(HttpMethod.GET)).hasAnyRole(VIEWER, ADMIN)
                        .requestMatchers(EndpointRequest.toAnyEndpoint().withHttpMethod(HttpMethod.GET)).hasRole(ADMIN)
                        .requestMatchers(EndpointRequest.to("pool").withHttpMethod(HttpMethod.POST))
                        .hasRole(ADMIN)
                        .anyRequest().denyAll())
                .httpBasic(withDefaults())
                // An API client that is refused gets a 401, not a saved request in a new session.
                .requestCache(cache -> cache.disable())
                // CSRF protection is off for the Actuator endpoints only. Their write operations (the pool
                // endpoint's drain, down, up, rebalance) accept only JSON bodies (application/json or the
                // Actuator media type): a cross-site HTML form can send only text/plain, urlencoded or multipart
                // bodies, which are refused with 415 before anything runs, and a cross-site script can send JSON
                // only after a CORS preflight, which fails because this app configures no CORS. So a forged
                // request cannot reach a write operation, while API clients (curl, scripts) need no token.
                // The sample's tests check both claims (CsrfChecks: crossSiteBodiesAreRefusedByTheEndpoint,
                // aCrossSitePreflightIsNotAllowed).
                .csrf(csrf -> csrf.disable());
        return http.build();
    }

    /**
     * Pages: login required, POST /load for ADMIN only, CSRF tokens on every form. The admin console
     * ({@code slotpool.console.path}, default /slotpool): VIEWER or ADMIN read it, only ADMIN posts its actions,
     * with CSRF tokens like every page (docs/console.md).
     */
    @Bean
    @Order(2)
    SecurityFilterChain pageChain(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(requests -> requests
                        .requestMatchers("/error").permitAll()
                        .requestMatchers(HttpMethod.POST, "/load").hasRole(ADMIN)
                        .requestMatchers(SlotPoolConsoleRequest.toConsoleActions()).hasRole(ADMIN)
                        .requestMatchers(SlotPoolConsoleRequest.toConsole()).hasAnyRole(VIEWER, ADMIN)
                        .anyRequest().authenticated())
                .formLogin(withDefaults())
                .logout(withDefaults());
        return http.build();
    }

    /** Spring Security's delegating encoder: stores {@code {bcrypt}...}, reads any supported {@code {id}} form. */
    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    UserDetailsService users(SampleSecurityProperties properties, PasswordEncoder encoder) {
        if (!StringUtils.hasText(properties.getViewerPassword()) || !StringUtils.hasText(properties.getAdminPassword())) {
            throw new IllegalStateException("sample.security.viewer-password and sample.security.admin-password "
                    + "must not be blank");
        }
        return new InMemoryUserDetailsManager(
                User.withUsername("viewer").password(encoder.encode(properties.getViewerPassword())).roles(VIEWER).build(),
                User.withUsername("admin").password(encoder.encode(properties.getAdminPassword())).roles(ADMIN).build());
    }
}
