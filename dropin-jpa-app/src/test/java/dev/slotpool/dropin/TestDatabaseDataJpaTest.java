package dev.slotpool.dropin;

import com.zaxxer.hikari.HikariDataSource;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import javax.sql.DataSource;
import java.sql.Connection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A JPA slice whose database comes from a {@code @DynamicPropertySource}, as a Testcontainers test's does: Boot
 * keeps the application's pool there (the default {@code replace = NON_TEST}), slotpool's as HikariCP's, and the
 * repository runs on that database, not on an embedded one.
 */
@DataJpaTest
class TestDatabaseDataJpaTest {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> "jdbc:h2:mem:dynamic-jpa;DB_CLOSE_DELAY=-1");
    }

    @Autowired
    DataSource dataSource;

    @Autowired
    AccountRepository accounts;

    void runsOnTheDynamicDatabase(Class<? extends DataSource> pool) throws Exception {
        assertThat(dataSource).isInstanceOf(pool);
        try (Connection c = dataSource.getConnection()) {
            assertThat(c.getMetaData().getURL()).contains("dynamic-jpa");
        }
        accounts.save(new Account("eve", 5));
        assertThat(accounts.findByOwner("eve")).isPresent();
    }

    @Nested
    class OnSlotpool {
        @Test
        void keepsSlotpool() throws Exception {
            runsOnTheDynamicDatabase(SlotPoolDataSource.class);
        }
    }

    @Nested
    @TestPropertySource(properties = "slotpool.enabled=false")
    class OnHikari {
        @Test
        void keepsHikari() throws Exception {
            runsOnTheDynamicDatabase(HikariDataSource.class);
        }
    }
}
