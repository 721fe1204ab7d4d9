package dev.slotpool.console;

import dev.slotpool.OriginConfig;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.thymeleaf.autoconfigure.ThymeleafAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import static dev.slotpool.console.ConsoleTestSupport.states;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Two pools of the application's own in one console: a picker, a page and actions per pool (docs/console.md). */
class ConsoleSeveralPoolsTest {

    @Test
    void eachPoolHasItsPageAndActionsTouchOnlyItsPool() {
        new WebApplicationContextRunner()
                .withInitializer(ctx -> ctx.getEnvironment().setConversionService(
                        (org.springframework.core.convert.support.ConfigurableConversionService)
                                org.springframework.boot.convert.ApplicationConversionService.getSharedInstance()))
                .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class,
                        SlotPoolConsoleAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
                        WebMvcAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class,
                        JacksonAutoConfiguration.class, ThymeleafAutoConfiguration.class))
                .withPropertyValues("slotpool.console.enabled=true", "slotpool.console.actions-enabled=true",
                        "management.endpoint.pool.access=unrestricted")
                .withUserConfiguration(Pools.class).run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    SlotPoolDataSource orders = ctx.getBean("orders", SlotPoolDataSource.class);
                    SlotPoolDataSource billing = ctx.getBean("billing", SlotPoolDataSource.class);
                    MockMvc mvc = MockMvcBuilders.webAppContextSetup(ctx).build();

                    String first = mvc.perform(get("/slotpool")).andExpect(status().isOk()).andReturn().getResponse()
                            .getContentAsString();
                    assertThat(first).contains("<nav class=\"pools\"", "href=\"/slotpool?pool=orders\"",
                            "href=\"/slotpool?pool=billing\"", "data-origin=\"east\"", "data-query=\"?pool=orders\"",
                            "<input type=\"hidden\" name=\"pool\" value=\"orders\">");
                    String second = mvc.perform(get("/slotpool").param("pool", "billing")).andExpect(status().isOk())
                            .andReturn().getResponse().getContentAsString();
                    assertThat(second).contains("data-origin=\"ledger\"", "<span class=\"pool-name\">billing</span>")
                            .doesNotContain("data-origin=\"east\"");
                    mvc.perform(get("/slotpool/snapshot").param("pool", "billing")).andExpect(status().isOk())
                            .andExpect(jsonPath("$.pool.name").value("billing"));
                    mvc.perform(get("/slotpool/snapshot").param("pool", "south")).andExpect(status().isNotFound())
                            .andExpect(jsonPath("$.message").value("unknown pool 'south' (known pools: orders, billing)"));
                    mvc.perform(get("/slotpool").param("pool", "south")).andExpect(status().isNotFound());

                    mvc.perform(post("/slotpool/origins/ledger/down").contentType(MediaType.APPLICATION_FORM_URLENCODED)
                            .param("pool", "billing").with(ConsoleTestSupport.consoleToken(mvc))).andExpect(status().isOk());
                    assertThat(states(billing)).containsEntry("ledger", "DOWN");
                    assertThat(states(orders)).containsEntry("east", "UP");
                    mvc.perform(post("/slotpool/origins/ledger/down").contentType(MediaType.APPLICATION_FORM_URLENCODED)
                            .param("pool", "south").with(ConsoleTestSupport.consoleToken(mvc))).andExpect(status().isBadRequest());
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class Pools {

        @Bean(destroyMethod = "close")
        SlotPoolDataSource orders() {
            return SlotPoolDataSource.builder().name("orders").minSize(1).maxSize(2)
                    .origin(OriginConfig.named("east").url(StubDatabase.reset("console-several-east").url())).build();
        }

        @Bean(destroyMethod = "close")
        SlotPoolDataSource billing() {
            return SlotPoolDataSource.builder().name("billing").minSize(1).maxSize(2)
                    .origin(OriginConfig.named("ledger").url(StubDatabase.reset("console-several-ledger").url())).build();
        }
    }
}
