package dev.slotpool.dropin;

import com.zaxxer.hikari.HikariDataSource;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.util.ClassUtils;

import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The whole app on slotpool: HikariCP is on the class path (spring-boot-starter-data-jpa brings it) and loses. */
@SpringBootTest
class TransferServiceTest {

    @Autowired
    ApplicationContext context;

    @Autowired
    DataSource dataSource;

    @Autowired
    AccountRepository accounts;

    @Autowired
    TransferRepository transfers;

    @Autowired
    TransferService service;

    @BeforeEach
    void accounts() {
        transfers.deleteAll();
        accounts.deleteAll();
        accounts.save(new Account("ann", 100));
        accounts.save(new Account("bob", 20));
    }

    @Test
    void theDataSourceIsSlotpoolWithHikariOnTheClassPath() {
        assertThat(ClassUtils.isPresent("com.zaxxer.hikari.HikariDataSource", getClass().getClassLoader())).isTrue();
        assertThat(dataSource).isInstanceOf(SlotPoolDataSource.class);
        assertThat(context.getBeanNamesForType(HikariDataSource.class)).isEmpty();
    }

    @Test
    void aTransferCommitsBothBalancesAndItsRecord() {
        service.transfer("ann", "bob", 30);

        assertThat(accounts.findByOwner("ann").orElseThrow().getBalance()).isEqualTo(70);
        assertThat(accounts.findByOwner("bob").orElseThrow().getBalance()).isEqualTo(50);
        assertThat(transfers.findBySourceOwner("ann")).singleElement()
                .satisfies(t -> assertThat(t.getAmount()).isEqualTo(30));
    }

    @Test
    void aRefusedTransferRollsBackWorkAlreadyFlushed() {
        assertThatThrownBy(() -> service.transfer("bob", "ann", 21)).isInstanceOf(InsufficientFundsException.class);

        assertThat(accounts.findByOwner("ann").orElseThrow().getBalance()).isEqualTo(100);
        assertThat(accounts.findByOwner("bob").orElseThrow().getBalance()).isEqualTo(20);
        assertThat(transfers.count()).isZero();
    }

    @Test
    void theRepositoriesRunOnPooledConnections() {
        SlotPoolDataSource pool = (SlotPoolDataSource) dataSource;
        long before = pool.snapshot().borrows();
        accounts.findAll();
        assertThat(pool.snapshot().borrows()).isGreaterThan(before);
    }
}
