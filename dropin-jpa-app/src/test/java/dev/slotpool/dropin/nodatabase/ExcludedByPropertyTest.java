package dev.slotpool.dropin.nodatabase;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

/** A JPA app that excludes the DataSource with spring.autoconfigure.exclude starts with none, slotpool's included. */
@SpringBootTest(classes = ExcludedByPropertyTest.App.class, properties = "spring.autoconfigure.exclude="
        + "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration,"
        + "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration,"
        + "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration")
class ExcludedByPropertyTest {

    @SpringBootApplication
    static class App {
    }

    @Autowired
    ApplicationContext context;

    @Test
    void startsWithNoDataSource() {
        NoDataSource.assertIn(context);
    }
}
