package dev.slotpool.autoconfigure.jmx;

import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.autoconfigure.endpoint.PoolEndpointAutoConfiguration;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.jmx.JmxEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jmx.JmxAutoConfiguration;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.convert.support.ConfigurableConversionService;

import javax.management.JMException;
import javax.management.MBeanFeatureInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.sql.Connection;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The pool over JMX, as HikariCP's {@code registerMbeans} users and Boot's JMX endpoint users reach it: found by
 * ObjectName in the context's MBeanServer, read and invoked there, nothing else.
 */
class PoolJmxTest {

    private static final String STRING = String.class.getName();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            // As SpringApplication does, so "unrestricted" binds as the docs write it.
            .withInitializer(ctx -> ctx.getEnvironment().setConversionService(
                    (ConfigurableConversionService) ApplicationConversionService.getSharedInstance()))
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class,
                    JmxAutoConfiguration.class, EndpointAutoConfiguration.class, JmxEndpointAutoConfiguration.class,
                    PoolEndpointAutoConfiguration.class, PoolMBeansAutoConfiguration.class));

    private static String[] twoOrigins(String name) {
        return new String[] {
                "spring.jmx.enabled=true",
                "slotpool.name=" + name, "slotpool.min-size=2", "slotpool.max-size=4",
                "slotpool.origins[0].name=east", "slotpool.origins[0].url=" + StubDatabase.reset(name + "-east").url(),
                "slotpool.origins[1].name=west", "slotpool.origins[1].url=" + StubDatabase.reset(name + "-west").url()};
    }

    private static ObjectName name(String text) throws JMException {
        return new ObjectName(text);
    }

    @Test
    void poolAndOriginMBeansReadAndActWhenTheApplicationGrantsIt() {
        runner.withPropertyValues(twoOrigins("jmx-act"))
                .withPropertyValues("management.endpoint.pool.access=unrestricted").run(ctx -> {
                    MBeanServer server = ctx.getBean(MBeanServer.class);
                    ObjectName pool = name("dev.slotpool:type=Pool,name=jmx-act");
                    ObjectName east = name("dev.slotpool:type=Origin,pool=jmx-act,name=east");
                    assertThat(server.queryNames(name("dev.slotpool:*"), null)).containsExactlyInAnyOrder(pool, east,
                            name("dev.slotpool:type=Origin,pool=jmx-act,name=west"));

                    try (Connection held = ctx.getBean(javax.sql.DataSource.class).getConnection()) {
                        assertThat(server.getAttribute(pool, "MaxSize")).isEqualTo(4);
                        assertThat(server.getAttribute(pool, "Borrowed")).isEqualTo(1);
                        assertThat(server.getAttribute(pool, "ActiveConnections")).isEqualTo(1);
                        assertThat(server.getAttribute(pool, "Borrows")).isEqualTo(1L);
                        assertThat(server.getAttribute(pool, "Timeouts")).isEqualTo(0L);
                    }
                    assertThat(server.getAttribute(east, "State")).isEqualTo("UP");

                    Object drained = server.invoke(east, "drain", new Object[] {"1s"}, new String[] {STRING});
                    assertThat(drained).asString().startsWith("draining");
                    waitFor(() -> attribute(server, east, "State").equals("DOWN"), "east drained to DOWN");
                    assertThat(server.getAttribute(east, "StateReason")).asString().contains("drain");

                    server.invoke(east, "markUp", new Object[0], new String[0]);
                    waitFor(() -> attribute(server, east, "State").equals("UP"), "east UP again");

                    server.invoke(pool, "markDown", new Object[] {"west"}, new String[] {STRING});
                    assertThat(server.getAttribute(name("dev.slotpool:type=Origin,pool=jmx-act,name=west"), "State"))
                            .isEqualTo("DOWN");
                    assertThatThrownBy(() -> server.invoke(pool, "markUp", new Object[] {"nowhere"},
                            new String[] {STRING})).hasStackTraceContaining("nowhere");
                });
    }

    @Test
    void readOnlyByDefaultAndNoneWithAccessNone() {
        runner.withPropertyValues(twoOrigins("jmx-read")).run(ctx -> {
            MBeanServer server = ctx.getBean(MBeanServer.class);
            ObjectName pool = name("dev.slotpool:type=Pool,name=jmx-read");
            // The context starts without waiting for the pool to fill (docs/architecture.md, "Creation"); read
            // the attribute until the two connections min-size asks for are open.
            waitFor(() -> Integer.valueOf(2).equals(attribute(server, pool, "TotalConnections")),
                    "TotalConnections reaching min-size 2");
            assertThat(server.getMBeanInfo(pool).getOperations()).isEmpty();
            assertThat(server.getMBeanInfo(name("dev.slotpool:type=Origin,pool=jmx-read,name=east"))
                    .getOperations()).isEmpty();
        });
        runner.withPropertyValues(twoOrigins("jmx-none")).withPropertyValues("management.endpoint.pool.access=none")
                .run(ctx -> assertThat(ctx.getBean(MBeanServer.class).queryNames(name("dev.slotpool:*"), null))
                        .isEmpty());
    }

    @Test
    void noMBeansWithoutSpringJmxEnabled() {
        runner.withPropertyValues(twoOrigins("jmx-off")).withPropertyValues("spring.jmx.enabled=false")
                .run(ctx -> assertThat(java.lang.management.ManagementFactory.getPlatformMBeanServer()
                        .queryNames(name("dev.slotpool:*"), null)).isEmpty());
    }

    @Test
    void mbeansLeaveWithTheContext() throws Exception {
        MBeanServer[] server = new MBeanServer[1];
        runner.withPropertyValues(twoOrigins("jmx-gone")).run(ctx -> {
            server[0] = ctx.getBean(MBeanServer.class);
            assertThat(server[0].queryNames(name("dev.slotpool:*"), null)).hasSize(3);
        });
        assertThat(server[0].queryNames(name("dev.slotpool:*"), null)).isEmpty();
    }

    @Test
    void thePoolEndpointOverJmx() {
        ApplicationContextRunner jmx = runner.withPropertyValues(twoOrigins("jmx-endpoint"))
                .withPropertyValues("management.endpoints.jmx.exposure.include=pool");
        jmx.run(ctx -> {
            MBeanServer server = ctx.getBean(MBeanServer.class);
            ObjectName endpoint = name("org.springframework.boot:type=Endpoint,name=Pool");
            assertThat(operations(server, endpoint)).containsExactlyInAnyOrder("pool", "origin");
            Map<?, ?> view = (Map<?, ?>) server.invoke(endpoint, "pool", new Object[] {null}, new String[] {STRING});
            assertThat(view.get("name")).isEqualTo("jmx-endpoint");
            Map<?, ?> east = (Map<?, ?>) server.invoke(endpoint, "origin", new Object[] {"east", null},
                    new String[] {STRING, STRING});
            assertThat(east.get("state")).isEqualTo("UP");
            assertThatThrownBy(() -> server.invoke(endpoint, "origin", new Object[] {"nowhere", null},
                    new String[] {STRING, STRING})).hasStackTraceContaining("unknown origin 'nowhere'");
        });
        jmx.withPropertyValues("management.endpoint.pool.access=unrestricted").run(ctx -> {
            MBeanServer server = ctx.getBean(MBeanServer.class);
            ObjectName endpoint = name("org.springframework.boot:type=Endpoint,name=Pool");
            assertThat(operations(server, endpoint)).containsExactlyInAnyOrder("pool", "origin", "poolAction",
                    "originAction");
            Map<?, ?> result = (Map<?, ?>) server.invoke(endpoint, "originAction",
                    new Object[] {"east", "down", null, null, null},
                    new String[] {STRING, STRING, STRING, STRING, STRING});
            assertThat(result.get("action")).isEqualTo("down");
            assertThat(ctx.getBean(dev.slotpool.SlotPoolDataSource.class).snapshot().origin("east").orElseThrow()
                    .state()).hasToString("DOWN");
        });
    }

    private static Set<String> operations(MBeanServer server, ObjectName name) throws JMException {
        MBeanOperationInfo[] ops = server.getMBeanInfo(name).getOperations();
        return Set.copyOf(Arrays.stream(ops).map(MBeanFeatureInfo::getName).toList());
    }

    private static Object attribute(MBeanServer server, ObjectName name, String attribute) {
        try {
            return server.getAttribute(name, attribute);
        } catch (JMException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("timed out waiting for: " + what).isLessThan(deadline);
            Thread.sleep(10);
        }
    }
}
