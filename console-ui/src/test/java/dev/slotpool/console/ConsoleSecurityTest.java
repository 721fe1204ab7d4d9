package dev.slotpool.console;

import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.http.MediaType;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.IpAddressMatcher;
import org.springframework.security.web.util.matcher.NegatedRequestMatcher;
import org.springframework.test.web.servlet.request.RequestPostProcessor;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import static dev.slotpool.console.ConsoleTestSupport.consoleToken;
import static dev.slotpool.console.ConsoleTestSupport.runner;
import static dev.slotpool.console.ConsoleTestSupport.states;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.config.Customizer.withDefaults;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.security.test.web.servlet.setup.SecurityMockMvcConfigurers.springSecurity;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The chain docs/console.md recommends, built with {@link SlotPoolConsoleRequest}: viewers read, admins act, CSRF
 * on. The library registers no chain of its own; this test's configuration is the application's.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.springframework.boot.test.system.OutputCaptureExtension.class)
class ConsoleSecurityTest {

    /** The application names the role that may act (docs/console.md, Security model). */
    private static final String OPERATORS = "slotpool.operator-roles=ADMIN";

    @Test
    void viewersReadAdminsActWithACsrfToken(org.springframework.boot.test.system.CapturedOutput output) {
        runner("security").withUserConfiguration(Chain.class).withPropertyValues(OPERATORS).run(ctx -> {
            assertThat(ctx).hasNotFailed().hasSingleBean(SecurityFilterChain.class);
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            MockMvc mvc = MockMvcBuilders.webAppContextSetup(ctx).apply(springSecurity()).build();

            mvc.perform(get("/slotpool")).andExpect(status().isFound()).andExpect(redirectedUrl("/login"));
            mvc.perform(get("/slotpool/snapshot")).andExpect(status().isFound());
            mvc.perform(post("/slotpool/origins/east/down").with(csrf())).andExpect(status().isFound());

            String page = mvc.perform(get("/slotpool").with(user("viewer").roles("VIEWER"))).andExpect(status().isOk())
                    .andReturn().getResponse().getContentAsString();
            assertThat(page).contains("<meta name=\"_csrf\" content=\"", "<meta name=\"_csrf_header\" content=\"X-CSRF-TOKEN\"")
                    .as("a viewer gets no buttons and no console token")
                    .doesNotContain("name=\"_csrf\" value=\"", "slotpool-console-token");
            assertThat(mvc.perform(get("/slotpool").with(user("admin").roles("ADMIN"))).andReturn().getResponse()
                    .getContentAsString()).contains("name=\"_csrf\" value=\"", "<meta name=\"slotpool-console-token\"");
            mvc.perform(get("/slotpool/snapshot").with(user("viewer").roles("VIEWER"))).andExpect(status().isOk());
            mvc.perform(get("/slotpool/assets/console.css").with(user("viewer").roles("VIEWER"))).andExpect(status().isOk());
            mvc.perform(post("/slotpool/origins/east/down").with(user("viewer").roles("VIEWER")).with(csrf()))
                    .andExpect(status().isForbidden());
            mvc.perform(eastToWest().with(user("viewer").roles("VIEWER")).with(csrf())).andExpect(status().isForbidden());
            assertThat(states(pool)).containsEntry("east", "UP");

            mvc.perform(post("/slotpool/origins/east/down").with(user("admin").roles("ADMIN")))
                    .andExpect(status().isForbidden());
            mvc.perform(post("/slotpool/origins/east/down").with(user("admin").roles("ADMIN")).with(csrf().useInvalidToken()))
                    .andExpect(status().isForbidden());
            assertThat(states(pool)).containsEntry("east", "UP");

            // Spring Security's token alone is not the console's: an action needs the page's token too.
            mvc.perform(post("/slotpool/origins/east/down").with(user("admin").roles("ADMIN")).with(csrf()))
                    .andExpect(status().isForbidden())
                    .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString("no console token")));
            mvc.perform(eastToWest().with(user("admin").roles("ADMIN")).with(csrf()))
                    .andExpect(status().isForbidden())
                    .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString("no console token")));
            RequestPostProcessor token = consoleToken(mvc, user("admin").roles("ADMIN"));
            // The admin's switchover passes every rule and reaches the engine, which refuses servers without roles.
            mvc.perform(eastToWest().with(user("admin").roles("ADMIN")).with(csrf()).with(token))
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString(
                            "'east' is not a primary in service")));
            assertThat(states(pool)).containsEntry("east", "UP");
            mvc.perform(post("/slotpool/origins/east/down").with(user("admin").roles("ADMIN")).with(csrf()).with(token))
                    .andExpect(status().isOk());
            assertThat(states(pool)).containsEntry("east", "DOWN");
            // The audit line names the user Spring Security authenticated and the door (docs/console.md, Audit log).
            assertThat(output.getAll()).contains("pool console-security: down 'east' via console, user 'admin': marked DOWN");
            mvc.perform(post("/slotpool/origins/east/up").with(user("admin").roles("ADMIN")).with(csrf().asHeader())
                            .with(token))
                    .andExpect(status().isOk());
            assertThat(states(pool)).containsEntry("east", "UP");

            // A slot's detail names its holder: only those who may act get it.
            try (java.sql.Connection held = pool.getConnection()) {
                String slot = pool.snapshot().origins().stream().flatMap(o -> o.slots().stream()
                                .filter(x -> Thread.currentThread().getName().equals(x.holderThread()))
                                .map(x -> "/slotpool/origins/" + o.name() + "/slots/" + x.index()))
                        .findFirst().orElseThrow();
                mvc.perform(get(slot).with(user("viewer").roles("VIEWER"))).andExpect(status().isForbidden());
                mvc.perform(get(slot).with(user("admin").roles("ADMIN"))).andExpect(status().isOk())
                        .andExpect(jsonPath("$.holder.thread").value(Thread.currentThread().getName()));
            }
        });
    }

    /**
     * The history and the event log's download are reads: viewers get them, anonymous users are sent to the login;
     * a LEAK event's holder for nobody, the admin included. A bad filter is refused with its message.
     */
    @Test
    void viewersReadTheHistoryAndTheEventLogWhichNamesNoHolder() {
        runner("security-history").withUserConfiguration(Chain.class).withPropertyValues(OPERATORS).run(ctx -> {
            assertThat(ctx).hasNotFailed();
            ctx.getBean(ConsoleEventLog.class).onEvent(new dev.slotpool.PoolEvent(dev.slotpool.PoolEvent.Type.LEAK,
                    "east", null, "connection held by thread 'worker-7' for 61000 ms; left with its holder",
                    java.time.Instant.now()));
            MockMvc mvc = MockMvcBuilders.webAppContextSetup(ctx).apply(springSecurity()).build();
            for (String read : new String[] {"/slotpool/history", "/slotpool/events", "/slotpool/events?type=LEAK"}) {
                mvc.perform(get(read)).andExpect(status().isFound()).andExpect(redirectedUrl("/login"));
                mvc.perform(get(read).with(user("viewer").roles("VIEWER"))).andExpect(status().isOk());
            }
            mvc.perform(get("/slotpool/events").param("type", "LEAK").with(user("viewer").roles("VIEWER")))
                    .andExpect(jsonPath("$.events[0].detail").value(ConsoleViews.LEAK_WITHHELD));
            mvc.perform(get("/slotpool/events").param("type", "LEAK").with(user("admin").roles("ADMIN")))
                    .andExpect(jsonPath("$.events[0].detail").value(ConsoleViews.LEAK_WITHHELD));
            mvc.perform(get("/slotpool/events").param("type", "NOPE").with(user("viewer").roles("VIEWER")))
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.startsWith("unknown type 'NOPE'")));
        });
    }

    /**
     * An application that adds Spring Security but writes no chain gets Boot's default one: every request needs a
     * login, CSRF tokens are checked, so anonymous users neither read nor act, and a forged post changes nothing.
     * A logged-in user reads but may not act: it holds no operator role.
     */
    @Test
    void bootsDefaultChainNeedsALoginAndACsrfToken() {
        runner("default-chain")
                .withConfiguration(AutoConfigurations.of(SecurityAutoConfiguration.class,
                        ServletWebSecurityAutoConfiguration.class, UserDetailsServiceAutoConfiguration.class))
                .withPropertyValues(OPERATORS).run(ctx -> {
                    assertThat(ctx).hasNotFailed().hasSingleBean(SecurityFilterChain.class);
                    SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
                    MockMvc mvc = MockMvcBuilders.webAppContextSetup(ctx).apply(springSecurity()).build();
                    for (String read : new String[] {"/slotpool", "/slotpool/snapshot", "/slotpool/stream",
                            "/slotpool/origins/east/slots/0"}) {
                        int status = mvc.perform(get(read)).andReturn().getResponse().getStatus();
                        assertThat(status).as("anonymous GET %s", read).isIn(302, 401);
                    }
                    mvc.perform(post("/slotpool/origins/east/down").with(csrf())).andExpect(status().isUnauthorized());
                    mvc.perform(post("/slotpool/origins/east/down").with(user("someone"))).andExpect(status().isForbidden());
                    assertThat(states(pool)).containsEntry("east", "UP");

                    mvc.perform(get("/slotpool").with(user("someone"))).andExpect(status().isOk());
                    // Logged in with a valid token, but without an operator role: refused.
                    mvc.perform(post("/slotpool/origins/east/down").with(user("someone")).with(csrf()))
                            .andExpect(status().isForbidden())
                            .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString(
                                    "slotpool.operator-roles")));
                    assertThat(states(pool)).containsEntry("east", "UP");
                });
    }

    /**
     * The cross-site attack (docs/console.md, "Security model") against an application whose chain skips CSRF for the console's actions (as an API
     * would) and grants them to admins: another site's page the admin has open posts with the admin's session.
     * The console's own token refuses it; the action matcher in the chain grants nothing by itself.
     */
    @Test
    void aCrossSitePostIsRefusedWithSpringSecurity() {
        runner("csrf-only").withUserConfiguration(CsrfOnlyChain.class).withPropertyValues(OPERATORS).run(ctx -> {
            assertThat(ctx).hasNotFailed();
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            MockMvc mvc = MockMvcBuilders.webAppContextSetup(ctx).apply(springSecurity()).build();
            mvc.perform(post("/slotpool/origins/east/down").with(user("admin").roles("ADMIN"))
                            .header("Origin", "http://evil.example").header("Sec-Fetch-Site", "cross-site"))
                    .andExpect(status().isForbidden())
                    .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString("cross-site request")));
            mvc.perform(eastToWest().with(user("admin").roles("ADMIN"))
                            .header("Origin", "http://evil.example").header("Sec-Fetch-Site", "cross-site"))
                    .andExpect(status().isForbidden())
                    .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString("cross-site request")));
            mvc.perform(post("/slotpool/origins/east/down").with(user("admin").roles("ADMIN"))
                            .contentType(MediaType.APPLICATION_FORM_URLENCODED))
                    .andExpect(status().isForbidden())
                    .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString("no console token")));
            assertThat(states(pool)).containsEntry("east", "UP");
            mvc.perform(post("/slotpool/origins/east/down").with(user("admin").roles("ADMIN"))
                    .with(consoleToken(mvc, user("admin").roles("ADMIN")))).andExpect(status().isOk());
            assertThat(states(pool)).containsEntry("east", "DOWN");
        });
    }

    /**
     * A rule that composes the action matcher (with an address, or negated) and a later
     * {@code anyRequest().authenticated()} let every logged-in user act before: the matcher marked the request
     * whenever it was asked. Now only an operator role acts; the chain's matchers grant nothing.
     */
    @Test
    void compositeMatchersGrantNothing() {
        for (Class<?> chain : new Class<?>[] {AddressChain.class, NegatedChain.class}) {
            runner("composite").withUserConfiguration(chain).withPropertyValues(OPERATORS).run(ctx -> {
                assertThat(ctx).hasNotFailed();
                SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
                MockMvc mvc = MockMvcBuilders.webAppContextSetup(ctx).apply(springSecurity()).build();
                mvc.perform(post("/slotpool/origins/east/down").with(user("viewer").roles("VIEWER")).with(csrf()))
                        .andExpect(status().isForbidden());
                mvc.perform(eastToWest().with(user("viewer").roles("VIEWER")).with(csrf()))
                        .andExpect(status().isForbidden());
                assertThat(states(pool)).as(chain.getSimpleName()).containsEntry("east", "UP");
                try (java.sql.Connection held = pool.getConnection()) {
                    assertThat(mvc.perform(get("/slotpool/snapshot").with(user("viewer").roles("VIEWER")))
                            .andReturn().getResponse().getContentAsString())
                            .doesNotContain(Thread.currentThread().getName());
                }
            });
        }
    }

    /** The console's switchover button for east, to west: a form, as the page sends it. */
    private static MockHttpServletRequestBuilder eastToWest() {
        return post("/slotpool/origins/east/switchover").contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .param("to", "west");
    }

    /** Actions for ADMIN from 10.0.0.0/8 only, then every logged-in user for the rest. */
    @Configuration(proxyBeanMethods = false)
    @EnableWebSecurity
    static class AddressChain {

        @Bean
        SecurityFilterChain pages(HttpSecurity http) throws Exception {
            http.authorizeHttpRequests(requests -> requests
                            .requestMatchers(new AndRequestMatcher(SlotPoolConsoleRequest.toConsoleActions(),
                                    new IpAddressMatcher("10.0.0.0/8"))).hasRole("ADMIN")
                            .anyRequest().authenticated())
                    .formLogin(withDefaults());
            return http.build();
        }
    }

    /** Everything but the actions for every logged-in user, then every logged-in user for the rest. */
    @Configuration(proxyBeanMethods = false)
    @EnableWebSecurity
    static class NegatedChain {

        @Bean
        SecurityFilterChain pages(HttpSecurity http) throws Exception {
            http.authorizeHttpRequests(requests -> requests
                            .requestMatchers(new NegatedRequestMatcher(SlotPoolConsoleRequest.toConsoleActions()))
                            .authenticated()
                            .anyRequest().authenticated())
                    .formLogin(withDefaults());
            return http.build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableWebSecurity
    static class CsrfOnlyChain {

        @Bean
        SecurityFilterChain pages(HttpSecurity http) throws Exception {
            http.authorizeHttpRequests(requests -> requests
                            .requestMatchers(SlotPoolConsoleRequest.toConsoleActions()).hasRole("ADMIN")
                            .anyRequest().authenticated())
                    .csrf(csrf -> csrf.ignoringRequestMatchers(SlotPoolConsoleRequest.toConsoleActions()))
                    .formLogin(withDefaults());
            return http.build();
        }
    }

    /** The recommended chain (docs/console.md), as an application writes it. */
    @Configuration(proxyBeanMethods = false)
    @EnableWebSecurity
    static class Chain {

        @Bean
        SecurityFilterChain pages(HttpSecurity http) throws Exception {
            http.authorizeHttpRequests(requests -> requests
                            .requestMatchers(SlotPoolConsoleRequest.toConsoleActions()).hasRole("ADMIN")
                            .requestMatchers(SlotPoolConsoleRequest.toConsole()).hasAnyRole("VIEWER", "ADMIN")
                            .anyRequest().authenticated())
                    .formLogin(withDefaults());
            return http.build();
        }

        @Bean
        UserDetailsService users() {
            return new InMemoryUserDetailsManager(
                    User.withUsername("viewer").password("{noop}viewer-demo").roles("VIEWER").build(),
                    User.withUsername("admin").password("{noop}admin-demo").roles("ADMIN").build());
        }
    }
}
