package dev.slotpool.autoconfigure.testdatabase;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * Makes {@code @AutoConfigureTestDatabase} (and the slices that carry it: {@code @JdbcTest}, {@code @DataJpaTest},
 * ...) treat slotpool's auto-configured DataSource as it treats HikariCP's. Under the default
 * {@code replace = NON_TEST} Boot keeps its own pool when it connects to a test database and replaces every other
 * DataSource with an embedded one; it recognises "its own" by the package of the {@code @Bean} method, so without
 * this slotpool's pool was always replaced. Listed in {@code AutoConfigureTestDatabase.imports} only.
 *
 * <p>{@code replace = AUTO_CONFIGURED} needs no help here: slotpool's configuration runs after Boot's test-database
 * one, whose embedded DataSource then makes slotpool's back off as it makes HikariCP's.
 */
@AutoConfiguration
@ConditionalOnClass(name = "org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase")
public final class SlotPoolTestDatabaseAutoConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnProperty(name = "spring.test.database.replace", havingValue = "NON_TEST", matchIfMissing = true)
    static KeepSlotPoolOnTestDatabase keepSlotPoolOnTestDatabase(Environment environment) {
        return new KeepSlotPoolOnTestDatabase(environment);
    }
}
