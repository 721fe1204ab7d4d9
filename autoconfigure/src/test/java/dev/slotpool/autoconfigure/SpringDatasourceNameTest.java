package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code spring.datasource.name} names the pool, as it names HikariCP's, unless {@code slotpool.name} is set. */
class SpringDatasourceNameTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=" + StubDatabase.reset("named").url());

    @Test
    void springDatasourceNameNamesThePool() {
        runner.withPropertyValues("spring.datasource.name=orders")
                .run(ctx -> assertThat(ctx.getBean(SlotPoolDataSource.class).config().name()).isEqualTo("orders"));
    }

    @Test
    void slotpoolNameWins() {
        runner.withPropertyValues("spring.datasource.name=orders", "slotpool.name=shop")
                .run(ctx -> assertThat(ctx.getBean(SlotPoolDataSource.class).config().name()).isEqualTo("shop"));
    }

    @Test
    void withNeitherThePoolKeepsTheEngineDefault() {
        runner.run(ctx -> assertThat(ctx.getBean(SlotPoolDataSource.class).config().name()).isEqualTo("slotpool"));
    }
}
