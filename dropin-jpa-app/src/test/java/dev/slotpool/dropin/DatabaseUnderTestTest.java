package dev.slotpool.dropin;

import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import javax.sql.DataSource;
import java.sql.Connection;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The app runs on the database the matrix cell names (DatabaseUnderTest), through slotpool. */
@SpringBootTest
class DatabaseUnderTestTest {

    private static final Map<String, String> PRODUCTS = Map.of(
            "h2", "H2", "hsqldb", "HSQL Database Engine", "postgresql", "PostgreSQL");

    @Autowired
    DataSource dataSource;

    @Test
    void theAppsDatabaseIsTheOneTheCellNames() throws Exception {
        assertThat(dataSource).isInstanceOf(SlotPoolDataSource.class);
        try (Connection c = dataSource.getConnection()) {
            assertThat(c.getMetaData().getDatabaseProductName())
                    .isEqualTo(PRODUCTS.get(System.getProperty(DatabaseUnderTest.PROPERTY, "h2")));
        }
    }
}
