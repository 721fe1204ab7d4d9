package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.XADataSourceWrapper;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JndiDataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.XADataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.AbstractDataSource;
import org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.spi.InitialContextFactory;
import javax.sql.DataSource;
import javax.sql.XADataSource;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Hashtable;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * slotpool's place among Boot's DataSource auto-configurations is HikariCP's: after the JNDI and XA ones (an app
 * that names a JNDI DataSource or has a JTA XA wrapper gets what it configured), backing off for an R2DBC
 * {@code ConnectionFactory}, and wrapped for {@code spring.datasource.connection-fetch=lazy}.
 */
class SlotPoolOrderingTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class,
                    JndiDataSourceAutoConfiguration.class, XADataSourceAutoConfiguration.class,
                    DataSourceAutoConfiguration.class));

    /** The DataSource the JNDI context below answers with. */
    static final AtomicReference<DataSource> IN_JNDI = new AtomicReference<>();

    /** A JNDI provider whose context answers every name with {@link #IN_JNDI}. */
    public static final class TestInitialContextFactory implements InitialContextFactory {

        @Override
        public Context getInitialContext(Hashtable<?, ?> environment) {
            return (Context) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Context.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "lookup" -> {
                            if (IN_JNDI.get() == null) {
                                throw new NameNotFoundException(String.valueOf(args[0]));
                            }
                            yield IN_JNDI.get();
                        }
                        case "close" -> null;
                        case "getEnvironment" -> new Hashtable<>();
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }
    }

    /** A JTA wrapper's stand-in: the DataSource it makes of Boot's XADataSource. */
    static final class XaWrapped extends AbstractDataSource {

        final XADataSource xa;

        XaWrapped(XADataSource xa) {
            this.xa = xa;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return xa.getXAConnection().getConnection();
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return xa.getXAConnection(username, password).getConnection();
        }
    }

    private static String stubUrl(String name) {
        return "spring.datasource.url=" + StubDatabase.reset(name).url();
    }

    @Test
    void aJndiNameGivesTheJndiDataSource() {
        DataSource fromJndi = new SimpleDriverDataSource();
        IN_JNDI.set(fromJndi);
        try {
            runner.withSystemProperties(Context.INITIAL_CONTEXT_FACTORY + "=" + TestInitialContextFactory.class.getName())
                    .withPropertyValues("spring.datasource.jndi-name=java:comp/env/jdbc/app", stubUrl("jndi"))
                    .run(ctx -> {
                        assertThat(ctx).hasNotFailed();
                        assertThat(ctx).hasSingleBean(DataSource.class);
                        assertThat(ctx.getBean(DataSource.class)).isSameAs(fromJndi);
                        assertThat(ctx).doesNotHaveBean(SlotPoolDataSource.class);
                    });
        } finally {
            IN_JNDI.set(null);
        }
    }

    @Test
    void aJtaXaWrapperGetsBootsXaDataSource() {
        runner.withBean(XADataSourceWrapper.class, () -> XaWrapped::new)
                .withPropertyValues("spring.datasource.url=jdbc:h2:mem:slotpool-xa;DB_CLOSE_DELAY=-1")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    assertThat(ctx).hasSingleBean(DataSource.class);
                    assertThat(ctx.getBean(DataSource.class)).isInstanceOf(XaWrapped.class);
                    assertThat(ctx).doesNotHaveBean(SlotPoolDataSource.class);
                    try (Connection c = ctx.getBean(DataSource.class).getConnection()) {
                        assertThat(c.isValid(5)).isTrue();
                    }
                });
    }

    @Test
    void anR2dbcConnectionFactoryMakesItBackOffAsBootsPoolsDo() {
        runner.withBean(ConnectionFactory.class, () -> new ConnectionFactory() { })
                .withPropertyValues(stubUrl("r2dbc"))
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    assertThat(ctx).doesNotHaveBean(DataSource.class);
                });
    }

    @Test
    void lazyConnectionFetchWrapsThePoolAsBootWrapsHikari() {
        runner.withPropertyValues(stubUrl("lazy-fetch"), "spring.datasource.connection-fetch=lazy", "slotpool.min-size=0")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    DataSource dataSource = ctx.getBean(DataSource.class);
                    assertThat(dataSource).isInstanceOf(LazyConnectionDataSourceProxy.class);
                    SlotPoolDataSource pool = SlotPools.unwrap(dataSource);
                    assertThat(pool).isNotNull();
                    try (Connection c = dataSource.getConnection()) {
                        assertThat(c.isValid(5)).isTrue();
                    }
                    ctx.close();
                    assertThat(pool.isClosed()).as("the pool is still closed with the context").isTrue();
                });
    }

    @Test
    void eagerConnectionFetchLeavesThePoolUnwrapped() {
        runner.withPropertyValues(stubUrl("eager-fetch"), "spring.datasource.connection-fetch=eager", "slotpool.min-size=0")
                .run(ctx -> assertThat(ctx.getBean(DataSource.class)).isInstanceOf(SlotPoolDataSource.class));
    }
}
