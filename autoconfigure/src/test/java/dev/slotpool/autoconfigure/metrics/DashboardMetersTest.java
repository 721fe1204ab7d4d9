package dev.slotpool.autoconfigure.metrics;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.autoconfigure.observation.SlotPoolObservationAutoConfiguration;
import dev.slotpool.testsupport.StubDatabase;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.sql.Connection;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The meters a dashboard reads, in a Boot context with Boot's metrics and observation auto-configuration and the
 * observation-to-meter handler: one borrow timer whose distribution follows Boot's properties, and HikariCP's names
 * where {@code slotpool.metrics.hikaricp=true}.
 */
class DashboardMetersTest {

    /** Observations become meters, as with Boot's actuator and a metrics registry. */
    @Configuration(proxyBeanMethods = false)
    static class ObservationsAsMeters {
        @Bean
        DefaultMeterObservationHandler meterObservationHandler(MeterRegistry registry) {
            return new DefaultMeterObservationHandler(registry);
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class,
                    MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, ObservationAutoConfiguration.class,
                    SlotPoolObservationAutoConfiguration.class, SlotPoolMetricsAutoConfiguration.class))
            .withUserConfiguration(ObservationsAsMeters.class);

    private ApplicationContextRunner pool(String name) {
        return runner.withPropertyValues("slotpool.name=" + name, "slotpool.min-size=1", "slotpool.max-size=3",
                "spring.datasource.url=" + StubDatabase.reset(name).url());
    }

    private static void borrowOnce(ApplicationContext ctx) throws Exception {
        try (Connection c = ctx.getBean(SlotPoolDataSource.class).getConnection()) {
            assertThat(c.isValid(1)).isTrue();
        }
    }

    private static double[] percentiles(Timer timer) {
        return Arrays.stream(timer.takeSnapshot().percentileValues()).mapToDouble(ValueAtPercentile::percentile)
                .toArray();
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 20 s").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    @Test
    void eachBorrowIsTimedOnceByTheBorrowTimer() {
        pool("dash-once").run(ctx -> {
            borrowOnce(ctx);
            MeterRegistry registry = ctx.getBean(MeterRegistry.class);
            assertThat(registry.get("slotpool.borrow.wait").tag("pool", "dash-once").timer().count()).isEqualTo(1);
            // The observation ran (it is for traces) but makes no meters of its own.
            assertThat(registry.find("slotpool.borrow").meters()).isEmpty();
            assertThat(registry.find("slotpool.borrow.active").meters()).isEmpty();
            assertThat(registry.getMeters()).extracting(m -> m.getId().getName())
                    .noneMatch(n -> n.equals("slotpool.borrow") || n.equals("slotpool.borrow.active"));
            for (Meter m : registry.getMeters()) {
                assertThat(m.getId().getTags()).as(m.getId().getName()).extracting(Tag::getValue)
                        .doesNotContain("none", "unknown");
            }
        });
    }

    @Test
    void theBorrowTimerPublishesP50P95P99UntilBootsDistributionPropertiesSaySomething() {
        pool("dash-default").run(ctx -> {
            borrowOnce(ctx);
            Timer wait = ctx.getBean(MeterRegistry.class).get("slotpool.borrow.wait").timer();
            assertThat(percentiles(wait)).containsExactly(0.5, 0.95, 0.99);
        });
        pool("dash-percentiles").withPropertyValues(
                        "management.metrics.distribution.percentiles.slotpool.borrow.wait=0.9")
                .run(ctx -> {
                    borrowOnce(ctx);
                    Timer wait = ctx.getBean(MeterRegistry.class).get("slotpool.borrow.wait").timer();
                    assertThat(percentiles(wait)).containsExactly(0.9);
                });
        // A server-side histogram (Prometheus histogram_quantile) and no client-side percentiles.
        pool("dash-histogram").withPropertyValues(
                        "management.metrics.distribution.percentiles-histogram.slotpool.borrow=true")
                .withBean(MeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                .run(ctx -> {
                    borrowOnce(ctx);
                    PrometheusMeterRegistry registry = (PrometheusMeterRegistry) ctx.getBean(MeterRegistry.class);
                    assertThat(percentiles(registry.get("slotpool.borrow.wait").timer())).isEmpty();
                    assertThat(registry.scrape()).contains("slotpool_borrow_wait_seconds_bucket{")
                            .doesNotContain("slotpool_borrow_wait_seconds{");
                });
    }

    @Test
    void hikariCpsMeterNamesAreThereWhereEnabledTaggedPool() {
        List<String> gauges = List.of("hikaricp.connections", "hikaricp.connections.active",
                "hikaricp.connections.idle", "hikaricp.connections.pending", "hikaricp.connections.max",
                "hikaricp.connections.min");
        pool("dash-hikari").withPropertyValues("slotpool.metrics.hikaricp=true").run(ctx -> {
            MeterRegistry registry = ctx.getBean(MeterRegistry.class);
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            try (Connection held = pool.getConnection()) {
                assertThat(held.isValid(1)).isTrue();
                eventually(() -> registry.get("hikaricp.connections.active").gauge().value() == 1);
                assertThat(registry.get("hikaricp.connections.max").gauge().value()).isEqualTo(3);
                assertThat(registry.get("hikaricp.connections.min").gauge().value()).isEqualTo(1);
                assertThat(registry.get("hikaricp.connections.pending").gauge().value()).isZero();
            }
            assertThat(registry.get("hikaricp.connections.acquire").timer().count()).isEqualTo(1);
            assertThat(registry.get("hikaricp.connections.usage").timer().count()).isEqualTo(1);
            assertThat(registry.get("hikaricp.connections.timeout").functionCounter().count()).isZero();
            for (String name : gauges) {
                assertThat(registry.get(name).gauge().getId().getTags()).as(name)
                        .containsExactly(Tag.of("pool", "dash-hikari"));
            }
            eventually(() -> registry.get("hikaricp.connections.idle").gauge().value()
                    == registry.get("hikaricp.connections").gauge().value());
        });
        pool("dash-no-hikari").run(ctx -> assertThat(ctx.getBean(MeterRegistry.class).getMeters())
                .extracting(m -> m.getId().getName()).noneMatch(n -> n.startsWith("hikaricp.")));
    }

    @Test
    void anUpOriginThatRefusesNoSessionsReadsZero() {
        pool("dash-refusing").run(ctx -> {
            borrowOnce(ctx);
            assertThat(ctx.getBean(MeterRegistry.class).get("slotpool.origin.refusing.new.sessions")
                    .tag("pool", "dash-refusing").gauge().value()).isZero();
        });
    }
}
