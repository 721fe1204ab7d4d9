package dev.slotpool.autoconfigure.containers;

import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.oracle.OracleContainer;

import javax.sql.DataSource;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @ServiceConnection} to Oracle Free ({@code gvenzl/oracle-free}) becomes the pool's default origin, with
 * the row prefetch property applied. Needs Docker: skipped without it.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(classes = ServiceConnectionApp.class, properties = "slotpool.oracle.default-row-prefetch=50")
class OracleFreeServiceConnectionTest {

    @Container
    @ServiceConnection
    static final OracleContainer ORACLE = new OracleContainer("gvenzl/oracle-free:23-slim-faststart")
            .withStartupTimeout(Duration.ofMinutes(5));

    @Autowired
    DataSource dataSource;

    @Test
    void theContainerIsThePoolsDefaultOriginWithRowPrefetch() throws Exception {
        ContainerChecks.poolServesTheContainer(dataSource, ORACLE.getJdbcUrl(), "SELECT 1 FROM DUAL");
        assertThat(((SlotPoolDataSource) dataSource).config().origins().get(0).connectionProperties())
                .containsEntry("defaultRowPrefetch", "50");
    }
}
