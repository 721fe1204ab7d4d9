package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JndiDataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import javax.naming.Context;
import javax.naming.spi.InitialContextFactory;
import javax.sql.DataSource;
import java.lang.reflect.Proxy;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spring.datasource.jndi-name} makes the application's DataSource the one bound in JNDI, as it does with
 * HikariCP on the class path: slotpool creates no pool then. The JNDI here is a map behind a test
 * {@link InitialContextFactory}, named by the standard {@code java.naming.factory.initial} system property.
 */
class JndiDataSourceTest {

    private static final String JNDI_NAME = "java:comp/env/jdbc/orders";

    /** What the test's JNDI holds, by name. */
    static final Map<String, Object> BOUND = new ConcurrentHashMap<>();

    /** Contexts whose {@code lookup(String)} reads {@link #BOUND}; every other call does nothing. */
    public static final class MapContextFactory implements InitialContextFactory {
        @Override
        public Context getInitialContext(Hashtable<?, ?> environment) {
            return (Context) Proxy.newProxyInstance(Context.class.getClassLoader(), new Class<?>[] {Context.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("lookup") && args != null && args[0] instanceof String name) {
                            Object bound = BOUND.get(name);
                            if (bound == null) {
                                throw new javax.naming.NameNotFoundException(name);
                            }
                            return bound;
                        }
                        return method.getReturnType() == boolean.class ? false : null;
                    });
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class,
                    JndiDataSourceAutoConfiguration.class, DataSourceAutoConfiguration.class));

    private String previousFactory;

    @BeforeEach
    void bindJndi() {
        previousFactory = System.getProperty(Context.INITIAL_CONTEXT_FACTORY);
        System.setProperty(Context.INITIAL_CONTEXT_FACTORY, MapContextFactory.class.getName());
    }

    @AfterEach
    void unbindJndi() {
        BOUND.clear();
        if (previousFactory == null) {
            System.clearProperty(Context.INITIAL_CONTEXT_FACTORY);
        } else {
            System.setProperty(Context.INITIAL_CONTEXT_FACTORY, previousFactory);
        }
    }

    @Test
    void jndiNameMakesTheBoundDataSourceTheApplicationsAndCreatesNoPool() {
        DataSource bound = new SimpleDriverDataSource();
        BOUND.put(JNDI_NAME, bound);
        runner.withPropertyValues("spring.datasource.jndi-name=" + JNDI_NAME,
                        "spring.datasource.url=" + StubDatabase.reset("jndi-ignored-url").url())
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    assertThat(ctx).doesNotHaveBean(SlotPoolDataSource.class);
                    assertThat(ctx.getBean(DataSource.class)).isSameAs(bound);
                });
    }

    @Test
    void withoutJndiNameSlotpoolIsTheDataSource() {
        runner.withPropertyValues("spring.datasource.url=" + StubDatabase.reset("jndi-unset").url())
                .run(ctx -> assertThat(ctx.getBean(DataSource.class)).isInstanceOf(SlotPoolDataSource.class));
    }
}
