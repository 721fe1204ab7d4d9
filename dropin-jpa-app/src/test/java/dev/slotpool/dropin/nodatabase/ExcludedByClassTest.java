package dev.slotpool.dropin.nodatabase;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

/** A JPA app that excludes the DataSource by class starts with none, slotpool's included. */
@SpringBootTest(classes = ExcludedByClassTest.App.class)
class ExcludedByClassTest {

    @SpringBootApplication(exclude = {DataSourceAutoConfiguration.class,
            DataSourceTransactionManagerAutoConfiguration.class, HibernateJpaAutoConfiguration.class})
    static class App {
    }

    @Autowired
    ApplicationContext context;

    @Test
    void startsWithNoDataSource() {
        NoDataSource.assertIn(context);
    }
}
