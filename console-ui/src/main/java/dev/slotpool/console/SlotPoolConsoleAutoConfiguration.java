package dev.slotpool.console;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.PoolAccessPolicy;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.autoconfigure.SlotPoolProperties;
import dev.slotpool.autoconfigure.SlotPools;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.LazyInitializationExcludeFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.thymeleaf.spring6.SpringTemplateEngine;
import org.thymeleaf.spring6.templateresolver.SpringResourceTemplateResolver;
import org.thymeleaf.templatemode.TemplateMode;
import org.thymeleaf.templateresolver.ITemplateResolver;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * The admin console (docs/console.md) in a servlet web application with Thymeleaf, when the pool is slotpool
 * and {@code slotpool.console.enabled} is true ({@link ConsoleEnabledCondition}). Registers no security chain: the
 * application's chain decides who reads ({@link SlotPoolConsoleRequest}); who acts is the {@link PoolAccessPolicy}
 * the pool endpoint shares ({@link ConsoleAccess}), and every action carries the page's token
 * ({@link ConsoleToken}). Its templates resolve only through its own resolver
 * (prefix {@code classpath:/slotpool-console/templates/}, view names {@code slotpool-console/*}), so the
 * application's templates are never shadowed and never shadow it; its assets are served below
 * {@code {path}/assets/}; every answer carries {@link ConsoleHeaders}.
 */
@AutoConfiguration(after = SlotPoolAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({SpringTemplateEngine.class, SlotPoolDataSource.class, WebMvcConfigurer.class})
@ConditionalOnBean(SlotPoolDataSource.class)
@Conditional(ConsoleEnabledCondition.class)
@EnableConfigurationProperties(SlotPoolProperties.class)
public class SlotPoolConsoleAutoConfiguration {

    /** Where the page's templates are on the class path. */
    static final String TEMPLATES = "slotpool-console/templates/";
    /** Where the page's CSS and JavaScript are on the class path. */
    static final String ASSETS = "slotpool-console/static/";

    @Bean
    ConsoleSettings slotPoolConsoleSettings(SlotPoolProperties properties, Environment environment,
                                            ResourceLoader resourceLoader) {
        String path = properties.getConsole().getPath();
        if (path == null || !path.startsWith("/") || path.endsWith("/") || path.contains("*") || path.contains("{")) {
            throw new IllegalStateException("slotpool.console.path must start with '/', not end with '/' and hold "
                    + "no pattern (was '" + path + "')");
        }
        // One stream serves every reader, so "when-authorized" cannot be told per reader here: always, or masked.
        boolean showUrls = "always".equalsIgnoreCase(environment.getProperty("management.endpoint.pool.show-values",
                "never").trim());
        return new ConsoleSettings(path, properties.getConsole().getActionsEnabled(),
                PoolAccessPolicy.of(environment, resourceLoader.getClassLoader()), showUrls);
    }

    @Bean
    ConsoleToken slotPoolConsoleToken(ConsoleSettings settings) {
        return new ConsoleToken(settings.path());
    }

    /** Keeps the last pool events for the page; the pool registers every PoolListener bean. */
    @Bean
    ConsoleEventLog slotPoolConsoleEventLog() {
        return new ConsoleEventLog();
    }

    /** Every slotpool of the application, each with its views and streams. */
    @Bean(destroyMethod = "close")
    ConsolePools slotPoolConsolePools(Map<String, DataSource> dataSources, ObjectProvider<WaitPercentiles> waits,
                                      ConsoleEventLog events, ConsoleSettings settings) {
        WaitPercentiles percentiles = waits.getIfAvailable(() -> WaitPercentiles.NONE);
        return new ConsolePools(SlotPools.of(dataSources),
                // The event log hears only the pools it listens to (the auto-configured one); the others show none.
                pool -> new ConsoleViewSource(pool, percentiles,
                        pool.config().listeners().contains(events) ? events : new ConsoleEventLog(), System::nanoTime,
                        settings.showUrls()),
                views -> new ConsoleStreams(views::view, ConsoleStreams.DEFAULT_MAX_STREAMS,
                        ConsoleStreams.DEFAULT_MAX_STREAMS_PER_CLIENT, Duration.ofSeconds(1)),
                pool -> new ConsoleHistory(pool::snapshot, pool::limits, percentiles, System::nanoTime,
                        System::currentTimeMillis));
    }

    /** The sampler starts with the context even under lazy initialization: the history must fill before a page
     * asks for it. */
    @Bean
    static LazyInitializationExcludeFilter slotPoolConsoleSamplerNotLazy() {
        return LazyInitializationExcludeFilter.forBeanTypes(ConsoleSampler.class);
    }

    /** One thread samples every pool's chart history once a second, stopped at context close. */
    @Bean(destroyMethod = "close")
    ConsoleSampler slotPoolConsoleSampler(ConsolePools pools) {
        return new ConsoleSampler(pools.histories(), Duration.ofMillis(ConsoleHistory.INTERVAL_MILLIS));
    }

    @Bean
    SlotPoolConsoleController slotPoolConsoleController(ConsolePools pools, ConsoleSettings settings,
                                                        ConsoleToken token) {
        return new SlotPoolConsoleController(pools, settings, token);
    }

    /**
     * Resolves only {@code slotpool-console/*} view names, before the application's resolvers; Boot's
     * Thymeleaf auto-configuration adds every template resolver bean to its engine.
     */
    @Bean
    ITemplateResolver slotPoolConsoleTemplateResolver(ApplicationContext context) {
        SpringResourceTemplateResolver resolver = new SpringResourceTemplateResolver();
        resolver.setApplicationContext(context);
        resolver.setPrefix("classpath:/" + TEMPLATES);
        resolver.setSuffix(".html");
        resolver.setTemplateMode(TemplateMode.HTML);
        resolver.setCharacterEncoding("UTF-8");
        resolver.setResolvablePatterns(Set.of("slotpool-console/*"));
        resolver.addTemplateAlias(SlotPoolConsoleController.VIEW, "console");
        resolver.setCheckExistence(true);
        resolver.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return resolver;
    }

    @Bean
    WebMvcConfigurer slotPoolConsoleAssets(ConsoleSettings settings) {
        return new WebMvcConfigurer() {
            @Override
            public void addResourceHandlers(ResourceHandlerRegistry registry) {
                registry.addResourceHandler(settings.path() + "/assets/**")
                        .addResourceLocations("classpath:/" + ASSETS);
            }

            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(new ConsoleHeaders(settings.path()))
                        .addPathPatterns(settings.path(), settings.path() + "/**");
            }
        };
    }

    /** Wait percentiles from the {@code slotpool.borrow.wait} timer when Micrometer is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    static class Percentiles {

        @Bean
        WaitPercentiles slotPoolConsoleWaitPercentiles(ObjectProvider<MeterRegistry> registry) {
            return new MeterWaitPercentiles(registry);
        }
    }
}
