package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.endpoint.PoolEndpoint;
import dev.slotpool.autoconfigure.endpoint.PoolEndpointAutoConfiguration;
import dev.slotpool.autoconfigure.health.SlotPoolHealthAutoConfiguration;
import dev.slotpool.autoconfigure.health.SlotPoolHealthIndicator;
import dev.slotpool.autoconfigure.metrics.SlotPoolMetrics;
import dev.slotpool.autoconfigure.metrics.SlotPoolMetricsAutoConfiguration;
import dev.slotpool.testsupport.StubDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.metrics.DataSourcePoolMetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.core.convert.support.ConfigurableConversionService;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Meters, health and the endpoint's conditions, each with the pieces of Boot it plugs into. */
class ActuatorIntegrationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class,
                    MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, DataSourcePoolMetricsAutoConfiguration.class,
                    SlotPoolMetricsAutoConfiguration.class, SlotPoolHealthAutoConfiguration.class,
                    EndpointAutoConfiguration.class, PoolEndpointAutoConfiguration.class));

    private static String[] twoOrigins(String prefix) {
        return new String[] {
                "slotpool.name=" + prefix,
                "slotpool.min-size=2", "slotpool.max-size=4",
                "slotpool.origins[0].name=east", "slotpool.origins[0].url=" + StubDatabase.reset(prefix + "-east").url(),
                "slotpool.origins[1].name=west", "slotpool.origins[1].url=" + StubDatabase.reset(prefix + "-west").url(),
                "spring.datasource.password=meter-secret"};
    }

    @Test
    void metersAreTaggedWithPoolAndOriginAndFollowThePool() {
        runner.withPropertyValues(twoOrigins("metered")).run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            MeterRegistry registry = ctx.getBean(MeterRegistry.class);
            assertThat(ctx).hasSingleBean(SlotPoolMetrics.class);
            for (int i = 0; i < 10; i++) {
                try (Connection c = pool.getConnection()) {
                    assertThat(c.isValid(1)).isTrue();
                }
            }
            Timer east = registry.find("slotpool.borrow.wait").tags("pool", "metered", "origin", "east").timer();
            Timer west = registry.find("slotpool.borrow.wait").tags("pool", "metered", "origin", "west").timer();
            assertThat(east).isNotNull();
            assertThat(west).isNotNull();
            assertThat(east.count() + west.count()).isEqualTo(10);
            assertThat(east.takeSnapshot().percentileValues()).hasSize(3);
            double borrows = registry.find("slotpool.borrows").tag("pool", "metered").functionCounters().stream()
                    .mapToDouble(c -> c.count()).sum();
            assertThat(borrows).isEqualTo(10);
            assertThat(registry.find("slotpool.connections.opened").tag("origin", "east").counter()).isNotNull();
            assertThat(registry.get("slotpool.origin.state").tags("origin", "east", "state", "UP").gauge().value())
                    .isEqualTo(1);

            pool.markDown("west");
            // The counter appears with the first close, which the pool's closer thread reports.
            waitFor(() -> {
                var closed = registry.find("slotpool.connections.closed")
                        .tags("origin", "west", "reason", "ORIGIN_NOT_UP").counter();
                return closed != null && closed.count() > 0;
            }, "west's connections counted as closed with reason ORIGIN_NOT_UP");
            waitFor(() -> registry.get("slotpool.origin.state").tags("origin", "west", "state", "DOWN").gauge().value()
                    == 1, "west DOWN in the state gauge");
            assertThat(registry.get("slotpool.connections.max").tag("pool", "metered").gauge().value()).isEqualTo(4);

            // Boot's own jdbc.connections.* meters work through the metadata provider.
            assertThat(registry.get("jdbc.connections.max").gauge().value()).isEqualTo(4);
            assertThat(registry.get("jdbc.connections.min").gauge().value()).isEqualTo(2);

            registry.getMeters().forEach(m -> assertThat(m.getId().toString()).doesNotContain("meter-secret"));
        });
    }

    @Test
    void statementCacheResultsAreCountedPerOrigin() {
        runner.withPropertyValues("spring.datasource.url=" + StubDatabase.reset("statements-metered").url(),
                "slotpool.name=stmts", "slotpool.min-size=1", "slotpool.max-size=1",
                "slotpool.statement-cache-size=4").run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            MeterRegistry registry = ctx.getBean(MeterRegistry.class);
            try (Connection c = pool.getConnection()) {
                for (int i = 0; i < 3; i++) {
                    c.prepareStatement("select 1").close();
                }
            }
            for (String[] expected : new String[][] {{"hit", "2"}, {"miss", "1"}, {"eviction", "0"}}) {
                assertThat(registry.get("slotpool.statements.cache").tags("pool", "stmts", "result", expected[0])
                        .functionCounter().count()).as(expected[0]).isEqualTo(Double.parseDouble(expected[1]));
            }
        });
    }

    @Test
    void everyMeterSurvivesPrometheusNaming() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class,
                        DataSourceAutoConfiguration.class, MetricsAutoConfiguration.class,
                        SlotPoolMetricsAutoConfiguration.class))
                .withBean(MeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                .withPropertyValues(twoOrigins("prom"))
                .run(ctx -> {
                    SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
                    try (Connection c = pool.getConnection()) {
                        assertThat(c.isValid(1)).isTrue();
                    }
                    PrometheusMeterRegistry registry = (PrometheusMeterRegistry) ctx.getBean(MeterRegistry.class);
                    waitFor(() -> registry.scrape().contains("slotpool_connections_opened_total"), "opened counter");
                    String scrape = registry.scrape();
                    for (String line : List.of(
                            "slotpool_connections{origin=\"east\",pool=\"prom\",state=\"available\"}",
                            "slotpool_connections{origin=\"west\",pool=\"prom\",state=\"borrowed\"}",
                            "slotpool_connections_waiting{pool=\"prom\"}",
                            "slotpool_borrow_wait_seconds{origin=\"east\",pool=\"prom\",quantile=\"0.99\"}",
                            "slotpool_borrow_wait_seconds_count{origin=",
                            "slotpool_borrows_total{origin=\"east\",pool=\"prom\"}",
                            "slotpool_statements_cache_total{origin=\"east\",pool=\"prom\",result=\"hit\"}",
                            "slotpool_borrow_timeouts_total{pool=\"prom\"}",
                            "slotpool_connections_usage_seconds_count{origin=",
                            "slotpool_connections_opened_total{origin=\"east\",pool=\"prom\"}",
                            "slotpool_connections_creation_failures_total{origin=\"east\",pool=\"prom\"}",
                            "slotpool_origin_state{origin=\"east\",pool=\"prom\",state=\"UP\"} 1",
                            "slotpool_origin_weight{origin=\"west\",pool=\"prom\"}")) {
                        assertThat(scrape).as("scrape has %s", line).contains(line);
                    }
                    assertThat(scrape).doesNotContain("meter-secret");
                });
    }

    @Test
    void anOriginFirstSeenAtRuntimeGetsItsMeters() {
        runner.withPropertyValues(twoOrigins("runtime-origin")).run(ctx -> {
            SlotPoolMetrics metrics = ctx.getBean(SlotPoolMetrics.class);
            MeterRegistry registry = ctx.getBean(MeterRegistry.class);
            metrics.onBorrow("discovered-3", TimeUnit.MILLISECONDS.toNanos(2));
            assertThat(registry.get("slotpool.borrow.wait").tags("origin", "discovered-3").timer().count())
                    .isEqualTo(1);
            assertThat(registry.find("slotpool.connections").tags("origin", "discovered-3", "state", "borrowed")
                    .gauge()).isNotNull();
        });
    }

    @Test
    void noMetricsWithoutARegistry() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class,
                        DataSourceAutoConfiguration.class, SlotPoolMetricsAutoConfiguration.class))
                .withPropertyValues(twoOrigins("no-registry"))
                .run(ctx -> {
                    assertThat(ctx).hasSingleBean(SlotPoolDataSource.class);
                    assertThat(ctx).doesNotHaveBean(SlotPoolMetrics.class);
                });
    }

    @Test
    void healthIsUpWhileAnyOriginServesAndDownWhenNoneDoes() {
        runner.withPropertyValues(twoOrigins("health")).run(ctx -> {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            SlotPoolHealthIndicator indicator = ctx.getBean(SlotPoolHealthIndicator.class);
            Health up = indicator.health();
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsKeys("total", "available", "borrowed", "waiting", "origins");
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> origins = (Map<String, Map<String, Object>>) up.getDetails().get("origins");
            assertThat(origins).containsOnlyKeys("east", "west");
            assertThat(origins.get("east")).containsKeys("state", "total", "available", "borrowed", "weight");

            pool.drain("east", Duration.ZERO);
            assertThat(indicator.health().getStatus()).as("west still serves").isEqualTo(Status.UP);
            pool.markDown("west");
            Health down = indicator.health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("reason", "no origin is UP");
            pool.markUp("west");
            assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
            assertThat(up.toString() + down).doesNotContain("meter-secret");
        });
    }

    /** Reading a snapshot starts a bean-style pool; the contributor must not start it, nor fail on it. */
    @Test
    void healthOfABeanStylePoolNotStartedYetIsUnknownAndLeavesItUnstarted() {
        SlotPoolDataSource unstarted = new SlotPoolDataSource();
        unstarted.setUrl(StubDatabase.reset("health-unstarted").url());
        Health health = new SlotPoolHealthIndicator(unstarted).health();
        assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
        assertThat(health.getDetails()).containsEntry("reason", "not started: the pool starts at its first use");
        assertThat(unstarted.isStarted()).isFalse();
        unstarted.close();
    }

    @Test
    void healthCanBeSwitchedOff() {
        runner.withPropertyValues(twoOrigins("no-health")).withPropertyValues("management.health.slotpool.enabled=false")
                .run(ctx -> assertThat(ctx).doesNotHaveBean(SlotPoolHealthIndicator.class));
    }

    @Test
    void theEndpointExistsOnlyWhenExposed() {
        runner.withPropertyValues(twoOrigins("hidden")).run(ctx -> assertThat(ctx).doesNotHaveBean(PoolEndpoint.class));
        runner.withPropertyValues(twoOrigins("exposed"))
                .withPropertyValues("management.endpoints.web.exposure.include=pool")
                .run(ctx -> assertThat(ctx).hasSingleBean(PoolEndpoint.class));
    }

    /**
     * The starter's default: the endpoint, once exposed, serves its reads only; its writes (drain, down, up,
     * rebalance) exist only when the application grants {@code unrestricted}, and {@code none} removes it.
     */
    @Test
    void theEndpointIsReadOnlyUnlessTheApplicationGrantsMore() {
        WebApplicationContextRunner web = new WebApplicationContextRunner()
                // As SpringApplication does, so "unrestricted" binds as the docs write it.
                .withInitializer(ctx -> ctx.getEnvironment().setConversionService(
                        (ConfigurableConversionService) ApplicationConversionService.getSharedInstance()))
                .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class,
                        DataSourceAutoConfiguration.class, EndpointAutoConfiguration.class,
                        WebEndpointAutoConfiguration.class, PoolEndpointAutoConfiguration.class))
                .withPropertyValues(twoOrigins("access"))
                .withPropertyValues("management.endpoints.web.exposure.include=pool");
        web.run(ctx -> assertThat(poolOperations(ctx)).containsOnly(OperationType.READ).hasSize(2));
        web.withPropertyValues("management.endpoint.pool.access=unrestricted")
                .run(ctx -> assertThat(poolOperations(ctx)).containsOnly(OperationType.READ, OperationType.WRITE)
                        .hasSize(4));
        web.withPropertyValues("management.endpoint.pool.access=none").run(ctx -> {
            assertThat(ctx).doesNotHaveBean(PoolEndpoint.class);
            assertThat(poolOperations(ctx)).isEmpty();
        });
    }

    private static List<OperationType> poolOperations(org.springframework.context.ApplicationContext ctx) {
        return ctx.getBean(WebEndpointsSupplier.class).getEndpoints().stream()
                .filter(e -> e.getEndpointId().equals(EndpointId.of("pool")))
                .flatMap(e -> e.getOperations().stream()).map(WebOperation::getType).toList();
    }

    @Test
    void nothingOfOursWhenTheDataSourceIsNotSlotpool() {
        runner.withPropertyValues(twoOrigins("off")).withPropertyValues("slotpool.enabled=false",
                        "spring.datasource.url=" + StubDatabase.reset("off-default").url(),
                        "management.endpoints.web.exposure.include=pool")
                .run(ctx -> {
                    assertThat(ctx).doesNotHaveBean(SlotPoolDataSource.class);
                    assertThat(ctx).doesNotHaveBean(SlotPoolMetrics.class);
                    assertThat(ctx).doesNotHaveBean(SlotPoolHealthIndicator.class);
                    assertThat(ctx).doesNotHaveBean(PoolEndpoint.class);
                });
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.onSpinWait();
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
