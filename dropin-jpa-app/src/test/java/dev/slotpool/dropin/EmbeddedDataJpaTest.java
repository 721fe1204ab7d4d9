package dev.slotpool.dropin;

import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;

import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/** A plain JPA slice: Boot replaces the app's DataSource, slotpool's included, by an embedded database. */
@DataJpaTest
class EmbeddedDataJpaTest {

    @Autowired
    DataSource dataSource;

    @Autowired
    AccountRepository accounts;

    @Test
    void theSliceReplacesTheDataSourceByAnEmbeddedOne() {
        assertThat(dataSource).isNotInstanceOf(SlotPoolDataSource.class);
        accounts.save(new Account("dee", 5));
        assertThat(accounts.findByOwner("dee")).isPresent();
    }
}
