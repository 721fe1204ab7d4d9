package dev.slotpool.dropin;

import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.jdbc.core.simple.JdbcClient;

import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The JDBC slice keeping the app's database runs on slotpool. */
@JdbcTest
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
class SlotpoolJdbcTest {

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcClient jdbc;

    @Test
    void theSliceDataSourceIsSlotpool() {
        assertThat(dataSource).isInstanceOf(SlotPoolDataSource.class);
        // VALUES, not SELECT without FROM: every database of the matrix (DatabaseUnderTest) takes it.
        assertThat(jdbc.sql("VALUES (1)").query(Integer.class).single()).isEqualTo(1);
        assertThat(((SlotPoolDataSource) dataSource).snapshot().borrows()).isPositive();
    }
}
