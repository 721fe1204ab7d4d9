package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.PoolActions.Problem;
import dev.slotpool.autoconfigure.endpoint.PoolEndpoint;
import dev.slotpool.autoconfigure.endpoint.PoolEndpointAutoConfiguration;
import dev.slotpool.autoconfigure.PoolViews.PoolView;
import dev.slotpool.autoconfigure.health.SlotPoolHealthAutoConfiguration;
import dev.slotpool.autoconfigure.metrics.SlotPoolMetricsAutoConfiguration;
import dev.slotpool.testsupport.StubDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import javax.sql.DataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with several slotpools of its own (docs/operations.md, Several pools): one named, two left at the
 * default name (so keyed by bean name), one of them behind a wrapping proxy as a tracing BeanPostProcessor makes.
 * Each gets its meters, its health entry and its place in the endpoint; nothing asks for a unique pool.
 */
class SeveralPoolsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class,
                    MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, SlotPoolMetricsAutoConfiguration.class,
                    SlotPoolHealthAutoConfiguration.class, EndpointAutoConfiguration.class,
                    PoolEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=pool")
            .withUserConfiguration(Pools.class);

    @Test
    void eachPoolHasItsMetersTaggedByItsKey() {
        runner.run(ctx -> {
            assertThat(ctx).hasNotFailed();
            MeterRegistry registry = ctx.getBean(MeterRegistry.class);
            assertThat(registry.get("slotpool.connections.max").tag("pool", "orders").gauge().value()).isEqualTo(3);
            assertThat(registry.get("slotpool.connections.max").tag("pool", "reports").gauge().value()).isEqualTo(4);
            assertThat(registry.get("slotpool.connections.max").tag("pool", "billing").gauge().value()).isEqualTo(5);
            assertThat(registry.find("slotpool.connections.max").tag("pool", "slotpool").gauge()).isNull();
            assertThat(registry.get("slotpool.origin.state").tags("pool", "billing", "origin", "default", "state", "UP")
                    .gauge().value()).isEqualTo(1);
        });
    }

    @Test
    void healthIsACompositeWithAnEntryPerPool() {
        runner.run(ctx -> {
            HealthContributor contributor = ctx.getBean("slotpoolHealthIndicator", HealthContributor.class);
            assertThat(contributor).isInstanceOf(CompositeHealthContributor.class);
            CompositeHealthContributor composite = (CompositeHealthContributor) contributor;
            for (String key : new String[] {"orders", "reports", "billing"}) {
                HealthIndicator entry = (HealthIndicator) composite.getContributor(key);
                assertThat(entry).as(key).isNotNull();
                assertThat(entry.health().getStatus()).as(key).isEqualTo(Status.UP);
            }
            assertThat(composite.stream().count()).isEqualTo(3);
        });
    }

    @Test
    void theEndpointListsEveryPoolAndAddressesOneByItsKey() {
        runner.run(ctx -> {
            PoolEndpoint endpoint = ctx.getBean(PoolEndpoint.class);
            PoolEndpoint.PoolsView all = (PoolEndpoint.PoolsView) endpoint.pool(org.springframework.boot.actuate.endpoint.SecurityContext.NONE, null).getBody();
            assertThat(all.pools()).containsOnlyKeys("orders", "reports", "billing");
            assertThat(all.pools().get("billing").sizes().max()).isEqualTo(5);

            PoolView reports = (PoolView) endpoint.pool(org.springframework.boot.actuate.endpoint.SecurityContext.NONE, "reports").getBody();
            assertThat(reports.sizes().max()).isEqualTo(4);
            assertThat(endpoint.origin(org.springframework.boot.actuate.endpoint.SecurityContext.NONE, "default", "orders").getStatus()).isEqualTo(200);

            WebEndpointResponse<Object> unknown = endpoint.pool(org.springframework.boot.actuate.endpoint.SecurityContext.NONE, "south");
            assertThat(unknown.getStatus()).isEqualTo(404);
            assertThat(((Problem) unknown.getBody()).message())
                    .isEqualTo("unknown pool 'south' (known pools: orders, reports, billing)");
            WebEndpointResponse<Object> unnamed = endpoint.originAction(org.springframework.boot.actuate.endpoint.SecurityContext.NONE, "default", "down", null, null, null, null);
            assertThat(unnamed.getStatus()).isEqualTo(400);
            assertThat(((Problem) unnamed.getBody()).message()).contains("several pools", "'pool'");

            assertThat(endpoint.originAction(org.springframework.boot.actuate.endpoint.SecurityContext.NONE, "default", "down", null, null, null, "billing").getStatus()).isEqualTo(200);
            assertThat(ctx.getBean("billing", DataSource.class).unwrap(SlotPoolDataSource.class).snapshot()
                    .origin("default").orElseThrow().state().name()).isEqualTo("DOWN");
            assertThat(ctx.getBean("orders", SlotPoolDataSource.class).snapshot().origin("default").orElseThrow()
                    .state().name()).isEqualTo("UP");
        });
    }

    @Test
    void twoPoolsWithOneExplicitNameAreRefusedWithTheReason() {
        SlotPoolDataSource a = pool("twin", "twin-a", 1);
        SlotPoolDataSource b = pool("twin", "twin-b", 1);
        try (a; b) {
            assertThat(SlotPools.of(Map.of("twin", a, "other", b)).keys()).containsExactlyInAnyOrder("twin", "other");
            SlotPoolDataSource c = pool("other", "twin-c", 1);
            try (c) {
                Map<String, DataSource> clash = new java.util.LinkedHashMap<>();
                clash.put("twin", a);
                clash.put("other", b);
                clash.put("third", c);
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> SlotPools.of(clash))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("both keyed 'other'");
            }
        }
    }

    private static SlotPoolDataSource pool(String name, String database, int max) {
        var builder = SlotPoolDataSource.builder().url(StubDatabase.reset(database).url()).minSize(1).maxSize(max);
        return (name == null ? builder : builder.name(name)).build();
    }

    @Configuration(proxyBeanMethods = false)
    static class Pools {

        @Bean(destroyMethod = "close")
        SlotPoolDataSource orders() {
            return pool("orders", "several-orders", 3);
        }

        @Bean(destroyMethod = "close")
        SlotPoolDataSource reports() {
            return pool(null, "several-reports", 4);
        }

        @Bean(destroyMethod = "close")
        SlotPoolDataSource billing() {
            return pool(null, "several-billing", 5);
        }

        /** Wraps {@code billing} as a tracing library would: a DataSource proxy delegating everything. */
        @Bean
        static BeanPostProcessor tracingWrapper() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String name) {
                    if (!name.equals("billing")) {
                        return bean;
                    }
                    return Proxy.newProxyInstance(SeveralPoolsTest.class.getClassLoader(),
                            new Class<?>[] {DataSource.class, AutoCloseable.class}, (proxy, method, args) -> {
                                try {
                                    return method.invoke(bean, args);
                                } catch (InvocationTargetException e) {
                                    throw e.getCause();
                                }
                            });
                }
            };
        }
    }
}
