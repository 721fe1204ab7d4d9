package dev.slotpool.dropin;

import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;

import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The JPA slice keeping the app's database runs on slotpool, as it would run on HikariCP. */
@DataJpaTest
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
class SlotpoolDataJpaTest {

    @Autowired
    DataSource dataSource;

    @Autowired
    AccountRepository accounts;

    @Test
    void theSliceDataSourceIsSlotpool() {
        assertThat(dataSource).isInstanceOf(SlotPoolDataSource.class);
        accounts.save(new Account("cy", 5));
        assertThat(accounts.findByOwner("cy")).isPresent();
    }
}
