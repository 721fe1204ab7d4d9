package dev.slotpool.autoconfigure.endpoint;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.InvocationContext;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.core.convert.support.ConfigurableConversionService;
import tools.jackson.databind.json.JsonMapper;

import java.security.Principal;
import java.sql.Connection;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /actuator/pool/{origin}} invoked as Actuator invokes it, for a reader: who holds a connection (thread,
 * labels, borrow stack) only for a reader who may act, as in the console; URLs by Boot's show-values rule
 * (docs/console.md, Security model). Spring Security is not on this module's class path, so whoever may post to an
 * unrestricted endpoint may act.
 */
class PoolEndpointReadersTest {

    private static final SecurityContext VIEWER = new SecurityContext() {
        @Override
        public Principal getPrincipal() {
            return () -> "viewer";
        }

        @Override
        public boolean isUserInRole(String role) {
            return "VIEWER".equals(role);
        }
    };

    private final WebApplicationContextRunner web = new WebApplicationContextRunner()
            .withInitializer(ctx -> ctx.getEnvironment().setConversionService(
                    (ConfigurableConversionService) ApplicationConversionService.getSharedInstance()))
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class,
                    EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
                    PoolEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=pool", "slotpool.leak-tracing=true",
                    "slotpool.min-size=1", "slotpool.max-size=2");

    private static String[] origin(String test) {
        return new String[] {"slotpool.name=" + test, "slotpool.origins[0].name=east",
                "slotpool.origins[0].url=" + StubDatabase.reset(test + "-east").url()};
    }

    /** The read operation {@code pool/{origin}} answered for {@code reader}, as JSON. */
    private static String readOrigin(ApplicationContext ctx, SecurityContext reader) {
        WebOperation read = ctx.getBean(WebEndpointsSupplier.class).getEndpoints().stream()
                .filter(e -> e.getEndpointId().equals(EndpointId.of("pool")))
                .flatMap(e -> e.getOperations().stream())
                .filter(o -> o.getType() == OperationType.READ && o.getRequestPredicate().getPath().contains("{"))
                .findFirst().orElseThrow();
        Object answer = read.invoke(new InvocationContext(reader, Map.of("origin", "east")));
        Object body = answer instanceof WebEndpointResponse<?> r ? r.getBody() : answer;
        return JsonMapper.builder().build().writeValueAsString(body);
    }

    @Test
    void aReaderOfAReadOnlyEndpointSeesNoHolderAndNoStack() {
        web.withPropertyValues(origin("readers-ro")).run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            try (Connection held = pool.getConnection()) {
                String thread = Thread.currentThread().getName();
                assertThat(pool.snapshot().origins().get(0).slots()).as("the engine knows the holder")
                        .anySatisfy(s -> assertThat(s.holderThread()).isEqualTo(thread));
                for (SecurityContext reader : new SecurityContext[] {SecurityContext.NONE, VIEWER}) {
                    String json = readOrigin(ctx, reader);
                    assertThat(json).contains("\"state\":\"BORROWED\"").doesNotContain(thread)
                            .doesNotContain("borrowStack\":\"").doesNotContain("PoolEndpointReadersTest");
                }
            }
        });
    }

    /**
     * Without Spring Security whoever reaches an unrestricted endpoint may post, but nobody is known to hold an
     * operator role, so no reader sees a holder: the one holder rule of both doors (docs/console.md, Security model).
     */
    @Test
    void withoutSpringSecurityEvenWhoMayPostSeesNoHolder() {
        web.withPropertyValues(origin("readers-rw")).withPropertyValues("management.endpoint.pool.access=unrestricted")
                .run(ctx -> {
                    SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
                    try (Connection held = pool.getConnection()) {
                        assertThat(readOrigin(ctx, SecurityContext.NONE)).contains("\"state\":\"BORROWED\"")
                                .doesNotContain(Thread.currentThread().getName())
                                .doesNotContain("PoolEndpointReadersTest");
                    }
                });
    }

    @Test
    void maxPermittedReadOnlyHidesTheHolderEvenFromAnUnrestrictedEndpoint() {
        web.withPropertyValues(origin("readers-cap")).withPropertyValues("management.endpoint.pool.access=unrestricted",
                "management.endpoints.access.max-permitted=read-only").run(ctx -> {
                    SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
                    try (Connection held = pool.getConnection()) {
                        assertThat(readOrigin(ctx, SecurityContext.NONE)).doesNotContain(Thread.currentThread().getName());
                    }
                });
    }

    /** Boot's show-values rule: never by default (masked), always (shown through the sanitizing functions). */
    @Test
    void urlsFollowShowValues() {
        web.withPropertyValues(origin("readers-url")).run(ctx -> assertThat(readOrigin(ctx, VIEWER))
                .contains("\"url\":\"******\"").doesNotContain("jdbc:"));
        web.withPropertyValues(origin("readers-url-when")).withPropertyValues(
                "management.endpoint.pool.show-values=when-authorized", "management.endpoint.pool.roles=OPS").run(ctx -> {
                    assertThat(readOrigin(ctx, VIEWER)).contains("\"url\":\"******\"");
                    assertThat(readOrigin(ctx, SecurityContext.NONE)).contains("\"url\":\"******\"");
                });
        web.withPropertyValues(origin("readers-url-always")).withPropertyValues(
                "management.endpoint.pool.show-values=always").run(ctx -> assertThat(readOrigin(ctx, VIEWER))
                .contains("\"url\":\"jdbc:"));
    }
}
