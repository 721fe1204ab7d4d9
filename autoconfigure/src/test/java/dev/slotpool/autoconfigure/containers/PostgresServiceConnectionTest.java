package dev.slotpool.autoconfigure.containers;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.postgresql.PostgreSQLContainer;

import javax.sql.DataSource;

/**
 * {@code @ServiceConnection} to a PostgreSQL container becomes the pool's default origin. Needs Docker: skipped
 * without it (as on the project's build machine); the embedded-PostgreSQL end-to-end tests cover the same paths.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(classes = ServiceConnectionApp.class, properties = "spring.datasource.url=jdbc:postgresql://not-used:1/x")
class PostgresServiceConnectionTest {

    @Container
    @ServiceConnection
    static final PostgreSQLContainer POSTGRES = new PostgreSQLContainer("postgres:17-alpine");

    @Autowired
    DataSource dataSource;

    @Test
    void theContainerIsThePoolsDefaultOrigin() throws Exception {
        ContainerChecks.poolServesTheContainer(dataSource, POSTGRES.getJdbcUrl(), "SELECT 1");
    }
}
