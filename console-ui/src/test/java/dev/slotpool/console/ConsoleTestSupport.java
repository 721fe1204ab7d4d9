package dev.slotpool.console;

import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.testsupport.StubDatabase;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.thymeleaf.autoconfigure.ThymeleafAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;

import jakarta.servlet.http.Cookie;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.support.ConfigurableConversionService;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.fail;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/** A web context with the console on a three-origin pool over stub databases, without booting an app (rule 15). */
final class ConsoleTestSupport {

    /** Deadline of every poll: generous for a loaded 2-core machine. */
    static final Duration PATIENCE = Duration.ofSeconds(30);

    static final Map<String, Integer> CONFIGURED_WEIGHTS = Map.of("east", 50, "west", 30, "north", 20);

    private ConsoleTestSupport() {
    }

    /**
     * Spring MVC, Jackson, Thymeleaf, the pool and the console, turned on, with the pool endpoint's access
     * unrestricted (which the console obeys); origins east, west, north on fresh stubs.
     */
    static WebApplicationContextRunner runner(String test) {
        return bareRunner(test).withPropertyValues("slotpool.console.enabled=true",
                "management.endpoint.pool.access=unrestricted");
    }

    /** {@link #runner} without the console's switch and the endpoint's access. */
    static WebApplicationContextRunner bareRunner(String test) {
        return new WebApplicationContextRunner()
                // As SpringApplication does, so "unrestricted" and "read-only" bind as the docs write them.
                .withInitializer(ctx -> ctx.getEnvironment().setConversionService(
                        (ConfigurableConversionService) ApplicationConversionService.getSharedInstance()))
                .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class,
                        SlotPoolConsoleAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
                        WebMvcAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class,
                        JacksonAutoConfiguration.class, ThymeleafAutoConfiguration.class))
                .withPropertyValues("slotpool.name=console-" + test, "slotpool.min-size=3", "slotpool.max-size=6",
                        "slotpool.housekeeping-period=100ms",
                        "slotpool.origins[0].instance=east-1", "slotpool.origins[0].host=db-east")
                .withPropertyValues(origin(0, test, "east", 50))
                .withPropertyValues(origin(1, test, "west", 30))
                .withPropertyValues(origin(2, test, "north", 20));
    }

    private static String[] origin(int i, String test, String name, int weight) {
        String url = StubDatabase.reset(test + "-" + name).url();
        String p = "slotpool.origins[" + i + "].";
        return new String[] {p + "name=" + name, p + "url=" + url, p + "weight=" + weight};
    }

    /**
     * The console token the page gives the reader {@code as} (its cookie and header), for an action; nothing when
     * the page gives none (a reader who may not act).
     */
    static RequestPostProcessor consoleToken(MockMvc mvc, RequestPostProcessor... as) throws Exception {
        MockHttpServletRequestBuilder page = get("/slotpool");
        for (RequestPostProcessor p : as) {
            page = page.with(p);
        }
        MvcResult r = mvc.perform(page).andReturn();
        Cookie cookie = r.getResponse().getCookie(ConsoleToken.COOKIE);
        Matcher token = Pattern.compile("<meta name=\"slotpool-console-token\" content=\"([^\"]+)\"")
                .matcher(r.getResponse().getContentAsString());
        if (cookie == null || !token.find()) {
            return request -> request;
        }
        String value = token.group(1);
        return request -> {
            request.setCookies(cookie);
            request.addHeader(ConsoleToken.HEADER, value);
            return request;
        };
    }

    /** A token that differs from {@code token} in its first character, whatever that character is. */
    static String forged(String token) {
        return (token.charAt(0) == 'A' ? "B" : "A") + token.substring(1);
    }

    /** Polls the pool's snapshot until it satisfies the condition, failing at the deadline. */
    static PoolSnapshot awaitPool(SlotPoolDataSource pool, String what, Predicate<PoolSnapshot> condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        PoolSnapshot s = pool.snapshot();
        while (!condition.test(s)) {
            if (System.nanoTime() > deadline) {
                fail("pool never got to: " + what + "; last: " + s.summary());
            }
            Thread.sleep(20);
            s = pool.snapshot();
        }
        return s;
    }

    /** Three origins, each with at least one connection: what the page tests draw. */
    static PoolSnapshot awaitWarm(SlotPoolDataSource pool) throws InterruptedException {
        return awaitPool(pool, "3 connections", s -> s.total() >= 3);
    }

    static Map<String, Integer> weights(SlotPoolDataSource pool) {
        return pool.snapshot().origins().stream().collect(Collectors.toMap(o -> o.name(), o -> o.weight()));
    }

    static Map<String, String> states(SlotPoolDataSource pool) {
        return pool.snapshot().origins().stream().collect(Collectors.toMap(o -> o.name(), o -> o.state().name()));
    }
}
